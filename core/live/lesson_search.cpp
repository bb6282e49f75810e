#include "core/live/lesson_search.h"

namespace attnbook {
namespace {

// Simple (one to one) case folding of the scripts lessons are written in: Latin with its
// accents, Greek and Cyrillic. Other code points fold to themselves.
char32_t folded(char32_t c) {
    if ((c >= U'A' && c <= U'Z') || (c >= 0xC0 && c <= 0xDE && c != 0xD7)) {
        return c + 0x20;
    }
    if (c >= 0x100 && c <= 0x17F) { // Latin Extended-A: capital, small pairs
        if (c == 0x178) {
            return 0xFF; // Ÿ
        }
        const bool oddPairs = (c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E);
        const bool capital = oddPairs ? c % 2 == 1 : c % 2 == 0;
        return capital && c != 0x130 && c != 0x138 && c != 0x149 && c != 0x17F ? c + 1 : c;
    }
    if ((c >= 0x391 && c <= 0x3A9 && c != 0x3A2) || (c >= 0x410 && c <= 0x42F)) {
        return c + 0x20; // Greek Α–Ω, Cyrillic А–Я
    }
    if (c == 0x3C2) {
        return 0x3C3; // final ς is σ
    }
    if (c >= 0x400 && c <= 0x40F) {
        return c + 0x50; // Cyrillic Ѐ–Џ
    }
    return c;
}

// The code point at `i` of `text` and its length; a byte that starts no UTF-8 sequence is
// itself, moved out of the way of real code points.
std::pair<char32_t, size_t> decode(std::string_view text, size_t i) {
    const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    const size_t length = lead < 0x80         ? 1
                          : (lead >> 5) == 6  ? 2
                          : (lead >> 4) == 14 ? 3
                          : (lead >> 3) == 30 ? 4
                                              : 0;
    if (length == 0 || i + length > text.size()) {
        return {0x110000 + lead, 1};
    }
    char32_t c = length == 1 ? lead : lead & (0x7F >> length);
    for (size_t k = 1; k < length; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80) {
            return {0x110000 + lead, 1};
        }
        c = (c << 6) | (byte(i + k) & 0x3F);
    }
    return {c, length};
}

} // namespace

std::u32string foldedText(std::string_view utf8) {
    std::u32string out;
    out.reserve(utf8.size());
    for (size_t i = 0; i < utf8.size();) {
        const auto [c, length] = decode(utf8, i);
        out.push_back(folded(c));
        i += length;
    }
    return out;
}

int occurrences(std::string_view haystack, std::string_view needle) {
    const std::u32string hay = foldedText(haystack);
    const std::u32string what = foldedText(needle);
    if (what.empty()) {
        return 0;
    }
    int count = 0;
    for (size_t at = hay.find(what); at != std::u32string::npos;
         at = hay.find(what, at + what.size())) {
        ++count;
    }
    return count;
}

void LessonFind::collect(const std::vector<std::string>& rows) {
    hits_.clear();
    if (text_.empty()) {
        return;
    }
    for (size_t row = 0; row < rows.size(); ++row) {
        const int count = occurrences(rows[row], text_);
        for (int k = 0; k < count; ++k) {
            hits_.push_back({int(row), k});
        }
    }
}

void LessonFind::find(const std::vector<std::string>& rows, std::string text, int fromRow) {
    text_ = std::move(text);
    collect(rows);
    current_ = hits_.empty() ? -1 : 0;
    for (size_t i = 0; i < hits_.size(); ++i) {
        if (hits_[i].row >= fromRow) {
            current_ = int(i);
            break;
        }
    }
}

void LessonFind::refresh(const std::vector<std::string>& rows) {
    if (text_.empty()) {
        return;
    }
    const Hit was = currentHit();
    collect(rows);
    current_ = hits_.empty() ? -1 : 0;
    for (size_t i = 0; i < hits_.size(); ++i) {
        if (hits_[i].row > was.row || hits_[i] == was) {
            current_ = int(i);
            break;
        }
    }
}

void LessonFind::next() {
    if (!hits_.empty()) {
        current_ = (current_ + 1) % int(hits_.size());
    }
}

void LessonFind::previous() {
    if (!hits_.empty()) {
        current_ = current_ <= 0 ? int(hits_.size()) - 1 : current_ - 1;
    }
}

void LessonFind::clear() {
    text_.clear();
    hits_.clear();
    current_ = -1;
}

std::string LessonFind::status() const {
    if (text_.empty()) {
        return {};
    }
    if (hits_.empty()) {
        return "no match";
    }
    return std::to_string(current_ + 1) + " of " + std::to_string(hits_.size());
}

} // namespace attnbook
