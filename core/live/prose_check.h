#pragma once
// The prose editor's check as the author types: the first binding of the text that would be an
// error in `check` — one that does not parse, an unclosed {{, or one whose value the lesson's
// results do not have (a mistyped path, a cell that is not there) — said where it is typed.

#include "core/document/lesson.h"

#include <string>
#include <string_view>

namespace attnbook {

// "line L, column C: {{…}}: why" for the first problem of `markdown` (its lines counted from 1),
// or "" when every binding has a value in `results`.
std::string proseBindingProblem(std::string_view markdown, const LessonResults& results);

} // namespace attnbook
