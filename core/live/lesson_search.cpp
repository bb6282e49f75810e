#include "core/live/lesson_search.h"

namespace attnbook {
int occurrences(std::string_view haystack, std::string_view needle) {
    if (needle.empty()) {
        return 0;
    }
    // Byte by byte is code point by code point: in UTF-8 no character's bytes start inside
    // another's, so a match always begins and ends on a character.
    int count = 0;
    for (size_t at = haystack.find(needle); at != std::string_view::npos;
         at = haystack.find(needle, at + needle.size())) {
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
