#pragma once
// A quiz answered on the live web page (docs/web-page.md, "Quizzes"): the reader's answer to
// one quiz, judged against the answer the lesson has for the reader's current what-if, by the
// rules of docs/lesson-format.md (quiz cells) that the window judges with (quiz_answer.h). The
// page script only shows what this says.

#include "core/document/json.h"
#include "core/document/lesson.h"

#include <string>
#include <vector>

namespace attnbook {

struct LiveQuizVerdict {
    // "right", "wrong", "not-a-number" (typed text that is no number), "sample" (a free-text
    // quiz: its sample answer to compare with), "unanswered" (nothing given), or "unknown"
    // (no such quiz, or its answer cannot be computed for this what-if).
    std::string verdict;
    std::string says;   // the verdict in words: "Right.", "Not quite — the answer is C: …"
    std::string answer; // the answer as the page shows it: "C: …", "0.2327", the sample text
};

// `given` is the reader's answer as the page's form sends it: a choice's index from 0 ("2"),
// the text typed for a number ("0.25", "1/4"), or the text written for a free-text quiz.
// `results` are those of the reader's current what-if (LivePageSession::currentResults): a
// bound answer is the one they compute.
LiveQuizVerdict liveQuizVerdict(const Lesson& lesson, const LessonResults& results,
                                const std::string& quizId, const std::string& given);

// {"verdict", "says", "answer"}.
Json liveQuizVerdictJson(const LiveQuizVerdict& verdict);

// The paths every quiz's bound answer reads: the live page computes no other JSON than what
// its text and its quizzes quote (live_page.h).
std::vector<BindingPath> quizAnswerPaths(const Lesson& lesson);

} // namespace attnbook
