#pragma once
// The printed views of a transformer cell, one box each (docs/transformer.md "Views"):
// transformer_model_boxes.cpp draws what the model computes for the tokens (settings, stream,
// FFN, next word), transformer_run_boxes.cpp what it does beyond one pass (knock-outs,
// training, generation, the cache, attention in blocks, gradients). transformerCellBoxes
// (pdf_transformer.h) puts them in the order the cell asks for.

#include "exports/paint/pdf_cells.h"

#include "core/math/transformer_result.h"

namespace attnbook::transformer_paint {

PdfBoxPtr settingsView(const LessonCell& cell, const TransformerCellSpec& spec,
                       const TransformerResult& r, const CellPrintArea& area);
PdfBoxPtr streamView(const TransformerResult& r, const CellPrintArea& area);
PdfBoxPtr ffnView(const TransformerCellSpec& spec, const TransformerResult& r,
                  const CellPrintArea& area);
PdfBoxPtr nextView(const TransformerCellSpec& spec, const TransformerResult& r,
                   const CellPrintArea& area);

PdfBoxPtr knockoutView(const TransformerResult& r, const CellPrintArea& area);
PdfBoxPtr trainingView(const TransformerCellSpec& spec, const TransformerResult& r,
                       const CellPrintArea& area);
PdfBoxPtr generationView(const TransformerCellSpec& spec, const TransformerResult& r,
                         const CellPrintArea& area);
PdfBoxPtr cacheView(const TransformerCellSpec& spec, const TransformerResult& r,
                    bool generationShown, const CellPrintArea& area);
PdfBoxPtr blocksView(const TransformerCellSpec& spec, const TransformerResult& r,
                     const CellPrintArea& area);
PdfBoxPtr gradientsView(const TransformerCellSpec& spec, const TransformerResult& r,
                        const CellPrintArea& area);

} // namespace attnbook::transformer_paint
