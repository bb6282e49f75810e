#include "core/present/line_chart_svg.h"

#include "core/document/chart_axis.h"
#include "core/present/html_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace attnbook {

namespace {

// Room for the tick labels left and below, and the axis titles.
constexpr double kLeft = 52, kRight = 12, kTop = 10, kBottom = 38, kLegendRow = 16;

std::string coordinate(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", v);
    return text;
}

// Where `value` falls along `axis`, from 0 (its low end) to 1.
double along(const ChartAxis& axis, double value) {
    const auto at = [&](double v) { return axis.log ? std::log10(v) : v; };
    const double span = at(axis.hi) - at(axis.lo);
    if (!(span > 0) || (axis.log && !(value > 0))) {
        return 0.0;
    }
    return std::clamp((at(value) - at(axis.lo)) / span, 0.0, 1.0);
}

} // namespace

std::string lineChartSvg(const ChartCellSpec& chart, const std::vector<ChartSeries>& series,
                         int width, int height, const std::string& description) {
    const ChartAxes axes = chartAxes(chart, series);
    const double legend = kLegendRow * double(series.size());
    const double plotWidth = width - kLeft - kRight;
    const double plotHeight = height - kTop - kBottom - legend;
    const auto x = [&](double v) { return kLeft + along(axes.x, v) * plotWidth; };
    const auto y = [&](double v) { return kTop + (1 - along(axes.y, v)) * plotHeight; };
    const std::string bottom = coordinate(kTop + plotHeight);

    std::string svg = "<svg class=\"line-chart\" role=\"img\" viewBox=\"0 0 " +
                      std::to_string(width) + " " + std::to_string(height) + "\" width=\"" +
                      std::to_string(width) + "\" height=\"" + std::to_string(height) +
                      "\"><title>" + htmlText(description) + "</title>\n";
    // The grid and the ticks' labels.
    for (size_t i = 0; i < axes.y.ticks.size(); ++i) {
        const std::string at = coordinate(y(axes.y.ticks[i]));
        svg += "<line class=\"grid\" x1=\"" + coordinate(kLeft) + "\" x2=\"" +
               coordinate(kLeft + plotWidth) + "\" y1=\"" + at + "\" y2=\"" + at + "\"/>";
        svg += "<text class=\"tick\" x=\"" + coordinate(kLeft - 4) + "\" y=\"" + at +
               "\" text-anchor=\"end\" dominant-baseline=\"middle\">" + htmlText(axes.y.labels[i]) +
               "</text>\n";
    }
    for (size_t i = 0; i < axes.x.ticks.size(); ++i) {
        const std::string at = coordinate(x(axes.x.ticks[i]));
        svg += "<line class=\"grid\" x1=\"" + at + "\" x2=\"" + at + "\" y1=\"" + coordinate(kTop) +
               "\" y2=\"" + bottom + "\"/>";
        svg += "<text class=\"tick\" x=\"" + at + "\" y=\"" + coordinate(kTop + plotHeight + 13) +
               "\" text-anchor=\"middle\">" + htmlText(axes.x.labels[i]) + "</text>\n";
    }
    svg += "<line class=\"axis\" x1=\"" + coordinate(kLeft) + "\" x2=\"" +
           coordinate(kLeft + plotWidth) + "\" y1=\"" + bottom + "\" y2=\"" + bottom + "\"/>";
    svg += "<line class=\"axis\" x1=\"" + coordinate(kLeft) + "\" x2=\"" + coordinate(kLeft) +
           "\" y1=\"" + coordinate(kTop) + "\" y2=\"" + bottom + "\"/>\n";
    svg += "<text class=\"axis-title\" x=\"" + coordinate(kLeft + plotWidth / 2) + "\" y=\"" +
           coordinate(kTop + plotHeight + 30) + "\" text-anchor=\"middle\">" +
           htmlText(chart.xLabel) + "</text>";
    svg += "<text class=\"axis-title\" x=\"12\" y=\"" + coordinate(kTop + plotHeight / 2) +
           "\" text-anchor=\"middle\" transform=\"rotate(-90 12 " +
           coordinate(kTop + plotHeight / 2) + ")\">" + htmlText(chart.yLabel) + "</text>\n";
    // The lines, then the legend under the axis title.
    for (size_t s = 0; s < series.size(); ++s) {
        const std::string cls = "series-" + std::to_string(s);
        std::string points;
        int shown = 0;
        for (size_t i = 0; i < series[s].x.size() && i < series[s].y.size(); ++i) {
            if (!std::isfinite(series[s].x[i]) || !std::isfinite(series[s].y[i])) {
                continue;
            }
            points += (points.empty() ? "" : " ") + coordinate(x(series[s].x[i])) + "," +
                      coordinate(y(series[s].y[i]));
            ++shown;
        }
        if (shown >= 2) {
            svg += "<polyline class=\"" + cls + "\" fill=\"none\" points=\"" + points + "\"/>\n";
        } else if (shown == 1) {
            const size_t comma = points.find(',');
            svg += "<circle class=\"" + cls + "\" r=\"2.5\" cx=\"" + points.substr(0, comma) +
                   "\" cy=\"" + points.substr(comma + 1) + "\"/>\n";
        }
        const std::string row = coordinate(height - legend + kLegendRow * double(s) + 8);
        svg += "<line class=\"" + cls + "\" x1=\"" + coordinate(kLeft) + "\" x2=\"" +
               coordinate(kLeft + 18) + "\" y1=\"" + row + "\" y2=\"" + row + "\"/>";
        svg += "<text class=\"legend\" x=\"" + coordinate(kLeft + 24) + "\" y=\"" + row +
               "\" dominant-baseline=\"middle\">" + htmlText(series[s].label) + "</text>\n";
    }
    return svg + "</svg>\n";
}

} // namespace attnbook
