#pragma once
// What every part of a worksheet exercise is made of (docs/worksheets.md): numbers as the key
// writes them, the given vectors, the answer boxes, the room to work in, and the part that
// keeps them together. The transformer's parts (worksheet_transformer) and the training step
// (worksheet_training_step) build on these, so every exercise looks and rounds the same.

#include "exports/paint/pdf_cells.h"
#include "exports/paint/transformer_paint_helpers.h"

#include <armadillo>

#include <QtCore/QString>
#include <QtCore/QStringList>
#include <QtGui/QColor>
#include <QtGui/QTextDocument>

#include <memory>
#include <string>
#include <vector>

namespace attnbook::sheet {

constexpr int kDigits = 4;
constexpr int kChunk = 8;        // given vectors print 8 coordinates a row
constexpr int kMostAnswers = 6;  // answer boxes a row: 6 fit the narrowest paper
constexpr int kFewTerms = 6;     // sums of at most this many terms are written out
constexpr int kShortlistAll = 5; // a vocabulary this small is given whole
constexpr int kShortlist = 4;    // else the model's most likely words

QString qs(const std::string& s);
// A number in working: whole numbers bare, others at 4 decimals.
QString num(double v);
// A number as a term of a sum or a product: negative ones in brackets.
QString term(double v);
// A setting as the author wrote it: T = 0.5, not 0.5000.
QString shortest(double v);
// ε as a student writes it: 0.00001 rather than 1e-05.
QString epsText(double eps);
// Each number as printed on the sheet (printedGiven).
arma::rowvec printed(const arma::rowvec& v);
// Text with formulas, as HTML; each formula unit is made tight() before.
QString formula(const QString& text);
// A unit of a formula that never breaks: its spaces become no-break spaces.
QString tight(QString text);
// "₁", "₂", … as the transformer's printed views write them.
using transformer_paint::subscript;
// A lesson word in italics, escaped.
QString word(const std::string& w);
QFont textFont();
std::shared_ptr<QTextDocument> paragraphs(const QStringList& html, qreal width,
                                          const QColor& colour = pdf::kInk);

// A given vector, 8 coordinates a row; the caption on the first.
std::vector<Figure> vectorFigures(const QString& caption, const QString& note,
                                  const arma::rowvec& v);
// Answer boxes: empty on the sheet, filled on the key at `digits` decimals; at most 6 a row.
std::vector<Figure> answerFigures(const QString& caption, const QStringList& labels,
                                  const arma::rowvec& values, bool key, int firstLabel = 0,
                                  int digits = kDigits);
// One box for a word: empty on the sheet, the word on the key.
Figure wordBoxFigure(const QString& caption, const QString& answer, bool key);
// The room to work in: the key's working in red, or as many dotted lines on the sheet.
Figure workingFigure(const QStringList& working, qreal width, bool key);
// One part of an exercise, kept together: the question, the givens, the answer boxes and the
// working.
PdfBoxPtr partBox(const QStringList& question, const std::vector<Figure>& givens,
                  const std::vector<Figure>& answers, const QStringList& working, bool key,
                  const CellPrintArea& area);
// A sum written out ("1 + (−2) + 0.5") when it is short, else `many`.
QString sumText(const arma::rowvec& terms, const QString& many);

} // namespace attnbook::sheet
