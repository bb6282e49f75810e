#include "app/models/chart_cell_model.h"

#include "core/document/cell_specs.h"
#include "core/document/chart_axis.h"
#include "core/document/chart_series.h"

#include <QLocale>
#include <QPointF>
#include <QtCharts/QXYSeries>

#include <cmath>

namespace attnbook {
namespace {

// A value under the pointer: grouped by thousands ("8,388,608", as the axis writes it), whole
// from 100 up (a point read off a log axis is 4,095.9997 for 4,096).
QString readable(double v) {
    if (std::abs(v) >= 1e15 || (v != 0 && std::abs(v) < 1e-3)) {
        return QString::number(v, 'g', 4);
    }
    QLocale english(QLocale::English);
    english.setNumberOptions(QLocale::DefaultNumberOptions);
    const double thousandths = std::round(v * 1000) / 1000; // 64.00000000000001 is 64
    return english.toString(v, 'f', std::abs(v) >= 100 || thousandths == std::round(v) ? 0 : 3);
}

// A value in plot units: itself on a linear axis, its log10 on a log axis.
double toPlot(const ChartAxis& axis, double v) {
    return axis.log ? std::log10(v) : v;
}

QVariantList tickList(const ChartAxis& axis) {
    QVariantList out;
    for (size_t i = 0; i < axis.ticks.size(); ++i) {
        QVariantMap tick;
        tick[QStringLiteral("value")] = toPlot(axis, axis.ticks[i]);
        tick[QStringLiteral("label")] = QString::fromStdString(axis.labels[i]);
        out << tick;
    }
    return out;
}

} // namespace

ChartCellModel::ChartCellModel(const std::string& id, const ChartCellSpec& spec,
                               const std::vector<ChartSeries>& series, QObject* parent)
    : QObject(parent), id_(QString::fromStdString(id)), title_(QString::fromStdString(spec.title)),
      xLabel_(QString::fromStdString(spec.xLabel)), yLabel_(QString::fromStdString(spec.yLabel)),
      variable_(QString::fromStdString(spec.variable)), spec_(spec), seriesData_(series) {
    if (xLabel_.isEmpty()) {
        xLabel_ = variable_;
    }
    const ChartAxes axes = chartAxes(spec, series);
    xLog_ = axes.x.log, yLog_ = axes.y.log;
    xMin_ = toPlot(axes.x, axes.x.lo), xMax_ = toPlot(axes.x, axes.x.hi);
    yMin_ = toPlot(axes.y, axes.y.lo), yMax_ = toPlot(axes.y, axes.y.hi);
    xTicks_ = tickList(axes.x);
    yTicks_ = tickList(axes.y);
    for (const ChartSeries& s : series) {
        QList<QPointF> plotted;
        QVariantList points;
        for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
            const double x = s.x[i], y = s.y[i];
            if ((xLog_ && x <= 0) || (yLog_ && y <= 0) || !std::isfinite(x) || !std::isfinite(y)) {
                continue;
            }
            plotted << QPointF(toPlot(axes.x, x), toPlot(axes.y, y));
            points << plotted.back();
        }
        QVariantMap entry;
        entry[QStringLiteral("label")] = QString::fromStdString(s.label);
        entry[QStringLiteral("points")] = points;
        series_ << entry;
        plotPoints_.push_back(std::move(plotted));
    }
}

void ChartCellModel::fillSeries(QObject* series, int index) const {
    auto* line = qobject_cast<QXYSeries*>(series);
    if (line && index >= 0 && size_t(index) < plotPoints_.size()) {
        line->replace(plotPoints_[size_t(index)]);
    }
}

QString ChartCellModel::describe(const QString& label, double x, double y) const {
    return QStringLiteral("%1 = %2: %3 %4").arg(variable_, readable(x), label, readable(y));
}

QString ChartCellModel::describeAt(const QString& label, double plotX, double plotY) const {
    return describe(label, xLog_ ? std::pow(10.0, plotX) : plotX,
                    yLog_ ? std::pow(10.0, plotY) : plotY);
}

} // namespace attnbook
