// A chart's axes (chart_axis.h), which the window's chart, the PDF's and the web page's share:
// every decade of a log axis labelled in one style, the top one included, the data inside
// (the window wrote "1e+06" beside "100000" and left the top decade bare).
#include "core/document/chart_axis.h"

#include "test_support.h"

using namespace attnbook;
using Labels = std::vector<std::string>;

// documents/transformers.md's chart "cost": n from 1 to 4096, n²/2 and n, both on log axes.
TEST_CASE("theCostChartsAxes") {
    ChartCellSpec chart;
    chart.from = 1, chart.to = 4096, chart.points = 64, chart.xLog = true, chart.yLog = true;
    ChartSeries whole{"whole text", chartXValues(chart), {}}, one{"one new token", whole.x, {}};
    for (double n : whole.x) {
        whole.y.push_back(n * n / 2);
        one.y.push_back(n);
    }
    const ChartAxes axes = chartAxes(chart, {whole, one});
    CHECK(axes.x.log);
    CHECK_EQ(axes.x.labels, Labels{"1", "10", "100", "1,000", "10,000"});
    CHECK_EQ(axes.x.lo, 1.0);
    CHECK_EQ(axes.x.hi, 10000.0);
    CHECK(axes.y.log);
    CHECK_EQ(axes.y.labels, Labels{"10⁻¹", "10⁰", "10¹", "10²", "10³", "10⁴", "10⁵", "10⁶", "10⁷"});
    // The data (0.5 … 8,388,608) is inside, and the top end is the last labelled tick.
    CHECK_LE(axes.y.lo, 0.5);
    CHECK_GE(axes.y.hi, 8388608.0);
    CHECK_EQ(axes.y.hi, axes.y.ticks.back());
}

// More than eight decades take every other one; the top end moves up to a labelled decade
// rather than ending on a bare line above the last label.
TEST_CASE("aLongLogAxisEndsOnALabel") {
    const ChartAxis axis = chartAxis(1, 2e9, true);
    CHECK_EQ(axis.labels, Labels{"10⁰", "10²", "10⁴", "10⁶", "10⁸", "10¹⁰"});
    CHECK_EQ(axis.hi, 1e10);
    const ChartAxis one = chartAxis(2, 3, true); // within one decade: that decade, both ends
    CHECK_EQ(one.labels, Labels{"1", "10"});
}

TEST_CASE("linearTicksInOneFormat") {
    CHECK_EQ(chartAxis(0, 1e6, false).labels,
             Labels{"0", "200,000", "400,000", "600,000", "800,000", "1,000,000"});
    CHECK_EQ(chartAxis(-1, 1, false).labels, Labels{"−1.0", "−0.5", "0.0", "0.5", "1.0"});
    CHECK_EQ(chartTickLabels({0.01, 0.1, 1, 10, 100, 1000, 10000}, true),
             Labels{"0.01", "0.1", "1", "10", "100", "1,000", "10,000"});
    // A linear y axis starts at zero when the data is not far above it.
    ChartCellSpec chart;
    chart.from = 0, chart.to = 10;
    const ChartAxes axes = chartAxes(chart, {{"y", {0, 10}, {3, 9}}});
    CHECK_EQ(axes.y.lo, 0.0);
    CHECK_EQ(axes.y.hi, 10.0);
    CHECK(!axes.y.log);
}
