#pragma once
// Hand-typed numbers (docs/lesson-format.md, "Hand-typed numbers"): a decimal
// such as 0.2327 or a vector such as [1, 0, 0, 0] typed in prose, a table or
// a quiz's text that equals a cell's value at the precision shown; a percentage such as 38%
// that equals a share of the cell the text is about; a whole number such as 6 that is exactly
// a value that cell computes from the scores on ("2 heads", "Part 2", a list's "2." and a
// token's vector are not results). Whole numbers and percentages count only in a paragraph
// that binds their cell, or a quiz about it: a near cell is not enough for numbers so common.
// Counts ("three tokens") are the what-if sweep's (what_if_sweep.h): one that no reader and
// no variant can change cannot go stale. It goes
// stale when the cell changes, so `check` names the binding to write (an
// error inside a quiz whose cell varies on worksheets: false on every other
// variant), and `check --fix` writes it, changing no other byte.

#include "core/document/diagnostic.h"
#include "core/document/expression.h"

#include <string>
#include <vector>

namespace attnbook {

struct Lesson;
struct LessonResults;

struct TypedNumber {
    int line = 0;        // where the typed text starts in the file, from 1
    int column = 0;      // in characters, from 1
    std::string typed;   // exactly as in the file: "0.2327", "[1, 0, 0, 0]", "38" of "38%"
    std::string binding; // the inside of the binding that shows the same text: "colour.X0[1]:0"
    std::string quizId;  // the quiz whose text holds it; empty in prose
    bool inVaryingQuiz = false; // the quiz's cell varies on worksheets: an error
    bool located = true;        // false when only the quiz key's position is known (escapes in a
                                // quoted scalar): reported there, never fixed
    // Every value of the chosen cell that shows the same text (`binding`'s first), as binding
    // expressions, and the bindings of the paragraph or quiz around it: what check --fix
    // weighs (core/live/typed_number_coincidences.h).
    std::vector<std::string> candidates;
    std::vector<Binding> neighbours;

    std::string replacement() const { return "{{" + binding + "}}"; }
    Diagnostic diagnostic() const;
};

// Every hand-typed number of the lesson, in file order.
std::vector<TypedNumber> findTypedNumbers(const Lesson& lesson, const LessonResults& results);

struct TypedNumberFix {
    std::string bytes; // the file with every fixable site rewritten, nothing else changed
    std::vector<TypedNumber> fixed;
    std::vector<std::pair<TypedNumber, std::string>> refused; // a site and why it was left
};

// Rewrites each site of `sites` (found in `fileBytes`) into its binding. A site whose
// bytes are not its typed text is refused, and so is a site in a quiz whose YAML would
// no longer read as the same text with only that number replaced.
TypedNumberFix fixTypedNumbers(const std::string& fileBytes, const std::vector<TypedNumber>& sites);

} // namespace attnbook
