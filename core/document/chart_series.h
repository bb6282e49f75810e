#pragma once
// Evaluates a chart cell's formulas over its x range with muParser.

#include "core/document/cell_specs.h"
#include "core/document/diagnostic.h"

#include <vector>

namespace attnbook {

struct ChartSeries {
    std::string label;
    std::vector<double> x;
    std::vector<double> y;
};

// Fills `out` with one series per formula. A formula that does not parse, or
// is not finite at some point, is an error at its line; returns false then.
bool computeChartSeries(const ChartCellSpec& chart, const std::string& cellId,
                        std::vector<ChartSeries>& out, std::vector<Diagnostic>& diagnostics);

// The x values: evenly spaced, or evenly spaced in log for a log axis.
std::vector<double> chartXValues(const ChartCellSpec& chart);

} // namespace attnbook
