// A chart's lines as inline SVG (core/present/line_chart_svg.h), and a training cell's curve on
// the web page: where the points fall is worked out here from the plot's margins and the axes'
// ends, not read back from the writer.
#include "core/document/chart_axis.h"
#include "core/present/line_chart_svg.h"

#include "test_support.h"

#include <regex>
#include <string>
#include <vector>

using namespace attnbook;

namespace {

// The numbers of the `points` attribute of each polyline, in order.
std::vector<std::vector<double>> polylines(const std::string& svg) {
    std::vector<std::vector<double>> out;
    const std::regex polyline("<polyline[^>]* points=\"([^\"]*)\"");
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), polyline);
         it != std::sregex_iterator(); ++it) {
        std::vector<double> numbers;
        std::string text = (*it)[1];
        for (char& c : text) {
            c = c == ',' ? ' ' : c;
        }
        std::istringstream in(text);
        for (double v; in >> v;) {
            numbers.push_back(v);
        }
        out.push_back(numbers);
    }
    return out;
}

} // namespace

TEST_CASE("a line chart puts each point where the axes say, and writes its words as text") {
    ChartCellSpec chart;
    chart.xLabel = "step <x>";
    chart.yLabel = "loss & more";
    chart.from = 0;
    chart.to = 4;
    const std::vector<ChartSeries> series = {{"on <b>", {0, 1, 2, 3, 4}, {2, 1.5, 1, 0.5, 0}},
                                             {"held out", {0, 4}, {2, 1}}};
    const int width = 360, height = 202; // 170 and a legend row per series
    const std::string svg = lineChartSvg(chart, series, width, height, "The loss <falls>");
    const ChartAxes axes = chartAxes(chart, series);
    // The plot: 52 left for the labels, 12 right, 10 on top, 38 below, 16 a legend row.
    const double plotWidth = width - 52 - 12, plotHeight = height - 10 - 38 - 32;
    const auto x = [&](double v) {
        return 52 + (v - axes.x.lo) / (axes.x.hi - axes.x.lo) * plotWidth;
    };
    const auto y = [&](double v) {
        return 10 + (1 - (v - axes.y.lo) / (axes.y.hi - axes.y.lo)) * plotHeight;
    };
    const std::vector<std::vector<double>> lines = polylines(svg);
    REQUIRE_EQ(lines.size(), 2u);
    REQUIRE_EQ(lines[0].size(), 10u);
    for (size_t i = 0; i < 5; ++i) {
        CHECK(lines[0][2 * i] == doctest::Approx(x(series[0].x[i])).epsilon(0.001));
        CHECK(lines[0][2 * i + 1] == doctest::Approx(y(series[0].y[i])).epsilon(0.001));
    }
    CHECK(lines[1] ==
          std::vector<double>{lines[0][0], lines[0][1], lines[0][8], std::round(y(1) * 10) / 10});
    CHECK(svg.find("<title>The loss &lt;falls&gt;</title>") != std::string::npos);
    CHECK(svg.find(">step &lt;x&gt;</text>") != std::string::npos);
    CHECK(svg.find(">loss &amp; more</text>") != std::string::npos);
    CHECK(svg.find(">on &lt;b&gt;</text>") != std::string::npos);
    CHECK(svg.find("<b>") == std::string::npos);
    // Every tick of each axis is labelled as the PDF labels it.
    for (const std::string& label : axes.y.labels) {
        CHECK_MESSAGE(svg.find(">" + label + "</text>") != std::string::npos, label);
    }
}

TEST_CASE("a single point is a dot, and no point draws nothing") {
    ChartCellSpec chart;
    chart.to = 2;
    const std::string svg =
        lineChartSvg(chart, {{"one", {1}, {3}}, {"none", {}, {}}}, 200, 150, "dots");
    CHECK(svg.find("<circle class=\"series-0\"") != std::string::npos);
    CHECK(svg.find("series-1\" fill") == std::string::npos);
    CHECK(polylines(svg).empty());
}
