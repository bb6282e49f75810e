#pragma once
// A transformer cell's `next` view (transformer.md), without Qt: the chances of the word after
// the last token, the likeliest first, with the word the cell picks marked. The PDF paints it,
// the web page writes it as HTML (view_html.h), and the page's module writes it again after a
// what-if, all from this.

#include "core/document/cell_specs.h"
#include "core/math/transformer_result.h"

#include <optional>
#include <string>
#include <vector>

namespace attnbook {

struct NextWordBar {
    std::string word;
    double share = 0.0; // its chance, 0 … 1
    bool chosen = false;
    bool extra = false; // the chosen word, not among the likeliest: shown apart, last
};

struct NextWordsView {
    std::string title; // "Next word after “cat” (row 3)"
    std::string note;  // "p = softmax(logits / T) with T = 0.5, the 10 most likely of 40 words:"
    std::string mark;  // beside the chosen word: "greedy pick", "chosen (sampled)", …
    std::vector<NextWordBar> bars; // the likeliest (at most 10), then the chosen one if apart
    std::optional<double> loss;    // the mean cross-entropy over the targets, when given
};

NextWordsView nextWordsView(const TransformerCellSpec& spec, const TransformerResult& result);

} // namespace attnbook
