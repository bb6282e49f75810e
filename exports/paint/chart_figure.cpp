// A chart cell as a figure: its axes with ticks and labels, each series as a line thinned to
// what the page can show, and a legend in the corner that hides the fewest points
// (pdf_figures.h; the axes' ends and ticks are core/document/chart_axis.h's).
#include "exports/paint/pdf_figures.h"

#include "core/document/chart_axis.h"
#include "exports/paint/polyline_thinning.h"

#include <QtGui/QFontMetricsF>
#include <QtGui/QPainter>
#include <QtGui/QPainterPath>

#include <algorithm>
#include <cmath>
#include <limits>

namespace attnbook {

namespace {

// A curve's columns: a quarter of a figure point, about one device pixel when printed at
// 300 dpi (polyline_thinning.h).
constexpr double kThinningColumn = 0.25;

qreal textWidth(const QFont& font, const QString& text) {
    return QFontMetricsF(font, layoutDevice()).horizontalAdvance(text);
}

// Data → page along one axis (chart_axis.h decides its ends and ticks).
double mapOnAxis(const ChartAxis& axis, double v, double a, double b) { // data → [a, b]
    const double t = axis.log ? (std::log10(v) - std::log10(axis.lo)) /
                                    (std::log10(axis.hi) - std::log10(axis.lo))
                              : (v - axis.lo) / (axis.hi - axis.lo);
    return a + (b - a) * t;
}

} // namespace

QStringList axisTickLabels(const std::vector<double>& ticks, bool log) {
    QStringList out;
    for (const std::string& label : chartTickLabels(ticks, log)) {
        out << QString::fromStdString(label);
    }
    return out;
}

namespace {

// Where a chart's parts go, measured once: its axes with their ticks and tick labels, its fonts,
// the title and the plot's rectangle within the figure's `size`.
struct ChartLayout {
    ChartAxis x, y;
    QFont tickFont, labelFont, titleFont;
    QStringList xLabels, yLabels;
    qreal yTickW = 0;
    QString title;
    qreal titleH = 0;
    QRectF plot;
    QSizeF size;
};

ChartLayout chartLayout(const ChartCellSpec& chart, const std::vector<ChartSeries>& series,
                        QSizeF size) {
    ChartLayout c;
    const ChartAxes axes = chartAxes(chart, series);
    c.x = axes.x, c.y = axes.y;
    c.tickFont = pdf::font(pdf::kSans, pdf::kTiny);
    c.labelFont = pdf::font(pdf::kSans, 8);
    c.titleFont = pdf::font(pdf::kSans, 8.5, true);
    c.xLabels = axisTickLabels(c.x.ticks, c.x.log);
    c.yLabels = axisTickLabels(c.y.ticks, c.y.log);
    for (const QString& label : c.yLabels) {
        c.yTickW = std::max(c.yTickW, textWidth(c.tickFont, label));
    }
    c.title = QString::fromStdString(chart.title);
    c.titleH = c.title.isEmpty() ? 4 : 18;
    // Room on the right for half the last x tick's label, which is centred on the plot's edge.
    const qreal rightRoom = std::max<qreal>(
        10, c.xLabels.isEmpty() ? 0 : textWidth(c.tickFont, c.xLabels.back()) / 2 + 2);
    c.plot = QRectF(c.yTickW + 22, c.titleH + 4, size.width() - c.yTickW - 22 - rightRoom,
                    size.height() - c.titleH - 4 - 34);
    c.size = size;
    return c;
}

// The title, the grid with its ticks and their labels, the axes and their names.
void paintChartAxes(QPainter& p, const ChartLayout& c, const ChartCellSpec& chart) {
    const ChartAxis &x = c.x, &y = c.y;
    const std::vector<double>& xTicks = x.ticks;
    const std::vector<double>& yTicks = y.ticks;
    const QRectF& plot = c.plot;
    const QString& title = c.title;
    const qreal titleH = c.titleH, yTickW = c.yTickW;
    const QSizeF size = c.size;
    const QFont &tickFont = c.tickFont, &labelFont = c.labelFont, &titleFont = c.titleFont;
    const QStringList &xLabels = c.xLabels, &yLabels = c.yLabels;
    if (!title.isEmpty()) {
        p.setFont(titleFont);
        p.setPen(pdf::kInk);
        p.drawText(QRectF(0, 0, size.width(), titleH), Qt::AlignLeft | Qt::AlignVCenter, title);
    }
    p.setFont(tickFont);
    for (size_t k = 0; k < xTicks.size(); ++k) {
        const double v = xTicks[k];
        const qreal px = mapOnAxis(x, v, plot.left(), plot.right());
        p.setPen(QPen(pdf::kFaint, 0.6));
        p.drawLine(QPointF(px, plot.top()), QPointF(px, plot.bottom()));
        p.setPen(QPen(pdf::kMuted, 0.6));
        p.drawLine(QPointF(px, plot.bottom()), QPointF(px, plot.bottom() + 3));
        p.drawText(QRectF(px - 30, plot.bottom() + 4, 60, 10), Qt::AlignHCenter | Qt::AlignTop,
                   xLabels[qsizetype(k)]);
    }
    for (size_t k = 0; k < yTicks.size(); ++k) {
        const double v = yTicks[k];
        const qreal py = mapOnAxis(y, v, plot.bottom(), plot.top());
        p.setPen(QPen(pdf::kFaint, 0.6));
        p.drawLine(QPointF(plot.left(), py), QPointF(plot.right(), py));
        p.setPen(QPen(pdf::kMuted, 0.6));
        p.drawLine(QPointF(plot.left() - 3, py), QPointF(plot.left(), py));
        p.drawText(QRectF(plot.left() - 5 - yTickW - 2, py - 5, yTickW + 2, 10),
                   Qt::AlignRight | Qt::AlignVCenter, yLabels[qsizetype(k)]);
    }
    p.setPen(QPen(pdf::kMuted, 0.7));
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    p.drawLine(plot.bottomLeft(), plot.topLeft());
    p.setFont(labelFont);
    p.setPen(pdf::kInk);
    p.drawText(QRectF(plot.left(), plot.bottom() + 16, plot.width(), 12),
               Qt::AlignHCenter | Qt::AlignTop,
               QString::fromStdString(chart.xLabel) +
                   (x.log ? QStringLiteral(" (log scale)") : QString()));
    p.save();
    p.translate(2, plot.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-plot.height() / 2, 0, plot.height(), 12), Qt::AlignHCenter | Qt::AlignTop,
               QString::fromStdString(chart.yLabel) +
                   (y.log ? QStringLiteral(" (log scale)") : QString()));
    p.restore();
}

// Each series as a line, clipped to the plot, broken where a value cannot be shown.
void paintChartSeries(QPainter& p, const ChartLayout& c, const std::vector<ChartSeries>& series) {
    const ChartAxis &x = c.x, &y = c.y;
    const QRectF& plot = c.plot;
    p.save();
    p.setClipRect(plot.adjusted(-1, -1, 1, 1));
    for (size_t i = 0; i < series.size(); ++i) {
        // Each unbroken run of points, with as many vertices as the figure can show.
        QPainterPath path;
        std::vector<QPointF> run;
        const auto drawRun = [&] {
            const std::vector<QPointF> shown = thinnedPolyline(run, kThinningColumn);
            for (size_t k = 0; k < shown.size(); ++k) {
                k == 0 ? path.moveTo(shown[k]) : path.lineTo(shown[k]);
            }
            run.clear();
        };
        for (size_t k = 0; k < series[i].x.size() && k < series[i].y.size(); ++k) {
            const double vx = series[i].x[k], vy = series[i].y[k];
            if (!std::isfinite(vy) || (y.log && vy <= 0) || (x.log && vx <= 0)) {
                drawRun();
                continue;
            }
            run.emplace_back(mapOnAxis(x, vx, plot.left(), plot.right()),
                             mapOnAxis(y, vy, plot.bottom(), plot.top()));
        }
        drawRun();
        QPen pen(pdf::seriesColour(int(i)), 1.4);
        pen.setStyle(i % 2 ? Qt::DashLine : Qt::SolidLine);
        pen.setCapStyle(Qt::RoundCap);
        pen.setJoinStyle(Qt::RoundJoin);
        p.setPen(pen);
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);
    }
    p.restore();
}

// The corner of the plot for a legend of `legendSize` that covers the fewest points.
QRectF legendCorner(const ChartLayout& c, const std::vector<ChartSeries>& series,
                    QSizeF legendSize) {
    const ChartAxis &x = c.x, &y = c.y;
    const QRectF& plot = c.plot;
    QRectF legend;
    int covered = std::numeric_limits<int>::max();
    for (const QPointF& corner : {QPointF(plot.left() + 8, plot.top() + 6),
                                  QPointF(plot.right() - 8 - legendSize.width(), plot.top() + 6),
                                  QPointF(plot.left() + 8, plot.bottom() - 6 - legendSize.height()),
                                  QPointF(plot.right() - 8 - legendSize.width(),
                                          plot.bottom() - 6 - legendSize.height())}) {
        const QRectF candidate(corner, legendSize);
        int count = 0;
        for (const ChartSeries& s : series) {
            for (size_t k = 0; k < s.x.size() && k < s.y.size(); ++k) {
                if (std::isfinite(s.y[k]) && (!y.log || s.y[k] > 0) && (!x.log || s.x[k] > 0) &&
                    candidate.adjusted(-4, -4, 4, 4)
                        .contains(QPointF(mapOnAxis(x, s.x[k], plot.left(), plot.right()),
                                          mapOnAxis(y, s.y[k], plot.bottom(), plot.top())))) {
                    ++count;
                }
            }
        }
        if (count < covered) {
            covered = count;
            legend = candidate;
        }
    }
    return legend;
}

// The legend: each series' line and label, in the corner that covers the fewest points.
void paintChartLegend(QPainter& p, const ChartLayout& c, const std::vector<ChartSeries>& series) {
    const QFont& labelFont = c.labelFont;
    qreal legendW = 0;
    for (const ChartSeries& s : series) {
        legendW = std::max(legendW, textWidth(labelFont, QString::fromStdString(s.label)));
    }
    const QSizeF legendSize(legendW + 36, 6 + 12 * qreal(series.size()));
    const QRectF legend = legendCorner(c, series, legendSize);
    p.setPen(QPen(pdf::kRule, 0.5));
    p.setBrush(Qt::white);
    p.drawRect(legend);
    for (size_t i = 0; i < series.size(); ++i) {
        const qreal ly = legend.top() + 3 + 12 * qreal(i) + 6;
        QPen pen(pdf::seriesColour(int(i)), 1.4);
        pen.setStyle(i % 2 ? Qt::DashLine : Qt::SolidLine);
        p.setPen(pen);
        p.drawLine(QPointF(legend.left() + 5, ly), QPointF(legend.left() + 25, ly));
        p.setFont(labelFont);
        p.setPen(pdf::kInk);
        p.drawText(QRectF(legend.left() + 30, ly - 6, legendW + 4, 12),
                   Qt::AlignLeft | Qt::AlignVCenter, QString::fromStdString(series[i].label));
    }
}

} // namespace

Figure chartFigure(const ChartCellSpec& chart, const std::vector<ChartSeries>& series,
                   QSizeF size) {
    const ChartLayout layout = chartLayout(chart, series, size);
    auto paint = [=](QPainter& p) {
        paintChartAxes(p, layout, chart);
        paintChartSeries(p, layout, series);
        paintChartLegend(p, layout, series);
    };
    return Figure{size, paint};
}

} // namespace attnbook
