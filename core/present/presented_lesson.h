#pragma once
// What every reader of a lesson is shown, in the lesson's order (docs/architecture.md,
// "core/present"): the title block, then each part of the lesson — prose with every binding
// replaced by its value and the author's notes (HTML comments) taken out, and each cell joined
// to its result, its quizzes numbered from 1. The web page, the PDF and the notebook read these
// parts and only paint them; none of them walks the document on its own.
//
// A bound value is escaped for Markdown (escapeMarkdown), as the window escapes it, so that a
// token `*cat*` or `<eos>` shows as written whatever the renderer makes of the Markdown.
// The parts point into the lesson and its results, which must outlive them.

#include "core/document/lesson.h"
#include "core/document/markdown_headings.h"
#include "core/present/live_marks.h"

#include <map>
#include <string>
#include <variant>
#include <vector>

namespace attnbook {

// The front matter's title block; empty when it gives none of these.
struct PresentedTitle {
    std::string title;
    std::string subtitle;
    std::vector<std::string> byline; // the author and the date, those given, in that order

    bool empty() const { return title.empty() && subtitle.empty() && byline.empty(); }
};

struct PresentedProse {
    std::string markdown;                  // bindings replaced (escaped), notes out
    const ProseBlock* source = nullptr;    // the block it comes from, for its lines
    std::vector<MarkdownHeading> headings; // in `markdown` (markdown_headings.h)
};

// A quiz's words as a reader sees them (bound_markdown.h); with ProseMarks::Live each value and
// claim marked, numbered on after the whole prose's (numberedProsePieces of a Lesson).
struct PresentedQuizText {
    std::string question;
    std::vector<std::string> choices;
    std::string explain;
};

struct PresentedCell {
    const LessonCell* cell = nullptr;
    const ComputedCell* computed = nullptr; // nullptr when the lesson has no result for it
    int question = 0;                       // a quiz's number from 1; 0 for any other cell
    PresentedQuizText quiz;                 // a quiz's words; empty for any other cell
};

struct PresentedPart {
    std::variant<PresentedProse, PresentedCell> content;

    bool isCell() const { return std::holds_alternative<PresentedCell>(content); }
    const PresentedProse& prose() const { return std::get<PresentedProse>(content); }
    const PresentedCell& cell() const { return std::get<PresentedCell>(content); }
};

struct PresentedLesson {
    PresentedTitle title;
    std::vector<PresentedPart> parts; // in order: every prose block and every cell that read
};

// Marks::Live marks every bound value and claim of the prose for the live web page
// (live_marks.h); the other readers want none.
enum class ProseMarks { None, Live };

PresentedLesson presentLesson(const Lesson& lesson, const LessonResults& results,
                              ProseMarks marks = ProseMarks::None);

// The heading each cell is under: the last heading of any level above it, "" when none is
// (the worksheet names each exercise after it).
std::map<std::string, std::string> sectionOfEachCell(const PresentedLesson& presented);

// TEXT (prose lines starting at FIRSTLINE of the lesson) as a reader sees it: each binding
// replaced by its value escaped for Markdown (one that cannot be resolved shows as written),
// each claim showing nothing, and the author's notes left out. presentLesson applies it to
// every prose part; the notebook, which cuts prose further (by lines), to its pieces. With
// `marks`, each value and claim is marked and numbered on from the counter (live_marks.h).
std::string presentedProse(std::string_view text, int firstLine, const Document& document,
                           const LessonResults& results, LiveMarkCounter* marks = nullptr);

} // namespace attnbook
