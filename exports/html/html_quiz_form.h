#pragma once
// A quiz the live web page lets a reader answer (docs/web-page.md, "Quizzes"): a form, hidden
// until the page is live, below the quiz's question. A choice quiz gets a radio button per
// choice (its words the label), a numeric one a text field, a free-text one a text area; then
// Check and a place for the verdict, which screen readers hear (aria-live). The page script
// sends the answer to the core (core/live/live_quiz.h) and shows what it says; with scripts off
// the page shows the quiz as its static part does (html_cells.h), answers folded.

#include "core/document/cell_specs.h"
#include "core/present/presented_lesson.h"

#include <QtCore/QString>
#include <QtCore/QStringList>

#include <string>

namespace attnbook {

// `number` counts the lesson's questions from 1 (the fieldset's legend: "Question N"); `text`
// is the quiz's words as the page shows them (their marks kept, so a choice's bound numbers
// follow a what-if in its label too).
QString quizFormHtml(const std::string& id, const QuizCellSpec& quiz, int number,
                     const PresentedQuizText& text);

// The element ids the form takes ("quiz-ID-answer", …), for the page to keep its headings off
// them (HeadingIds::reserve).
QStringList quizFormIds(const std::string& id, const QuizCellSpec& quiz);

} // namespace attnbook
