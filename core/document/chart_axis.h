#pragma once
// The axes of a chart cell: where they end, where their ticks stand and how the ticks read.
// One rule for every place a chart is drawn: the window's chart (ChartCellModel), the PDF's
// figure and the web page's (which paints the PDF's), so that no two of them label one axis
// differently ("1e+06" beside "100000" was the window's own printf format).

#include "core/document/chart_series.h"

#include <string>
#include <vector>

namespace attnbook {

struct ChartAxis {
    bool log = false; // ticks at powers of ten, drawn evenly spaced by decade
    double lo = 0.0;  // the axis's ends, both at ticks, so the data is inside
    double hi = 1.0;
    std::vector<double> ticks;       // in data units, rising, from lo to hi
    std::vector<std::string> labels; // one per tick, all in one style (chartTickLabels)
};

// An axis over the data range [lo, hi]. Linear: ticks at 1, 2 or 5 times a power of ten,
// about six intervals, the ends on the ticks around the data. Log (needs lo > 0): the ends at
// the powers of ten around the data, at least one decade apart, a tick at every decade while
// there are at most eight, else at every k-th decade, with the top end on a tick too.
ChartAxis chartAxis(double lo, double hi, bool log);

// The labels of ticks, all in one style: on a log axis plain numbers while every tick is
// between 0.01 and 10,000 ("0.01", "1", "10,000"), else every one a power of ten
// ("10⁻³" … "10⁶"); on a linear axis numbers grouped by thousands with the decimals the step
// between ticks needs ("0.0, 0.5, 1.0", "200,000"), and a real minus sign.
std::vector<std::string> chartTickLabels(const std::vector<double>& ticks, bool log);

struct ChartAxes {
    ChartAxis x, y;
};

// The two axes of a chart cell's figure: x over the cell's range (`from` … `to`), y over the
// series' finite values, from zero when the values are not far above it. A log axis leaves out
// values ≤ 0; one with nothing left to show, or an x range that reaches 0, is linear.
ChartAxes chartAxes(const ChartCellSpec& chart, const std::vector<ChartSeries>& series);

} // namespace attnbook
