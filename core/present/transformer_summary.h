#pragma once
// A transformer cell's one-line summary and the short texts it is made of, without Qt: the PDF,
// the web page and the page's WebAssembly module write the same line (transformer.md).

#include "core/document/cell_specs.h"
#include "core/math/transformer_result.h"

#include <string>
#include <vector>

namespace attnbook {

// "tokens the, cat · 2 layers · 2 heads · d 8 · d_ff 16 GELU · T = 0.5 · 40 words".
std::string transformerSummaryText(const TransformerCellSpec& spec, const TransformerResult& r);

// A word on one line: tabs and line breaks as spaces, and at most `chars` characters (code
// points), the last an ellipsis when it is cut.
std::string shortWordText(const std::string& word, int chars = 18);

// A setting as an author writes it: T = 0.5, not 0.500000; 20, not 20.0.
std::string settingText(double value);

} // namespace attnbook
