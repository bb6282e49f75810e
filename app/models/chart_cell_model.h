#pragma once
// A chart cell's evaluated series and axes, for a Qt Charts line chart. The axes are the PDF's
// (chartAxes, chart_axis.h): the same ends, ticks and tick labels. A log axis is drawn as a
// linear one over log10 of the values, so that its labels are ours, not QtCharts' printf
// format ("%g" wrote "1e+06" beside "100000").

#include "core/document/cell_specs.h"
#include "core/document/chart_series.h"

#include <QObject>
#include <QVariantList>
#include <QtQml/qqmlregistration.h>

#include <vector>

namespace attnbook {

class ChartCellModel : public QObject {
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("chart cells come from a LessonSession")
    Q_PROPERTY(QString cellId READ cellId CONSTANT)
    Q_PROPERTY(QString title READ title CONSTANT)
    Q_PROPERTY(QString xLabel READ xLabel CONSTANT)
    Q_PROPERTY(QString yLabel READ yLabel CONSTANT)
    Q_PROPERTY(bool xLog READ xLog CONSTANT)
    Q_PROPERTY(bool yLog READ yLog CONSTANT)
    // The axes' ends and the points, in plot units: the value on a linear axis, its log10 on a
    // log axis.
    Q_PROPERTY(double xMin READ xMin CONSTANT)
    Q_PROPERTY(double xMax READ xMax CONSTANT)
    Q_PROPERTY(double yMin READ yMin CONSTANT)
    Q_PROPERTY(double yMax READ yMax CONSTANT)
    // [{value, label}, …] rising, value in plot units, from xMin to xMax (yMin to yMax).
    Q_PROPERTY(QVariantList xTicks READ xTicks CONSTANT)
    Q_PROPERTY(QVariantList yTicks READ yTicks CONSTANT)
    // [{label, points: [{x, y}, …]}]; points a log axis cannot show (≤ 0) are left out.
    Q_PROPERTY(QVariantList series READ series CONSTANT)

  public:
    ChartCellModel(const std::string& id, const ChartCellSpec& spec,
                   const std::vector<ChartSeries>& series, QObject* parent = nullptr);

    QString cellId() const { return id_; }
    QString title() const { return title_; }
    QString xLabel() const { return xLabel_; }
    QString yLabel() const { return yLabel_; }
    bool xLog() const { return xLog_; }
    bool yLog() const { return yLog_; }
    double xMin() const { return xMin_; }
    double xMax() const { return xMax_; }
    double yMin() const { return yMin_; }
    double yMax() const { return yMax_; }
    QVariantList xTicks() const { return xTicks_; }
    QVariantList yTicks() const { return yTicks_; }
    QVariantList series() const { return series_; }

    // "n = 64: whole text 2,048" for hover text.
    Q_INVOKABLE QString describe(const QString& label, double x, double y) const;
    // The same from a point in plot units (a log axis's log10), as the chart's series hold it.
    Q_INVOKABLE QString describeAt(const QString& label, double plotX, double plotY) const;
    // Puts series `index`'s points into `series` (a Qt Charts line) in one batch: appended one
    // at a time from QML, 50,000 points took 30 s.
    Q_INVOKABLE void fillSeries(QObject* series, int index) const;

    // What the figure of the chart is drawn from (the PDF's chart, saved as SVG or PNG).
    const ChartCellSpec& spec() const { return spec_; }
    const std::vector<ChartSeries>& seriesData() const { return seriesData_; }

  private:
    QString id_, title_, xLabel_, yLabel_, variable_;
    bool xLog_ = false, yLog_ = false;
    double xMin_ = 0, xMax_ = 1, yMin_ = 0, yMax_ = 1;
    QVariantList xTicks_, yTicks_;
    QVariantList series_;
    std::vector<QList<QPointF>> plotPoints_; // each series' points in plot units
    ChartCellSpec spec_;
    std::vector<ChartSeries> seriesData_;
};

} // namespace attnbook
