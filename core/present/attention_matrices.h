#pragma once
// The matrices an attention cell shows, without Qt: which ones, in reading order, with their
// captions, labels and masked entries (docs/lesson-format.md, the `matrices` view). The PDF,
// the worksheet, the web page and the page's WebAssembly module all read this one list, so
// a what-if on the page redraws the same tables the export printed.

#include "core/document/cell_specs.h"
#include "core/math/attention_result.h"

#include <armadillo>

#include <string>
#include <vector>

namespace attnbook {

// One matrix as a reader sees it.
struct PresentedMatrix {
    std::string name;    // "X", "Q", "scores", "weights", "context", "concat", "output", ...
    int head = -1;       // for scores, weights and context
    int group = 0;       // inputs, weights, projections, each head, output: shown together
    std::string caption; // "A = softmax(S)"
    std::string note;    // small print beside the caption ("head 1")
    std::vector<std::string> rowLabels;
    std::vector<std::string> columnLabels;
    arma::mat values;
    arma::umat blocked; // empty, or 1 where the mask blocks the entry
    int digits = 4;
    int maxRows = 16; // larger matrices show their first rows and columns
    int maxColumns = 10;
};

// The matrices of the `matrices` view, in reading order: inputs, projections, each head's
// scores, shares and context, the output (at most four heads). `compact` leaves out what
// equals another matrix (Q = X when W_Q is the identity); the worksheet asks for all. Names
// are those of worksheet.blank.
std::vector<PresentedMatrix> presentedMatrices(const AttentionCellSpec& spec,
                                               const AttentionResult& result, bool compact);

// Is this projection the identity with a zero bias?
bool plainProjection(const Projection& weights, const arma::rowvec& bias);
// Q = K = V = X: every input projection plain, so the compact view leaves them out.
bool plainInputProjections(const AttentionCellSpec& spec, const AttentionResult& result);

// One line about the cell's set-up: "tokens red, blue, red · width 4 · 1 head · scores ÷ √4".
std::string attentionSummaryText(const AttentionCellSpec& spec, const AttentionResult& result);

// Row labels of the queries, of the keys; coordinates "1".."n" from `first`.
std::vector<std::string> queryLabelTexts(const AttentionResult& result);
std::vector<std::string> keyLabelTexts(const AttentionResult& result);
std::vector<std::string> coordinateLabelTexts(int count, int first = 1);

} // namespace attnbook
