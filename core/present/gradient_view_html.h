#pragma once
// An attention cell's `gradients` view as HTML, without Qt, for the web page (docs/web-page.md):
// the exported page writes it, and the page's WebAssembly module writes it again after a
// what-if. The same tables the PDF prints (exports/paint/pdf_cells.cpp): the upstream gradient
// G_Y = ∂L/∂Y, then ∂L/∂ of each input and parameter of the cell's mode
// (parameterGradientNames, attention_views.h), each as matrixTableHtml writes a matrix (its
// first 16 rows and 10 columns, the rest counted), and the gradient check in the window's words.

#include "core/document/cell_specs.h"
#include "core/math/attention_result.h"

#include <string>

namespace attnbook {

std::string attentionGradientsHtml(const AttentionCellSpec& spec, const AttentionResult& result);

} // namespace attnbook
