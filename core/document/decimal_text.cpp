#include "core/document/decimal_text.h"

#include <double-conversion/double-to-string.h>
#include <double-conversion/string-to-double.h>

#include <cmath>
#include <cstdio>

namespace attnbook {
namespace {

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

char lower(char c) {
    return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c;
}

// Whether [at, last) starts with `word` (lower case), in any case.
bool startsWithWord(const char* at, const char* last, const char* word) {
    for (; *word; ++word, ++at) {
        if (at == last || lower(*at) != *word) {
            return false;
        }
    }
    return true;
}

// A number already checked to be one (digits, '.', exponent), read as the nearest double:
// double-conversion, which follows no locale. Past the largest double: ±infinity; below the
// smallest: ±0.
double readChecked(const char* first, const char* last) {
    static const double_conversion::StringToDoubleConverter reader(
        double_conversion::StringToDoubleConverter::NO_FLAGS, 0.0, std::nan(""), nullptr, nullptr);
    int read = 0;
    return reader.StringToDouble(first, int(last - first), &read);
}

std::string scientific(const std::string& mantissa, int exponent) {
    std::string out(1, mantissa[0]);
    if (mantissa.size() > 1) {
        out += '.';
        out.append(mantissa, 1);
    }
    const int magnitude = std::abs(exponent);
    out += exponent < 0 ? "e-" : "e+";
    if (magnitude < 10) {
        out += '0';
    }
    return out + std::to_string(magnitude);
}

std::string fixed(double magnitude, const std::string& mantissa, int exponent) {
    const int digits = int(mantissa.size());
    if (exponent < 0) {
        return "0." + std::string(size_t(-exponent - 1), '0') + mantissa;
    }
    if (digits > exponent + 1) {
        return mantissa.substr(0, size_t(exponent + 1)) + "." +
               mantissa.substr(size_t(exponent + 1));
    }
    // A whole number: the exact digits of the double (as close as any text of that length).
    char buffer[400];
    std::snprintf(buffer, sizeof buffer, "%.0f", magnitude);
    return buffer;
}

} // namespace

std::string shortestDecimal(double value) {
    if (std::isnan(value)) {
        return std::signbit(value) ? "-nan" : "nan";
    }
    const std::string sign = std::signbit(value) ? "-" : "";
    if (std::isinf(value)) {
        return sign + "inf";
    }
    if (value == 0.0) {
        return sign + "0";
    }
    // The fewest digits that read back and, of those, the nearest (Grisu3, else an exact
    // bignum computation): what std::to_chars finds.
    char digits[double_conversion::DoubleToStringConverter::kBase10MaximalLength + 1];
    bool negative = false;
    int length = 0, point = 0;
    double_conversion::DoubleToStringConverter::DoubleToAscii(
        value, double_conversion::DoubleToStringConverter::SHORTEST, 0, digits, sizeof digits,
        &negative, &length, &point);
    const std::string mantissa(digits, size_t(length));
    const int exponent = point - 1; // of the first digit
    const std::string sci = scientific(mantissa, exponent);
    const std::string fix = fixed(std::abs(value), mantissa, exponent);
    return sign + (fix.size() <= sci.size() ? fix : sci);
}

std::from_chars_result decimalFromChars(const char* first, const char* last, double& value) {
    const char* at = first;
    const bool negative = at != last && *at == '-';
    if (negative) {
        ++at;
    }
    if (startsWithWord(at, last, "inf")) {
        at += startsWithWord(at, last, "infinity") ? 8 : 3;
        value = negative ? -HUGE_VAL : HUGE_VAL;
        return {at, std::errc()};
    }
    if (startsWithWord(at, last, "nan")) {
        at += 3;
        if (at != last && *at == '(') { // nan(n-char-sequence)
            const char* close = at + 1;
            while (close != last &&
                   (isDigit(*close) || (lower(*close) >= 'a' && lower(*close) <= 'z') ||
                    *close == '_')) {
                ++close;
            }
            if (close != last && *close == ')') {
                at = close + 1;
            }
        }
        value = negative ? -std::nan("") : std::nan("");
        return {at, std::errc()};
    }
    bool digits = false, nonZero = false;
    for (; at != last && isDigit(*at); ++at) {
        digits = true, nonZero = nonZero || *at != '0';
    }
    if (at != last && *at == '.') {
        ++at;
        for (; at != last && isDigit(*at); ++at) {
            digits = true, nonZero = nonZero || *at != '0';
        }
    }
    if (!digits) {
        return {first, std::errc::invalid_argument};
    }
    if (at != last && (*at == 'e' || *at == 'E')) { // an exponent only when digits follow
        const char* e = at + 1;
        if (e != last && (*e == '+' || *e == '-')) {
            ++e;
        }
        if (e != last && isDigit(*e)) {
            for (at = e; at != last && isDigit(*at); ++at) {
            }
        }
    }
    const double read = readChecked(first, at);
    if (std::isinf(read) || (read == 0.0 && nonZero)) {
        return {at, std::errc::result_out_of_range}; // past the largest, or below the smallest
    }
    value = read;
    return {at, std::errc()};
}

} // namespace attnbook
