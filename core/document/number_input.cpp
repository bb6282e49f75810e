#include "core/document/number_input.h"

#include "core/document/decimal_text.h"

#include <cmath>

namespace attnbook {
namespace {

constexpr std::string_view kMinusSign = "\xE2\x88\x92"; // −, U+2212
constexpr std::string_view kNoBreakSpace = "\xC2\xA0";  // U+00A0

std::string_view trimmed(std::string_view text) {
    for (bool cut = true; cut;) {
        cut = false;
        while (!text.empty() &&
               std::string_view(" \t\r\n\f\v").find(text.front()) != std::string_view::npos) {
            text.remove_prefix(1), cut = true;
        }
        while (!text.empty() &&
               std::string_view(" \t\r\n\f\v").find(text.back()) != std::string_view::npos) {
            text.remove_suffix(1), cut = true;
        }
        if (text.starts_with(kNoBreakSpace)) {
            text.remove_prefix(kNoBreakSpace.size()), cut = true;
        }
        if (text.ends_with(kNoBreakSpace)) {
            text.remove_suffix(kNoBreakSpace.size()), cut = true;
        }
    }
    return text;
}

} // namespace

std::optional<double> readTypedNumber(std::string_view text, std::string& reason) {
    std::string cleaned(trimmed(text));
    for (size_t at = 0; (at = cleaned.find(kMinusSign, at)) != std::string::npos; ++at) {
        cleaned.replace(at, kMinusSign.size(), "-"); // − as the window writes it
    }
    if (cleaned.empty()) {
        reason = "type a number";
        return std::nullopt;
    }
    if (cleaned.find(',') != std::string::npos) {
        reason = "use a point for decimals: 1.5, not 1,5";
        return std::nullopt;
    }
    const char* first = cleaned.data();
    const char* last = first + cleaned.size();
    if (*first == '+') {
        ++first;
    }
    double value = 0.0;
    const auto [end, error] = decimalFromChars(first, last, value);
    if (error == std::errc::result_out_of_range) {
        reason = cleaned + " is too large: it must be a finite number";
        return std::nullopt;
    }
    if (error != std::errc() || end != last || std::isnan(value)) {
        reason = "'" + cleaned + "' is not a number";
        return std::nullopt;
    }
    if (!std::isfinite(value)) {
        reason = "the number must be finite";
        return std::nullopt;
    }
    return value;
}

} // namespace attnbook
