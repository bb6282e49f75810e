#pragma once
// A chart's lines as inline SVG, without Qt, for the web page (docs/web-page.md): the axes
// from chart_axis.h (the ticks and labels the PDF's and the window's charts use), one polyline
// per series, a legend. Text goes through htmlText (html_text.h); colours are the page's CSS
// (classes series-0, series-1, …), so the page's light and dark styles both apply.

#include "core/document/cell_specs.h"
#include "core/document/chart_series.h"

#include <string>
#include <vector>

namespace attnbook {

// `<svg role="img">` of `width` × `height` user units, titled `description` for a screen
// reader; the series' points outside the axes' ends (none, as chartAxes makes them) are
// clamped. Series with fewer than two finite points draw a dot each.
std::string lineChartSvg(const ChartCellSpec& chart, const std::vector<ChartSeries>& series,
                         int width, int height, const std::string& description);

} // namespace attnbook
