#include "core/math/number_format.h"

#include <cmath>
#include <cstdio>

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
    char buffer[400]; // 1e308 written out in full, with decimals
    std::snprintf(buffer, sizeof buffer, "%.*f", digits, std::abs(value));
    return signedText(value, buffer);
}

std::string readableNumber(double value, int digits) {
    if (std::string special = nonFiniteText(value); !special.empty()) {
        return special;
    }
    char buffer[400];
    const double rounded = std::round(value);
    if (isWhole(value)) {
        std::snprintf(buffer, sizeof buffer, "%.0f", std::abs(rounded));
    } else {
        std::snprintf(buffer, sizeof buffer, "%.*f", digits, std::abs(value));
    }
    return signedText(value, buffer);
}

bool allWhole(const double* values, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
        if (std::isfinite(values[i]) && !isWhole(values[i])) {
            return false;
        }
    }
    return true;
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
