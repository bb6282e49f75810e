#pragma once
// A lesson's own words outside its prose (a quiz's question, choices and explanation) as a
// reader sees them on paper, on the web page and in the notebook: each binding replaced by its
// value, escaped so that it shows as written (a token `*cat*` stays text), each claim showing
// nothing, and the author's notes (HTML comments) left out (docs/lesson-format.md, "HTML
// comments"). One rule for every export; each then turns the Markdown into its own format.
// The window's prose binder adds what only a live page has (a value still coming, a what-if's
// mark) and escapes its values the same way (escapeMarkdown).

#include "core/document/lesson.h"
#include "core/present/live_marks.h"

#include <string>

namespace attnbook {

// With `marks` (the live web page's quizzes), each value and claim is marked and numbered on
// from the counter, as numberedProsePieces(const Lesson&) numbers them (live_marks.h).
std::string boundMarkdown(const std::string& text, const LessonResults& results,
                          LiveMarkCounter* marks = nullptr);

} // namespace attnbook
