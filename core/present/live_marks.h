#pragma once
// Where the live web page (docs/web-page.md) finds each bound value and claim of the prose.
// The page's static HTML is written from Markdown, so the places are marked in the Markdown
// itself with characters of Unicode's private use area, which no Markdown reader gives a
// meaning: a value is U+E000, its number, U+E001, the value, U+E002; a claim is U+E003, its
// number, U+E002. The web page turns each mark into an element with that number
// (data-bind, data-claim), and the live module numbers the values of a what-if the same way
// (numberedProsePieces), so page and module meet by number.
//
// Numbers count from 0 over the whole lesson in its order: values and claims each their own
// count, every prose block's bindings in the order they are written. A binding inside an
// author's note (an HTML comment) has none: the page leaves notes out, and the lesson it
// carries has them blanked (liveLessonSource).

#include "core/document/bindings.h"
#include "core/document/lesson.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace attnbook {

inline constexpr std::string_view kValueMarkOpen = "\xEE\x80\x80"; // U+E000
inline constexpr std::string_view kMarkNumberEnd = "\xEE\x80\x81"; // U+E001
inline constexpr std::string_view kMarkClose = "\xEE\x80\x82";     // U+E002
inline constexpr std::string_view kClaimMarkOpen = "\xEE\x80\x83"; // U+E003

// Counts values and claims across the prose blocks of one lesson.
struct LiveMarkCounter {
    int values = 0;
    int claims = 0;
};

// `markdown` (a value as prose shows it) marked as value `number`.
std::string markedValue(int number, const std::string& markdown);
// The (empty) place of claim `number`.
std::string markedClaim(int number);

// What the marks of `text` say, in order, to the one reader of the format: the plain text
// between marks, each value's opening (its number) and its close, each claim (its number). A
// mark that is not whole, and a close with no value open, say nothing.
struct LiveMarkSteps {
    std::function<void(std::string_view)> text;
    std::function<void(int)> value;
    std::function<void()> valueEnd;
    std::function<void(int)> claim;
};
void readLiveMarks(std::string_view text, const LiveMarkSteps& steps);

// `text` with every mark taken out and each marked value's text kept: what a reader reads.
std::string withoutLiveMarks(std::string_view text);

// One binding of the prose with its number (values and claims counted apart).
struct NumberedBinding {
    int number = 0;
    const Binding* binding = nullptr; // points into `pieces` of NumberedProse
    int line = 0;                     // in the lesson's file
};

// Every prose block's bindings of `lesson`, numbered as presentLesson(..., Marks::Live) marks
// them.
struct NumberedProse {
    std::vector<std::vector<ProsePiece>> pieces; // one list per prose block, in order
    std::vector<NumberedBinding> values;
    std::vector<NumberedBinding> claims;
};
NumberedProse numberedProsePieces(const Document& document);

// The same, then the bindings of each quiz's words (question, each choice, explanation; its
// cells in the lesson's order), numbered on after the prose's: the live page's quizzes follow
// a what-if as its prose does (docs/web-page.md). A quiz text's lines are those `compute`
// gives its claims (the line of its key).
NumberedProse numberedProsePieces(const Lesson& lesson);

// The words of a quiz that the live page marks, in the order numberedProsePieces numbers them.
std::vector<const std::string*> markedQuizTexts(const QuizCellSpec& quiz);

// The lesson's bytes as the live page carries them: every author's note (HTML comment) in
// prose and in cells blanked to spaces, lines and columns kept (html_comments.h), so that what
// is not for students is not in the page's source either.
std::string liveLessonSource(const Document& document);

} // namespace attnbook
