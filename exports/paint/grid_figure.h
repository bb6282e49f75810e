#pragma once
// A table of small print for paper: a caption, headers, rows of cells with their ink, weight
// and shading, thin rules, elided text (the transformer's views and the worksheet's parts).

#include "exports/paint/pdf_figures.h"
#include "exports/paint/pdf_style.h"

#include <QtCore/QStringList>

#include <string>
#include <vector>

namespace attnbook {

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
