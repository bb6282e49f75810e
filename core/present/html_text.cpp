#include "core/present/html_text.h"

namespace attnbook {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD"; // U+FFFD

// Characters HTML5 calls parse errors wherever they appear (§13.2.5 "preprocessing the input
// stream"): C0 and C1 controls other than whitespace, and noncharacters.
bool forbiddenInHtml(char32_t c) {
    if (c == U'\t' || c == U'\n' || c == U'\r' || c == U'\f') {
        return false;
    }
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
        return true;
    }
    return (c >= 0xfdd0 && c <= 0xfdef) || (c & 0xfffe) == 0xfffe;
}

// The length of the well-formed UTF-8 sequence at `i` (1 to 4) and its code point, or 0 when
// the bytes there are not one (overlong forms, surrogates and values past U+10FFFF are not).
size_t decodeAt(std::string_view text, size_t i, char32_t& code) {
    const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[i + k]); };
    const unsigned char lead = byte(0);
    if (lead < 0x80) {
        code = lead;
        return 1;
    }
    const size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0;
    if (length == 0 || lead > 0xF4 || i + length > text.size()) {
        return 0;
    }
    code = lead & (0x7F >> length);
    for (size_t k = 1; k < length; ++k) {
        if ((byte(k) & 0xC0) != 0x80) {
            return 0;
        }
        code = (code << 6) | (byte(k) & 0x3F);
    }
    constexpr char32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
    const bool surrogate = code >= 0xD800 && code <= 0xDFFF;
    return code < kSmallest[length] || surrogate || code > 0x10FFFF ? 0 : length;
}

} // namespace

std::string htmlValidText(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size();) {
        char32_t code = 0;
        const size_t length = decodeAt(text, i, code);
        if (length == 0 || forbiddenInHtml(code)) {
            out += kReplacement;
            i += length == 0 ? 1 : length;
        } else {
            out += text.substr(i, length);
            i += length;
        }
    }
    return out;
}

std::string htmlText(std::string_view text) {
    const std::string valid = htmlValidText(text);
    std::string out;
    out.reserve(valid.size() + valid.size() / 8);
    for (const char c : valid) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

} // namespace attnbook
