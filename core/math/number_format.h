#pragma once
// How every view writes a number: the window, the printed lesson, the answer key, the
// notebook's prose and the numbers bound into prose all call these two functions, so a
// negative number reads the same everywhere, with a real minus sign (U+2212 "−"), and
// "−0.0000" never appears.

#include <cstddef>
#include <string>
#include <vector>

namespace attnbook {

// The minus sign every view writes (U+2212, UTF-8).
inline constexpr const char* kMinusSign = "\u2212";

// Exactly `digits` decimals (a binding `{{x:2}}` shows 2): 0.5000, −1.2500, −∞ for a
// blocked score, ∞, and "?" for a value that is not a number (never "nan").
std::string fixedNumber(double value, int digits);

// As a reader writes it in worked arithmetic: whole numbers without decimals (2, −1),
// others rounded to `digits` decimals.
std::string readableNumber(double value, int digits);

// Whether readableNumber writes every finite one of `values` without decimals. A table (a
// matrix, a heatmap, the share bars) writes all its entries one way: readableNumber when they
// are all whole (1, 0, −1), else fixedNumber each, so that no table shows "−1" beside "0.9945".
bool allWhole(const double* values, std::size_t count);

// A table's one way of writing its entries: readableNumber when all of them are whole, else
// fixedNumber with `digits` decimals. Every renderer of a table (page, paper) asks styleFor.
struct NumberStyle {
    bool whole = false;
    int digits = 3;
    std::string operator()(double value) const {
        return whole ? readableNumber(value, digits) : fixedNumber(value, digits);
    }
};
NumberStyle styleFor(const std::vector<double>& values, int digits);

// The smallest and the largest finite one of `values` (+∞ and −∞ when none is finite), and
// whether some value is ±∞; NaNs are passed over. In a table written one way, the widest
// texts are those of these two (or "−∞"). Reads memory in order, four values at a time: a
// 2048 × 2048 table is scanned on the GUI thread after each edit.
struct ValueRange {
    double lowest = 0.0, highest = 0.0;
    bool hasInfinity = false;
};
ValueRange valueRange(const double* values, std::size_t count);

// `text` with every real minus sign replaced by ASCII '-': for comparing with what an author
// typed.
std::string asciiMinus(std::string text);

} // namespace attnbook
