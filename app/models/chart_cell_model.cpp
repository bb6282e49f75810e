#include "app/models/chart_cell_model.h"

#include "core/document/cell_specs.h"
#include "core/document/chart_series.h"

#include <QLocale>
#include <QPointF>

#include <cmath>
#include <limits>

namespace attnbook {
namespace {

QString readable(double v) {
    if (std::abs(v) >= 1e6 || (v != 0 && std::abs(v) < 1e-3)) {
        return QString::number(v, 'g', 4);
    }
    QLocale english(QLocale::English);
    english.setNumberOptions(QLocale::DefaultNumberOptions);
    return english.toString(v, 'f', v == std::round(v) ? 0 : 3);
}

} // namespace

ChartCellModel::ChartCellModel(const std::string& id, const ChartCellSpec& spec,
                               const std::vector<ChartSeries>& series, QObject* parent)
    : QObject(parent), id_(QString::fromStdString(id)), title_(QString::fromStdString(spec.title)),
      xLabel_(QString::fromStdString(spec.xLabel)), yLabel_(QString::fromStdString(spec.yLabel)),
      variable_(QString::fromStdString(spec.variable)), xLog_(spec.xLog), yLog_(spec.yLog),
      spec_(spec), seriesData_(series) {
    if (xLabel_.isEmpty()) {
        xLabel_ = variable_;
    }
    double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
    for (const ChartSeries& s : series) {
        QVariantList points;
        for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
            const double x = s.x[i], y = s.y[i];
            if ((xLog_ && x <= 0) || (yLog_ && y <= 0) || !std::isfinite(x) || !std::isfinite(y)) {
                continue;
            }
            points << QPointF(x, y);
            x0 = std::min(x0, x), x1 = std::max(x1, x);
            y0 = std::min(y0, y), y1 = std::max(y1, y);
        }
        QVariantMap entry;
        entry[QStringLiteral("label")] = QString::fromStdString(s.label);
        entry[QStringLiteral("points")] = points;
        series_ << entry;
    }
    if (x0 <= x1) {
        xMin_ = x0, xMax_ = x1;
        yMin_ = y0, yMax_ = y1;
    }
    if (!yLog_) {
        // A linear value axis reads best from zero when the data allow it.
        yMin_ = std::min(yMin_, 0.0);
        yMax_ = yMax_ + (yMax_ - yMin_) * 0.05;
    }
    if (xMin_ == xMax_) {
        xMax_ = xMin_ + 1;
    }
    if (yMin_ == yMax_) {
        yMax_ = yMin_ + 1;
    }
}

QString ChartCellModel::describe(const QString& label, double x, double y) const {
    return QStringLiteral("%1 = %2: %3 %4").arg(variable_, readable(x), label, readable(y));
}

} // namespace attnbook
