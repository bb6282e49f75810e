#pragma once
// The printed form of a transformer cell (transformer.md) in the lesson PDF, in the style of the
// attention cell's pages: its settings, then each view its `views` list asks for — the residual
// stream of the focus token stage by stage, the FFN's hidden units, the next word's chances, the
// generation with its costs, the key/value cache, attention in blocks, the gradients with the
// gradient check, and each layer's attention drawn as an attention cell draws it.

#include "exports/paint/grid_figure.h"
#include "exports/paint/pdf_cells.h"

#include "core/math/transformer_result.h"

namespace attnbook {

// One line about the cell's set-up: "tokens the, cat, sat · 2 layers · 2 heads · d 16 · …".
QString transformerSummary(const TransformerCellSpec& spec, const TransformerResult& result);

// Every box of the cell: its header, its settings, then its views in the order listed.
std::vector<PdfBoxPtr> transformerCellBoxes(const LessonCell& cell, const TransformerCellSpec& spec,
                                            const TransformerResult& result,
                                            const CellPrintArea& area);

} // namespace attnbook
