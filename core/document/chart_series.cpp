#include "core/document/chart_series.h"

#include "core/document/json.h"

#include <muParser.h>

#include <cmath>

namespace attnbook {
namespace {

// A formula as a message quotes it: whole when short, else its start, so that what is wrong
// with it (said after it) survives the message's own length limit.
std::string quotedFormula(const std::string& formula) {
    constexpr size_t kLongest = 60;
    return formula.size() <= kLongest ? formula
                                      : formula.substr(0, kLongest) + "… (" +
                                            std::to_string(formula.size()) + " characters)";
}

} // namespace

std::vector<double> chartXValues(const ChartCellSpec& chart) {
    std::vector<double> xs(size_t(std::max(chart.points, 2)));
    const double last = double(xs.size() - 1);
    for (size_t i = 0; i < xs.size(); ++i) {
        const double t = double(i) / last;
        xs[i] = chart.xLog ? std::exp(std::log(chart.from) * (1 - t) + std::log(chart.to) * t)
                           : chart.from + (chart.to - chart.from) * t;
    }
    xs.front() = chart.from; // exactly the ends the author wrote
    xs.back() = chart.to;
    return xs;
}

bool computeChartSeries(const ChartCellSpec& chart, const std::string& cellId,
                        std::vector<ChartSeries>& out, std::vector<Diagnostic>& diagnostics) {
    out.clear();
    const std::vector<double> xs = chartXValues(chart);
    bool fine = true;
    for (const ChartSeriesSpec& spec : chart.series) {
        ChartSeries series{spec.label, xs, {}};
        double x = 0.0;
        try {
            mu::Parser parser;
            parser.DefineVar(chart.variable, &x);
            parser.SetExpr(spec.formula);
            for (double value : xs) {
                x = value;
                const double y = parser.Eval();
                if (!std::isfinite(y)) {
                    diagnostics.push_back({Severity::Error, spec.at.line, spec.at.column,
                                           "the formula " + quotedFormula(spec.formula) +
                                               " is not finite at " + chart.variable + " = " +
                                               shortestDouble(value),
                                           cellId});
                    fine = false;
                    break;
                }
                if (chart.yLog && y <= 0) {
                    diagnostics.push_back({Severity::Error, spec.at.line, spec.at.column,
                                           "the formula " + quotedFormula(spec.formula) + " is " +
                                               shortestDouble(y) + " at " + chart.variable + " = " +
                                               shortestDouble(value) +
                                               ", which a log axis cannot show",
                                           cellId});
                    fine = false;
                    break;
                }
                series.y.push_back(y);
            }
        } catch (const mu::Parser::exception_type& e) {
            diagnostics.push_back(
                {Severity::Error, spec.at.line, spec.at.column + 1 + int(e.GetPos()),
                 "in the formula " + quotedFormula(spec.formula) + ": " + e.GetMsg(), cellId});
            fine = false;
        }
        if (series.y.size() == xs.size()) {
            out.push_back(std::move(series));
        }
    }
    return fine;
}

} // namespace attnbook
