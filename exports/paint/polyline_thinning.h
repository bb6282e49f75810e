#pragma once
// A curve of many points drawn with as many vertices as it can show. A chart may have 100,000
// points per series on a figure 400 points wide: each of them became a vertex in the PDF and
// in the page's SVG (3.4 MB for two series). Within each column a quarter of a point wide
// (about one device pixel at 300 dpi) only four vertices can be told apart: where the line
// enters and leaves the column, and its lowest and highest. Keeping those, in their order,
// draws the same picture (the M4 reduction of Jugel et al., "M4: a visualization-oriented
// time series data aggregation", VLDB 2014).

#include <QtCore/QPointF>

#include <vector>

namespace attnbook {

// One unbroken run of a curve's points, left to right as drawn. Returns the points to draw:
// all of them when there are few, else at most four per column of `columnWidth`.
std::vector<QPointF> thinnedPolyline(const std::vector<QPointF>& points, double columnWidth);

} // namespace attnbook
