#pragma once
// Vector figures of a cell, painted with QPainter so they stay sharp (and their numbers stay
// text) in a PDF, and render to PNG for bundles: labelled matrices, heatmaps of the shares, the
// share bars of one query, and line charts.

#include "exports/paint/pdf_layout.h"

#include "core/document/cell_specs.h"
#include "core/document/chart_series.h"
#include "core/math/attention_result.h"

#include <QtCore/QStringList>
#include <QtGui/QImage>

namespace attnbook {

// Filled: the numbers. Blank: empty boxes to write in. Answer: the same boxes, filled in.
enum class MatrixMode { Filled, Blank, Answer };

struct MatrixTable {
    QString caption; // "A = softmax(S)"
    QString note;    // small print beside the caption ("head 1")
    QStringList rowLabels;
    QStringList columnLabels;
    arma::mat values;
    arma::umat blocked; // empty, or 1 where the mask blocks the entry (hatched)
    MatrixMode mode = MatrixMode::Filled;
    int digits = 4;
    int maxRows = 16; // larger matrices print their first rows and columns
    int maxColumns = 10;
};

// The boxes of a blank matrix, room for a handwritten number: 23 × 8.5 mm, in points.
inline constexpr qreal kAnswerBoxWidth = 23.0 * 72.0 / 25.4;
inline constexpr qreal kAnswerBoxHeight = 8.5 * 72.0 / 25.4;

Figure matrixFigure(const MatrixTable& table);

// Row labels of the queries, column labels of the keys, coordinates "1".."n".
QStringList queryLabels(const AttentionResult& result);
QStringList keyLabels(const AttentionResult& result);
QStringList coordinateLabels(int count, int first = 1);

// The shares of one head as a grid of shaded squares with their values, the rows and columns
// labelled, and a colour scale.
Figure heatmapFigure(const AttentionResult& result, int head);

// The shares one query gives each key, as bars.
Figure sharesFigure(const AttentionResult& result, int head, int row, qreal width);

// The labels of an axis's ticks, all in one format (chartTickLabels, chart_axis.h, which the
// window's chart uses too): on a log axis plain numbers while every tick is between 0.01 and
// 10,000, else every one a power of ten (10⁻³ … 10⁶); on a linear axis numbers grouped by
// thousands with the decimals the step needs ("0.0, 0.5, 1.0").
QStringList axisTickLabels(const std::vector<double>& ticks, bool log);

// A line chart of the series, with axes, ticks, grid and legend.
Figure chartFigure(const ChartCellSpec& chart, const std::vector<ChartSeries>& series, QSizeF size);

// Figures side by side on white, rendered at `scale` pixels per point (PNG for bundles).
QImage renderFigures(const std::vector<Figure>& figures, qreal scale, qreal gap = 18,
                     qreal margin = 12);

} // namespace attnbook
