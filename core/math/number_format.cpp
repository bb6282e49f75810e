#include "core/math/number_format.h"

#include <double-conversion/double-conversion.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>

namespace attnbook {
namespace {

// "∞", "−∞" or "?" for a value that has no decimals to show; empty for a finite one.
std::string nonFiniteText(double value) {
    if (std::isnan(value)) {
        return "?";
    }
    if (std::isinf(value)) {
        return value < 0 ? std::string(kMinusSign) + "∞" : "∞";
    }
    return {};
}

// Finite |value| >= 0 with exactly `digits` decimals, as printf("%.*f") writes it. A view writes
// thousands of numbers after every what-if, and printf is slow in the browser build (musl
// formats through long double, which WebAssembly emulates), so this takes double-conversion's
// ToFixed. Both round the exact binary value correctly, and differ only on an exact tie, which
// ToFixed rounds away from zero and printf to even: the value k / 2^(digits+1) with k odd, whose
// last decimal is the 5 halfway between. Those, and what ToFixed does not take (1e21 and above,
// over 100 decimals), go to printf.
std::string fixedDecimals(double magnitude, int digits) {
    using double_conversion::DoubleToStringConverter;
    static const DoubleToStringConverter converter(DoubleToStringConverter::NO_FLAGS, "", "", 'e',
                                                   -6, 21, 6, 0);
    const auto whole = [](double x) { return std::floor(x) == x; };
    const bool tie = digits < 100 && whole(std::ldexp(magnitude, digits + 1)) &&
                     !whole(std::ldexp(magnitude, digits));
    char buffer[400]; // 1e308 written out in full, with decimals
    if (!tie && digits >= 0) {
        double_conversion::StringBuilder text(buffer, sizeof buffer);
        if (converter.ToFixed(magnitude, digits, &text)) {
            const int length = text.position();
            return std::string(text.Finalize(), size_t(length));
        }
    }
    std::snprintf(buffer, sizeof buffer, "%.*f", digits, magnitude);
    return buffer;
}

// |value|'s text and the sign in front, without a sign for a text that rounds to zero.
std::string signedText(double value, const std::string& magnitude) {
    const bool roundsToZero = magnitude.find_first_not_of("0.") == std::string::npos;
    return value < 0 && !roundsToZero ? kMinusSign + magnitude : magnitude;
}

// Whether readableNumber writes finite `value` without decimals.
bool isWhole(double value) {
    return std::abs(value - std::round(value)) < 1e-12 && std::abs(value) < 1e15;
}

} // namespace

std::string fixedNumber(double value, int digits) {
    if (std::string special = nonFiniteText(value); !special.empty()) {
        return special;
    }
    return signedText(value, fixedDecimals(std::abs(value), digits));
}

std::string readableNumber(double value, int digits) {
    if (std::string special = nonFiniteText(value); !special.empty()) {
        return special;
    }
    return signedText(value, isWhole(value) ? fixedDecimals(std::abs(std::round(value)), 0)
                                            : fixedDecimals(std::abs(value), digits));
}

bool allWhole(const double* values, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
        if (std::isfinite(values[i]) && !isWhole(values[i])) {
            return false;
        }
    }
    return true;
}

NumberStyle styleFor(const std::vector<double>& values, int digits) {
    return {allWhole(values.data(), values.size()), digits};
}

ValueRange valueRange(const double* values, std::size_t count) {
    // Four independent minima and maxima, so that the comparisons do not wait on each other;
    // a NaN compares false and is passed over, an infinity is caught after the loop.
    constexpr double inf = std::numeric_limits<double>::infinity();
    std::array<double, 4> low = {inf, inf, inf, inf}, high = {-inf, -inf, -inf, -inf};
    std::size_t i = 0;
    for (; i + 4 <= count; i += 4) {
        for (std::size_t k = 0; k < 4; ++k) {
            const double v = values[i + k];
            low[k] = v < low[k] ? v : low[k];
            high[k] = v > high[k] ? v : high[k];
        }
    }
    for (; i < count; ++i) {
        low[0] = values[i] < low[0] ? values[i] : low[0];
        high[0] = values[i] > high[0] ? values[i] : high[0];
    }
    ValueRange range{*std::min_element(low.begin(), low.end()),
                     *std::max_element(high.begin(), high.end()), false};
    if (std::isfinite(range.lowest) && std::isfinite(range.highest)) {
        return range;
    }
    // An infinity, or no number at all: the finite extremes, one value at a time.
    range = {inf, -inf, false};
    for (std::size_t j = 0; j < count; ++j) {
        if (std::isinf(values[j])) {
            range.hasInfinity = true;
        } else if (!std::isnan(values[j])) {
            range.lowest = std::min(range.lowest, values[j]);
            range.highest = std::max(range.highest, values[j]);
        }
    }
    return range;
}

std::string asciiMinus(std::string text) {
    const std::string minus = kMinusSign;
    for (size_t at = text.find(minus); at != std::string::npos; at = text.find(minus, at)) {
        text.replace(at, minus.size(), "-");
        ++at;
    }
    return text;
}

} // namespace attnbook
