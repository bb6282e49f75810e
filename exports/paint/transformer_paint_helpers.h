#pragma once
// The small helpers that every printed view of a transformer cell uses: numbers as paper shows
// them, words, notes under a table, LayerNorm in words, where the weights came from. Only the
// transformer's paint files include this (pdf_transformer.cpp, transformer_*_boxes.cpp) and
// the worksheet's parts, which print the same numbers the same way.

#include "exports/paint/pdf_cells.h"

#include "core/math/transformer_result.h"
#include "core/math/transformer_training.h"

#include <string>
#include <vector>

namespace attnbook::transformer_paint {

constexpr int kMaxCoordinates = 8; // stream and blocks tables: the first coordinates of a row
constexpr int kMaxLayersShown = 4; // each layer's attention views
constexpr int kMaxUnitsShown = 64; // the FFN grid
constexpr int kStreamDigits = 3;

QString qs(const std::string& s);
QString fixed(double v, int digits);
QString readable(double v, int digits = 4);
// A setting as the author wrote it: T = 0.5, not 0.5000.
QString shortest(double v);
// How a cell trains: "Adam, lr 0.05, 4 sentences, from random weights (seed 7)".
QString trainingMethod(const TrainingSpec& t);
qreal textWidth(const QFont& font, const QString& text);
QString elided(const QString& text, const QFont& font, qreal width);
// "¹", "²", … for a layer's number in X¹; "₁", "₂", … for a subscript.
QString superscript(int k);
QString subscript(int k);

// The token at ROW, shortened, or "#ROW+1" past the tokens.
QString tokenAt(const TransformerResult& r, int row);
// A font per use, never shared: variants are laid out on several threads, and a QFont's
// engine is resolved per thread.
QFont smallFont();
// A paragraph of small print as a figure (notes under a table, the cache in words).
Figure noteFigure(const QString& html, qreal width, const QColor& colour = pdf::kInk);
void addNote(FigureRowsBox& box, const QString& html, const CellPrintArea& area,
             qreal spaceBefore = 4, const QColor& colour = pdf::kMuted);
bool hasLayerNorm(const LayerNormParams& ln);
// "none", "γ, β given", "γ = 1, β = 0", …
QString normWords(const LayerNormParams& ln);

// "data/tiny/model.safetensors (27 tensors); data/tiny/vocab.txt": where the weights came from.
// The files the cell read, as paper lists them: those that gave weights (with how many values
// each gave) and those that gave training sentences.
struct CellSources {
    QString weights, sentences;
};

CellSources cellSources(const LessonCell& cell, const TransformerCellSpec& spec);
// The first MOST tokens, shortened and joined with commas, and how many in all past them.
QString tokenList(const std::vector<std::string>& tokens, size_t most = 12);

} // namespace attnbook::transformer_paint
