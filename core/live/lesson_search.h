#pragma once
// Find in the lesson (Ctrl+F), without Qt: every place a text occurs in the rows a
// reader sees, in the lesson's order. The window gives each row's shown text (a prose row as
// plain text, a cell's id, title, question, choices or tokens, one a line) and the text typed,
// both with their case folded by Qt (QString::toCaseFolded, Unicode's folding): case is ignored
// by folding before the search, not by a table of our own here;
// a hit is a row and the k-th occurrence in that row's text, which is what the window scrolls
// to and highlights. Occurrences do not overlap: "aa" occurs twice in "aaaa", not three times.

#include <string>
#include <string_view>
#include <vector>

namespace attnbook {

// How many times `needle` occurs in `haystack` (UTF-8, as given), without overlaps.
int occurrences(std::string_view haystack, std::string_view needle);

class LessonFind {
  public:
    struct Hit {
        int row = -1;
        int occurrence = 0; // the k-th occurrence in the row's text
        bool operator==(const Hit&) const = default;
    };

    // Searches `rows` (each row's shown text) for `text`; the current hit becomes the first at
    // or after row `fromRow` (where the reader is), else the first.
    void find(const std::vector<std::string>& rows, std::string text, int fromRow);
    // The rows changed under the hits (an edit, a what-if): searches them again, keeping the
    // current hit's place (the same hit, else the first after its row, else the first).
    void refresh(const std::vector<std::string>& rows);
    // The next or the previous hit, wrapping around.
    void next();
    void previous();
    void clear();

    const std::string& text() const { return text_; }
    const std::vector<Hit>& hits() const { return hits_; }
    int current() const { return current_; } // −1: none
    Hit currentHit() const { return current_ >= 0 ? hits_[size_t(current_)] : Hit{-1, -1}; }
    // "3 of 12", "no match", or "" when nothing is typed.
    std::string status() const;

  private:
    void collect(const std::vector<std::string>& rows);

    std::string text_;
    std::vector<Hit> hits_;
    int current_ = -1;
};

} // namespace attnbook
