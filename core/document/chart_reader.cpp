// A chart cell's body (docs/lesson-format.md): its axes and the formulas of its series, each
// formula checked to be one the notebook and the web page can write as NumPy.
#include "core/document/body_reader.h"

#include <cctype>
#include <string_view>

namespace attnbook {

namespace {

void readAxis(BodyReader& in, const YamlNode& node, const std::string& axis, ChartCellSpec& chart) {
    if (!node.isMap()) {
        in.error(node.at, axis + " must be a map, like {label: tokens n, scale: log}");
        return;
    }
    for (const auto& [key, value] : node.entries) {
        const std::string& k = key.scalar;
        if (k == "label") {
            (axis == "x" ? chart.xLabel : chart.yLabel) = in.text(value, "label").value_or("");
        } else if (k == "scale") {
            if (value.isScalar() && (value.scalar == "linear" || value.scalar == "log")) {
                (axis == "x" ? chart.xLog : chart.yLog) = value.scalar == "log";
            } else {
                in.error(value.at, "scale must be linear or log, not " + value.describe());
            }
        } else if (axis == "x" && k == "var") {
            chart.variable = in.text(value, "var").value_or("n");
        } else if (axis == "x" && k == "from") {
            chart.from = in.number(value, "from").value_or(0.0);
        } else if (axis == "x" && k == "to") {
            chart.to = in.number(value, "to").value_or(1.0);
        } else if (axis == "x" && k == "points") {
            chart.points = in.integer(value, "points", 2).value_or(50);
            if (chart.points > 100000) {
                in.error(value.at, "points is " + value.scalar + ", over the limit of 100000");
            }
        } else {
            in.warning(key.at, "unknown key '" + k + "' in " + axis);
        }
    }
}

// Why `formula` is not a chart formula, or nothing. A formula uses numbers, its variable,
// functions such as sqrt(n), + - * / ^ and parentheses: what the notebook and the web page can
// write as NumPy meaning what muParser means. muParser alone would also take ?:, && and ||,
// comparisons, '=' (an assignment to the variable) and a top-level ',' (several results), and
// it skips line breaks; each of these is refused here with the reason.
std::string formulaSyntaxProblem(const std::string& formula) {
    int depth = 0;
    for (const char c : formula) {
        const auto byte = static_cast<unsigned char>(c);
        if (std::isalnum(byte) || c == '_' || c == '.' || c == ' ' ||
            std::string_view("+-*/^").find(c) != std::string_view::npos) {
            continue;
        }
        if (c == '(' || c == ')') {
            depth += c == '(' ? 1 : -1;
            continue;
        }
        if (c == ',') {
            if (depth > 0) {
                continue;
            }
            return "a formula gives one value: ',' may only separate a function's arguments";
        }
        if (byte < 0x20 || byte == 0x7f) {
            return "a formula is one line of text: it holds a line break or another control "
                   "character";
        }
        if (byte >= 0x80) {
            return "a formula is written in ASCII: numbers, its variable, functions, + - * / ^ "
                   "and parentheses";
        }
        return std::string("'") + c +
               "' is not part of a chart formula: use numbers, its variable, functions such as "
               "sqrt(n), + - * / ^ and parentheses";
    }
    return {};
}

} // namespace

std::optional<ChartCellSpec> readChart(BodyReader& in, const YamlNode& body) {
    ChartCellSpec chart;
    const int errorsBefore = in.errorCount();
    const YamlNode* series = nullptr;
    for (const auto& [key, value] : body.entries) {
        const std::string& k = key.scalar;
        in.note(k, key, value);
        if (k == "title") {
            chart.title = in.text(value, "title").value_or("");
        } else if (k == "x" || k == "y") {
            readAxis(in, value, k, chart);
        } else if (k == "series") {
            series = &value;
        } else {
            const std::string guess = closestName(k, {"title", "x", "y", "series"});
            in.warning(key.at, "unknown key '" + k + "'" +
                                   (guess.empty() ? "" : " — did you mean '" + guess + "'?"));
        }
    }
    if (!series || !series->isSequence() || series->items.empty()) {
        in.error(series ? series->at : body.at, "a chart needs series: a list of {label, y}");
    } else {
        for (const YamlNode& item : series->items) {
            const YamlNode* formula = item.isMap() ? item.find("y") : nullptr;
            if (!formula) {
                in.error(item.at, "each series needs a formula y, like {label: cost, y: \"n^2\"}");
                continue;
            }
            const YamlNode* label = item.find("label");
            const std::string y = in.text(*formula, "y").value_or("");
            if (const std::string problem = formulaSyntaxProblem(y); !problem.empty()) {
                in.error(formula->at, "y: " + problem);
                continue;
            }
            chart.series.push_back({label ? label->scalar : formula->scalar, y, formula->at});
        }
    }
    if (chart.xLog && (chart.from <= 0 || chart.to <= 0)) {
        in.error(body.find("x") ? body.find("x")->at : body.at, "a log axis needs from and to > 0");
    }
    if (!(chart.to > chart.from)) {
        in.error(body.find("x") ? body.find("x")->at : body.at, "x needs from < to");
    }
    if (in.errorCount() != errorsBefore) {
        return std::nullopt;
    }
    return chart;
}

} // namespace attnbook
