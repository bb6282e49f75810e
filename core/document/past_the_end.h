#pragma once
// One cause, one error: a cell that lost a token makes every binding that
// read the last one fail ("colour.output has 2 entries, so [2] is out of range"), in prose,
// claims and quiz answers alike. checkLesson and lessonProblems (lesson.cpp) report them as
// one error, at the first, counting the others.

#include "core/document/lesson.h"

#include <string>
#include <vector>

namespace attnbook {

// A problem and, when it is a binding that reads past the end of a cell's lists, that cell.
struct CheckedProblem {
    Diagnostic diagnostic;
    std::string pastTheEndOf;
};

// The cell (computed without errors) whose lists `binding` reads past the end of, or "".
std::string cellReadPastItsEnd(const LessonResults& results, const Binding& binding);

// The first problem of each cell read past its end stands for all of them, and says first how
// many more there are and where the last is (a long claim is cut when printed:
// kMaxPrintedBytes); the others are dropped. Keeps the order.
std::vector<Diagnostic> foldPastTheEnd(const std::vector<CheckedProblem>& problems);

} // namespace attnbook
