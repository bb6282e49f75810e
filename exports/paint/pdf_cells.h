#pragma once
// The printed form of each kind of cell in the lesson PDF: an attention cell prints its views
// (matrices, heatmap, shares, arithmetic, trace, gradients) with the current numbers, a chart
// cell its line chart, a quiz cell its question and choices. Each view is one box that moves
// whole to the next page rather than split.

#include "exports/paint/pdf_figures.h"
#include "exports/paint/pdf_layout.h"

#include "core/document/lesson.h"
#include "core/present/attention_matrices.h"

#include <vector>

namespace attnbook {

struct CellPrintArea {
    qreal width = 0;     // the content width
    qreal maxHeight = 0; // the content height: a figure row taller than this is scaled down
};

std::vector<PdfBoxPtr> attentionCellBoxes(const std::string& id, const AttentionCellSpec& spec,
                                          const AttentionResult& result, const CellPrintArea& area);

// How the views of an attention result are titled when they are one part of a larger cell (a
// transformer's layer): "Layer 1 · " before each view's title, and the caption of the input X.
struct AttentionViewOptions {
    QString titlePrefix;  // "Layer 1 · "
    QString inputCaption; // "H = LN₁(X⁰)"; empty: "X"
    QString inputNote;
};

// The boxes of the attention views named in `views` (matrices, heatmap, shares, arithmetic,
// trace, gradients), in that order, without a header; `focus` is the row the arithmetic, the
// trace and the shares follow. Other names are passed over.
std::vector<PdfBoxPtr> attentionViewBoxes(const AttentionCellSpec& spec,
                                          const AttentionResult& result,
                                          const std::vector<std::string>& views, int focus,
                                          const CellPrintArea& area,
                                          const AttentionViewOptions& options = {});

// A cell's header: a rule, its kind and id, and what it is set up to do, kept with what follows.
PdfBoxPtr cellHeaderBox(const QString& kind, const std::string& id, const QString& summary,
                        const CellPrintArea& area);
// One view's box: its title kept with the first row; the box stays whole where it can.
std::shared_ptr<FigureRowsBox> cellViewBox(const QString& title, const CellPrintArea& area);

// The gradient check in words: two short lines (or one when it was skipped).
QStringList gradientCheckLines(const GradientCheckReport& check);

std::vector<PdfBoxPtr> chartCellBoxes(const std::string& id, const ChartCellSpec& chart,
                                      const std::vector<ChartSeries>& series,
                                      const CellPrintArea& area);

// `number` counts the lesson's questions from 1.
std::vector<PdfBoxPtr> quizCellBoxes(const QuizCellSpec& quiz, int number,
                                     const LessonResults& results, const CellPrintArea& area);

// One line about the cell's set-up: "tokens red, blue, red · width 4 · 1 head · scores ÷ √4".
QString attentionSummary(const AttentionCellSpec& spec, const AttentionResult& result);

// The matrices of the `matrices` view, in reading order: inputs, projections, each head's
// scores, shares and context, the output. Names are those of worksheet.blank.
struct NamedMatrix {
    QString name;  // "X", "Q", "scores", "weights", "context", "concat", "output", ...
    int head = -1; // for scores, weights and context
    MatrixTable table;
    int group = 0; // inputs, weights, projections, each head, output: printed together
};
std::vector<NamedMatrix> attentionMatrices(const AttentionCellSpec& spec,
                                           const AttentionResult& result, bool compact);

} // namespace attnbook
