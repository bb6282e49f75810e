#pragma once
// A transformer cell's views as HTML, without Qt, for the web page (docs/web-page.md): the
// residual stream, the FFN's hidden units, the generation, the cache, attention in blocks and
// the knock-outs. The exported page writes them, and the page's WebAssembly module writes them
// again after a what-if, from the same data the window and the PDF read
// (transformer_views.h), with the PDF's limits (exports/paint/transformer_*.cpp): the first 8
// coordinates, 64 hidden units, 12 steps of the cache. Lesson text (tokens, words) goes
// through htmlText (html_text.h). Each writes the body of the view; its title is the view's
// name (view_titles.h), so that nothing a what-if changes sits outside the body.

#include "core/document/cell_specs.h"
#include "core/math/transformer_result.h"

#include <string>

namespace attnbook {

struct LessonCell;

// The focus row through the stream: the input, each layer's + attention, = R, + FFN, = Xˡ, and
// the final LayerNorm, its first 8 coordinates and its length.
std::string streamHtml(const TransformerResult& result);

// Each layer's hidden units for the focus row: z and act(z) shaded when d_ff ≤ 8, else the
// first 64 activations as a grid beside the 6 strongest.
std::string ffnHtml(const TransformerCellSpec& spec, const TransformerResult& result);

// The words generated, one row a step (its word, chance and query–key comparisons with and
// without the cache), or why there are none.
std::string generationHtml(const TransformerCellSpec& spec, const TransformerResult& result);

// What the cache holds, as a formula, and the comparisons of each step (the first 12) as two
// bars. `generationShown`: the cell shows its generation too, which says why it was refused.
std::string cacheHtml(const TransformerCellSpec& spec, const TransformerResult& result,
                      bool generationShown);

// The last layer's head 1 for the focus row, in blocks of the cell's block size: the running
// maximum, total and output after each block, then the output beside the plain path's. "" when
// no layer ran.
std::string blocksHtml(const TransformerCellSpec& spec, const TransformerResult& result);

// Each layer's attention (the first 4 layers) as an attention cell shows it, in the views the
// cell asks for among matrices, heatmap, shares, arithmetic and trace, each titled "Layer L ·
// VIEW"; its X is the layer's input H = LN₁(Xˡ⁻¹). "" when the cell asks for none of them.
std::string transformerAttentionHtml(const TransformerCellSpec& spec,
                                     const TransformerResult& result);

// The focus row's top word's chance with each part removed, as bars under the whole model's.
// "" when the cell computed no knock-outs.
std::string knockoutHtml(const TransformerResult& result);

// The gradients view: what L is, then each parameter's gradient (transformer_views.h
// gradientRows) with its shape, norm and largest entry, then the gradient check in words.
std::string transformerGradientsHtml(const TransformerCellSpec& spec,
                                     const TransformerResult& result);

// The training view: how the cell trains and how far the loss fell, then the curve of the loss
// at each step (and on the held-out sentences) as inline SVG (line_chart_svg.h). "" when the
// cell does not train.
std::string trainingHtml(const TransformerCellSpec& spec, const TransformerResult& result);

// The Settings view (transformer_settings.h): its rows as a table of labels and texts, the
// focus token emphasised, then one row per layer (a layer not run marked "not-run").
std::string transformerSettingsHtml(const LessonCell& cell, const TransformerCellSpec& spec,
                                    const TransformerResult& result);

} // namespace attnbook
