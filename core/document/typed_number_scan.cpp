#include "core/document/typed_number_scan.h"

#include <cctype>
#include <cmath>
#include <optional>

namespace attnbook::typed_scan {

namespace {

bool isDigit(char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
}
bool isWordChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// Reads "-12.345" at `i`: its end, value and decimals; nullopt when no number starts there.
struct ReadNumber {
    size_t end;
    double value;
    int decimals;
};
std::optional<ReadNumber> readNumber(std::string_view text, size_t i) {
    const size_t start = i;
    if (i < text.size() && text[i] == '-') {
        ++i;
    }
    const size_t digits = i;
    while (i < text.size() && isDigit(text[i])) {
        ++i;
    }
    if (i == digits) {
        return std::nullopt;
    }
    int decimals = 0;
    if (i + 1 < text.size() && text[i] == '.' && isDigit(text[i + 1])) {
        ++i;
        while (i < text.size() && isDigit(text[i])) {
            ++i, ++decimals;
        }
    }
    // strtod, not stod: 400 digits are a huge number, not an exception
    return ReadNumber{i, std::strtod(std::string(text.substr(start, i - start)).c_str(), nullptr),
                      decimals};
}

// What typed text ending at `end` must not run into: more of a word, a version's next part,
// an exponent or a percent sign (a different number).
bool endsCleanly(std::string_view text, size_t end) {
    if (end == text.size()) {
        return true;
    }
    const char c = text[end];
    if (isWordChar(c) || c == '%') {
        return false;
    }
    return !(c == '.' && end + 1 < text.size() && isDigit(text[end + 1]));
}

// "in [0, 1]": an interval, not a vector.
bool followsIntervalWord(std::string_view text, size_t at) {
    for (const std::string_view word : {"in ", "within ", "range ", "interval "}) {
        if (at >= word.size() && text.substr(at - word.size(), word.size()) == word &&
            (at == word.size() || !isWordChar(text[at - word.size() - 1]))) {
            return true;
        }
    }
    return false;
}

// "[1, 0, 0, 0]" or "[0.38, 0.23]" at `i` (a '['), written as a binding would show it.
std::optional<Typed> readVector(std::string_view text, size_t i) {
    if (i > 0 && (isWordChar(text[i - 1]) || text[i - 1] == '!' || text[i - 1] == ']' ||
                  text[i - 1] == '\\')) {
        return std::nullopt; // an image, a link reference, an index such as X[0, 1]
    }
    Typed out;
    out.offset = i;
    out.vector = true;
    size_t at = i + 1;
    while (true) {
        const std::optional<ReadNumber> number = readNumber(text, at);
        if (!number) {
            return std::nullopt;
        }
        if (!out.values.empty() && number->decimals != out.decimals) {
            return std::nullopt;
        }
        out.decimals = number->decimals;
        out.values.push_back(number->value);
        at = number->end;
        if (at < text.size() && text[at] == ']') {
            ++at;
            break;
        }
        if (text.substr(at, 2) != ", ") {
            return std::nullopt;
        }
        at += 2;
    }
    if (out.values.size() < 2 || (at < text.size() && (text[at] == '(' || text[at] == '[' ||
                                                       text[at] == ':' || isWordChar(text[at])))) {
        return std::nullopt; // a link, a reference definition
    }
    if (out.decimals == 0 && out.values.size() == 2 && followsIntervalWord(text, i)) {
        return std::nullopt;
    }
    out.text = std::string(text.substr(i, at - i));
    return out;
}

// "Part 2", "row 3", "head 2": a whole number that names a place, not a value.
bool followsPlaceWord(std::string_view text, size_t at) {
    for (const std::string_view word :
         {"part ", "step ", "chapter ", "section ", "figure ", "row ", "column ", "token ", "head ",
          "layer ", "block ", "position ", "variant ", "line ", "question "}) {
        if (at < word.size()) {
            continue;
        }
        std::string before(text.substr(at - word.size(), word.size()));
        std::transform(before.begin(), before.end(), before.begin(),
                       [](unsigned char c) { return char(std::tolower(c)); });
        if (before == word) {
            return true;
        }
    }
    return false;
}

// "2. " or "2) " opening a line: a list item's number.
bool isListMarker(std::string_view text, size_t start, size_t end) {
    size_t before = start;
    while (before > 0 && (text[before - 1] == ' ' || text[before - 1] == '\t')) {
        --before;
    }
    return (before == 0 || text[before - 1] == '\n') && end + 1 < text.size() &&
           (text[end] == '.' || text[end] == ')') && text[end + 1] == ' ';
}

// "| 2 | …": a table row's first cell, which labels the row (a step, a position).
bool isTableRowLabel(std::string_view text, size_t start) {
    size_t before = start;
    while (before > 0 && (text[before - 1] == ' ' || text[before - 1] == '\t')) {
        --before;
    }
    if (before == 0 || text[before - 1] != '|') {
        return false;
    }
    --before;
    while (before > 0 && (text[before - 1] == ' ' || text[before - 1] == '\t')) {
        --before;
    }
    return before == 0 || text[before - 1] == '\n';
}

// A percentage at `start`: the number's end is followed by "%" (or " %").
std::optional<size_t> percentSign(std::string_view text, size_t end) {
    if (end < text.size() && text[end] == '%') {
        return end + 1;
    }
    if (end + 1 < text.size() && text[end] == ' ' && text[end + 1] == '%') {
        return end + 2;
    }
    return std::nullopt;
}

} // namespace

std::vector<Typed> typedIn(std::string_view text) {
    std::vector<Typed> out;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '[') {
            if (std::optional<Typed> vector = readVector(text, i)) {
                out.push_back(std::move(*vector)); // its numbers follow: the caller keeps
            }                                      // them when the vector is no cell's
            continue;
        }
        if (!isDigit(text[i]) ||
            (i > 0 && (isWordChar(text[i - 1]) || text[i - 1] == '.' || text[i - 1] == '/' ||
                       text[i - 1] == '\\' || text[i - 1] == '^' || text[i - 1] == ','))) {
            continue;
        }
        size_t start = i;
        if (i > 0 && text[i - 1] == '-') {
            if (i > 1 && (isWordChar(text[i - 2]) || text[i - 2] == ')')) {
                continue; // a hyphenated word or a subtraction, not a sign
            }
            start = i - 1;
        }
        const std::optional<ReadNumber> number = readNumber(text, start);
        size_t end = number->end;
        if (const std::optional<size_t> sign = percentSign(text, end);
            sign && number->value > 0 && number->value < 100 &&
            (*sign == text.size() || !isWordChar(text[*sign]))) {
            out.push_back({start,
                           std::string(text.substr(start, *sign - start)),
                           {number->value / 100},
                           number->decimals + 2,
                           false,
                           false,
                           true});
        } else if (number->decimals == 0 && std::abs(number->value) >= 2 &&
                   endsCleanly(text, end) && !isListMarker(text, start, end) &&
                   !isTableRowLabel(text, start) && !followsPlaceWord(text, start) &&
                   !(end < text.size() && text[end] == '.' && end + 1 < text.size() &&
                     isDigit(text[end + 1]))) {
            out.push_back({start,
                           std::string(text.substr(start, end - start)),
                           {number->value},
                           0,
                           false,
                           true,
                           false});
        } else if (number->decimals >= 1 && endsCleanly(text, end) &&
                   number->value != std::floor(number->value)) {
            out.push_back({start,
                           std::string(text.substr(start, end - start)),
                           {number->value},
                           number->decimals,
                           false});
        }
        while (end < text.size() && (isDigit(text[end]) || text[end] == '.')) {
            ++end; // the rest of 1.2.3, never a number of its own
        }
        i = end - 1;
    }
    return out;
}

// A cell's body as its YAML is parsed: an indented fence's indentation taken off each line
// (as readCell does), so positions are the file's.

} // namespace attnbook::typed_scan
