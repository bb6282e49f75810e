#include "core/document/chart_axis.h"

#include "core/math/number_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace attnbook {
namespace {

ChartAxis logAxis(double lo, double hi) {
    ChartAxis axis;
    axis.log = true;
    const int first = int(std::floor(std::log10(lo) + 1e-9));
    int last = std::max(int(std::ceil(std::log10(hi) - 1e-9)), first + 1);
    // Eight decades fit a figure's width; more take every k-th, and the top end moves up to
    // the next labelled decade, so that it is never an unlabelled line above the last tick.
    const int stride = std::max(1, (last - first + 7) / 8);
    last = first + stride * ((last - first + stride - 1) / stride);
    for (int k = first; k <= last; k += stride) {
        axis.ticks.push_back(std::pow(10.0, k));
    }
    axis.lo = axis.ticks.front();
    axis.hi = axis.ticks.back();
    return axis;
}

ChartAxis linearAxis(double lo, double hi) {
    ChartAxis axis;
    if (hi <= lo) {
        hi = lo + 1;
    }
    const double raw = (hi - lo) / 6;
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    double step = 10 * power;
    for (double f : {1.0, 2.0, 5.0}) {
        if (f * power >= raw) {
            step = f * power;
            break;
        }
    }
    axis.lo = std::floor(lo / step) * step;
    axis.hi = std::ceil(hi / step) * step;
    for (double v = axis.lo; v <= axis.hi + step * 1e-9; v += step) {
        axis.ticks.push_back(std::abs(v) < step * 1e-9 ? 0.0 : v);
    }
    return axis;
}

// `value` with `decimals` decimals, its whole part grouped by thousands: "1,000,000", "0.50".
std::string grouped(double value, int decimals) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, std::abs(value));
    const std::string digits = buffer;
    const size_t point = std::min(digits.find('.'), digits.size());
    std::string out = value < 0 && digits.find_first_not_of("0.") != std::string::npos
                          ? std::string(kMinusSign)
                          : std::string();
    for (size_t i = 0; i < point; ++i) {
        if (i > 0 && (point - i) % 3 == 0) {
            out += ',';
        }
        out += digits[i];
    }
    return out + digits.substr(point);
}

std::string powerOfTen(int k) {
    static const char* const superscripts[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
    std::string exponent = k < 0 ? "⁻" : "";
    for (char c : std::to_string(std::abs(k))) {
        exponent += superscripts[c - '0'];
    }
    return "10" + exponent;
}

} // namespace

ChartAxis chartAxis(double lo, double hi, bool log) {
    ChartAxis axis = log && lo > 0 && std::isfinite(lo) && std::isfinite(hi)
                         ? logAxis(lo, std::max(lo, hi))
                         : linearAxis(lo, hi);
    axis.labels = chartTickLabels(axis.ticks, axis.log);
    return axis;
}

std::vector<std::string> chartTickLabels(const std::vector<double>& ticks, bool log) {
    std::vector<std::string> out;
    if (log) {
        std::vector<int> powers;
        bool plain = true;
        for (double v : ticks) {
            const int k = v > 0 ? int(std::lround(std::log10(v))) : 0;
            powers.push_back(k);
            plain = plain && k >= -2 && k <= 4;
        }
        for (size_t i = 0; i < ticks.size(); ++i) {
            out.push_back(plain ? grouped(ticks[i], std::max(0, -powers[i]))
                                : powerOfTen(powers[i]));
        }
        return out;
    }
    // As many decimals as the step between ticks needs, the same for every tick.
    double step = 0;
    for (size_t i = 1; i < ticks.size(); ++i) {
        const double d = std::abs(ticks[i] - ticks[i - 1]);
        step = step == 0 ? d : std::min(step, d);
    }
    const int decimals =
        step > 0 ? std::clamp(int(-std::floor(std::log10(step) + 1e-9)), 0, 12) : 0;
    for (double v : ticks) {
        out.push_back(grouped(v, decimals));
    }
    return out;
}

ChartAxes chartAxes(const ChartCellSpec& chart, const std::vector<ChartSeries>& series) {
    double lo = 0, hi = 1;
    bool any = false;
    for (const ChartSeries& s : series) {
        for (double v : s.y) {
            if (!std::isfinite(v) || (chart.yLog && v <= 0)) {
                continue; // a log axis cannot show it (computeChartSeries says so)
            }
            lo = any ? std::min(lo, v) : v;
            hi = any ? std::max(hi, v) : v;
            any = true;
        }
    }
    const bool yLog = chart.yLog && any;
    if (!yLog && lo > 0 && lo < hi * 0.5) {
        lo = 0; // a linear axis starts at zero when the data is not far from it
    }
    return {chartAxis(chart.from, chart.to, chart.xLog && chart.from > 0), chartAxis(lo, hi, yLog)};
}

} // namespace attnbook
