#pragma once
// The views the web page redraws after a what-if, as HTML, without Qt (docs/web-page.md): an
// attention cell's `matrices` tables and a transformer cell's `next` chances. The exported page
// writes them, and the page's WebAssembly module writes them again after a what-if, so what a
// reader sees follows the what-if with no rule written twice. Lesson text (token names,
// labels) goes through htmlText (html_text.h).

#include "core/present/attention_matrices.h"
#include "core/present/next_words_view.h"

#include <string>

namespace attnbook {

// One row of a bars table (<table class="bars">): the label, a bar as long as `share` (0 … 1)
// of its track, the value, and a mark (the chosen word's, or "").
std::string barRowHtml(const std::string& rowClass, const std::string& label, double share,
                       const std::string& value, const std::string& mark);

// A matrix as a <table> with its caption, row and column labels, and entries written as the
// PDF writes them (a blocked share 0, a blocked score −∞, marked), at most its maxRows ×
// maxColumns with the rest counted.
std::string matrixTableHtml(const PresentedMatrix& table);

// The body of the `matrices` view: the compact list (presentedMatrices) in its groups, and a
// note when Q = K = V = X.
std::string attentionMatricesHtml(const AttentionCellSpec& spec, const AttentionResult& result);

// The body of the `heatmap` view: each shown head's shares (at most four heads, the first 24
// rows and columns) as a table whose entries are coloured as the PDF colours them
// (heat_colours.h), with their values where they fit (14 keys at most), masked ones marked.
std::string heatmapHtml(const AttentionResult& result);

// The body of the `shares` view: the shares query row `focus` gives each key (the keys the
// window shows, shares_shown.h), as bars with their values, one table per shown head.
std::string sharesHtml(const AttentionResult& result, int focus);

// The body of the `arithmetic` view: for query row `focus` of each shown head, the four steps
// (workedArithmetic: compare, scale, softmax, combine) with their lines numbered on through the
// steps, at most 16 lines a step.
std::string arithmeticHtml(const AttentionResult& result, int focus);

// The body of the `trace` view: the same computation as eight titled steps (traceSteps) for
// each shown head, at most 16 lines a step.
std::string traceHtml(const AttentionResult& result, int focus);

// The body of the `next` view: its note, one row per word (the word, a bar as long as its
// chance, the chance to 4 decimals, the mark of the chosen word), and the loss when given.
std::string nextWordsHtml(const NextWordsView& view);

} // namespace attnbook
