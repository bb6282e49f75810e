#pragma once
// The printed form of a transformer cell (transformer.md) in the lesson PDF, in the style of the
// attention cell's pages: its settings, then each view its `views` list asks for — the residual
// stream of the focus token stage by stage, the FFN's hidden units, the next word's chances, the
// generation with its costs, the key/value cache, attention in blocks, the gradients with the
// gradient check, and each layer's attention drawn as an attention cell draws it.

#include "exports/pdf_cells.h"

#include "core/math/transformer_result.h"

namespace attnbook {

// One line about the cell's set-up: "tokens the, cat, sat · 2 layers · 2 heads · d 16 · …".
QString transformerSummary(const TransformerCellSpec& spec, const TransformerResult& result);

// Every box of the cell: its header, its settings, then its views in the order listed.
std::vector<PdfBoxPtr> transformerCellBoxes(const LessonCell& cell, const TransformerCellSpec& spec,
                                            const TransformerResult& result,
                                            const CellPrintArea& area);

// A token or word as print shows it: at most `chars` characters, the rest elided ("…").
QString shortWord(const std::string& word, int chars = 18);

// A small table of text: a caption, column headers, rows of cells, thin rules between groups.
// Numbers in a column line up when they are written with the same decimals (right-aligned).
struct GridCell {
    GridCell() = default;
    GridCell(QString text, QColor ink = pdf::kInk, bool bold = false, QColor fill = {})
        : text(std::move(text)), ink(ink), bold(bold), fill(fill) {}
    QString text;
    QColor ink = pdf::kInk;
    bool bold = false;
    QColor fill; // invalid: no shading
};
struct GridTable {
    QString caption;
    QString note;
    QStringList headers;
    std::vector<bool> leftAligned; // per column; missing: the first left, the others right
    std::vector<std::vector<GridCell>> rows;
    std::vector<int> rulesAbove; // rows with a thin rule above them
    qreal maxCellWidth = 140;    // longer text is elided
    qreal minNumberWidth = 30;   // a right-aligned column is at least this wide
    int sameWidthFrom = -1;      // columns [from, to] take the widest one's width
    int sameWidthTo = -1;
};
Figure gridFigure(const GridTable& table);

} // namespace attnbook
