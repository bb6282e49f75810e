#pragma once
// Small hand-written scanners for the patterns the reader checks on text a lesson controls.
// std::regex (libstdc++) matches by recursion, one frame per character: a 40 KB cell id or
// number overflowed the stack. These run in one pass, in constant stack.

#include <string_view>

namespace attnbook {

inline bool isAsciiLetter(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

inline bool isAsciiDigit(char c) {
    return c >= '0' && c <= '9';
}

// [A-Za-z_][A-Za-z0-9_<more>]*: a name that starts with a letter or '_' and goes on with
// letters, digits, '_' and the characters in `more`.
inline bool isPlainName(std::string_view s, std::string_view more = {}) {
    if (s.empty() || !(isAsciiLetter(s.front()) || s.front() == '_')) {
        return false;
    }
    for (const char c : s.substr(1)) {
        if (!isAsciiLetter(c) && !isAsciiDigit(c) && c != '_' &&
            more.find(c) == std::string_view::npos) {
            return false;
        }
    }
    return true;
}

// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?: a decimal number as YAML 1.2's core
// schema writes one.
inline bool isDecimalNumber(std::string_view s) {
    size_t i = 0;
    const auto digits = [&] {
        const size_t from = i;
        while (i < s.size() && isAsciiDigit(s[i])) {
            ++i;
        }
        return i - from;
    };
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
        ++i;
    }
    if (digits() == 0) {
        if (i >= s.size() || s[i] != '.') {
            return false;
        }
        ++i;
        if (digits() == 0) {
            return false;
        }
    } else if (i < s.size() && s[i] == '.') {
        ++i;
        digits();
    }
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
            ++i;
        }
        if (digits() == 0) {
            return false;
        }
    }
    return i == s.size();
}

// `prefix` followed by one or more characters for which `digit` holds ("0x1F", "0o17").
template <typename Digit>
bool isPrefixedNumber(std::string_view s, std::string_view prefix, Digit digit) {
    if (s.size() <= prefix.size() || s.substr(0, prefix.size()) != prefix) {
        return false;
    }
    for (const char c : s.substr(prefix.size())) {
        if (!digit(c)) {
            return false;
        }
    }
    return true;
}

// [-+]?\.(inf|Inf|INF) and \.(nan|NaN|NAN): YAML's infinities and not-a-number.
inline bool isYamlInfinity(std::string_view s) {
    if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
        s.remove_prefix(1);
    }
    return s == ".inf" || s == ".Inf" || s == ".INF";
}

inline bool isYamlNotANumber(std::string_view s) {
    return s == ".nan" || s == ".NaN" || s == ".NAN";
}

// An ATX heading as the prose rows read it: up to 3 spaces, 1 to 6 '#', at least one space or
// tab, the title, then optional closing '#'s and blanks and one '\r'. Returns the level (0 when
// the line is not a heading) and sets `title`.
inline int atxHeading(std::string_view line, std::string_view& title) {
    size_t i = 0;
    while (i < line.size() && i < 3 && line[i] == ' ') {
        ++i;
    }
    const size_t hashes = i;
    while (i < line.size() && line[i] == '#') {
        ++i;
    }
    const int level = int(i - hashes);
    if (level < 1 || level > 6 || i >= line.size() || (line[i] != ' ' && line[i] != '\t')) {
        return 0;
    }
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) {
        ++i;
    }
    std::string_view rest = line.substr(i);
    if (!rest.empty() && rest.back() == '\r') {
        rest.remove_suffix(1);
    }
    const auto stripBack = [&rest](auto strip) {
        while (!rest.empty() && strip(rest.back())) {
            rest.remove_suffix(1);
        }
    };
    const auto blank = [](char c) { return c == ' ' || c == '\t'; };
    stripBack(blank);
    stripBack([](char c) { return c == '#'; });
    stripBack(blank);
    title = rest;
    return level;
}

} // namespace attnbook
