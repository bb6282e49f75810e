// What test_transformer_document.cpp and test_transformer_document_cell.cpp share: a lesson
// computed as `check` computes it, with all its problems, and those problems as text for a
// failure message.
#pragma once

#include "core/document/lesson.h"

#include <string>
#include <vector>

namespace attnbook::test {

// A computed lesson and its problems (lessonProblems: reading, compute, bindings, claims, lint).
struct Computed {
    Lesson lesson;
    LessonResults results;
    std::vector<Diagnostic> problems;
};

Computed compute(Lesson lesson);

// Every diagnostic as `check` prints it, one a line, for a failure message.
std::string describe(const std::vector<Diagnostic>& all);

} // namespace attnbook::test
