#pragma once
// The numbers and vectors typed in a text, as the hand-typed-number lint reads them
// (docs/lesson-format.md, "Hand-typed numbers"): "0.2327", "[0.5, 0.25]", "38%", with where
// each stands and how it reads; years, list markers, table row labels and intervals are not
// numbers a cell could have computed.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace attnbook::typed_scan {

// A number or vector as typed: its place in the scanned text and how it reads.
struct Typed {
    size_t offset = 0;
    std::string text;
    std::vector<double> values; // one for a number
    int decimals = 0;
    bool vector = false;
    bool whole = false;   // "6": only a derived value of the subject cell that is exactly 6
    bool percent = false; // "38%": values[0] is 0.38, decimals counts the share's places
};

// The numbers and vectors typed in `text` that could be a cell's value: decimals with at
// least one place that are not whole (1.0 is too common to mean a cell), vectors,
// percentages other than 0% and 100%, and whole numbers from 2 up (0 and 1 are in every
// mask and identity).
std::vector<Typed> typedIn(std::string_view text);

} // namespace attnbook::typed_scan
