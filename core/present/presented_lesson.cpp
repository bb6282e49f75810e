#include "core/present/presented_lesson.h"

#include "core/document/bindings.h"
#include "core/document/html_comments.h"
#include "core/present/bound_markdown.h"
#include "core/present/prose_rows.h"

#include <set>

namespace attnbook {

namespace {

// The bindings of `pieces` inside an author's note of `text`: they leave with the note, and
// take no live mark (live_marks.h).
std::set<const Binding*> bindingsInNotes(std::string_view text,
                                         const std::vector<ProsePiece>& pieces) {
    std::set<const Binding*> inNotes;
    for (const TextSpan& note : htmlCommentSpans(text)) {
        for (const ProsePiece& piece : pieces) {
            if (piece.kind == ProsePiece::Kind::Binding && piece.offset >= note.begin &&
                piece.offset < note.end) {
                inNotes.insert(&piece.binding);
            }
        }
    }
    return inNotes;
}

} // namespace

std::string presentedProse(std::string_view text, int firstLine, const Document& document,
                           const LessonResults& results, LiveMarkCounter* marks) {
    // The bindings are found in the text as written (their lines keep the document's code
    // blocks apart), and the notes go afterwards: a binding inside a note goes with it.
    const std::vector<ProsePiece> pieces = scanProse(text, firstLine, 1, document.codeBlocks);
    const std::set<const Binding*> inNotes =
        marks ? bindingsInNotes(text, pieces) : std::set<const Binding*>();
    const auto marked = [&](const Binding& binding) { return marks && !inNotes.count(&binding); };
    const std::string bound = substituteBindings(
        text, pieces,
        [&](const Binding& binding) -> std::optional<std::string> {
            const int number = marked(binding) ? marks->values++ : -1;
            const std::optional<std::string> value = results.boundText(binding);
            if (!value) {
                return std::nullopt;
            }
            return number >= 0 ? markedValue(number, escapeMarkdown(*value))
                               : escapeMarkdown(*value);
        },
        [&](const Binding& claim) {
            return marked(claim) ? markedClaim(marks->claims++) : std::string();
        });
    return withoutHtmlComments(bound);
}

PresentedLesson presentLesson(const Lesson& lesson, const LessonResults& results,
                              ProseMarks marks) {
    const Document& document = lesson.document;
    PresentedLesson presented;
    LiveMarkCounter counter;
    LiveMarkCounter* const counting = marks == ProseMarks::Live ? &counter : nullptr;
    presented.title.title = document.frontMatterValue("title");
    presented.title.subtitle = document.frontMatterValue("subtitle");
    for (const char* key : {"author", "date"}) {
        if (std::string value = document.frontMatterValue(key); !value.empty()) {
            presented.title.byline.push_back(std::move(value));
        }
    }
    int question = 0;
    presented.parts.reserve(document.segments.size());
    for (const Segment& segment : document.segments) {
        if (!segment.isCell()) {
            const ProseBlock& prose = segment.prose();
            std::string markdown =
                presentedProse(prose.text, prose.firstLine, document, results, counting);
            std::vector<MarkdownHeading> headings = markdownHeadings(markdown);
            for (MarkdownHeading& heading : headings) {
                heading.text = withoutLiveMarks(heading.text); // an outline wants the words
            }
            presented.parts.push_back(
                {PresentedProse{std::move(markdown), &prose, std::move(headings)}});
            continue;
        }
        const LessonCell* cell = lesson.cell(segment.cell().id);
        if (!cell) {
            continue; // a cell that did not read (its errors say why): nothing to show
        }
        PresentedCell shown{cell, results.cell(cell->id), cell->quiz() ? ++question : 0, {}};
        presented.parts.push_back({shown});
    }
    // The quizzes' words, their marks numbered on after the prose's (live_marks.h).
    for (PresentedPart& part : presented.parts) {
        if (!part.isCell() || !part.cell().cell->quiz()) {
            continue;
        }
        PresentedCell& shown = std::get<PresentedCell>(part.content);
        const std::vector<const std::string*> texts = markedQuizTexts(*shown.cell->quiz());
        shown.quiz.question = boundMarkdown(*texts.front(), results, counting);
        for (size_t i = 1; i + 1 < texts.size(); ++i) {
            shown.quiz.choices.push_back(boundMarkdown(*texts[i], results, counting));
        }
        shown.quiz.explain = boundMarkdown(*texts.back(), results, counting);
    }
    return presented;
}

std::map<std::string, std::string> sectionOfEachCell(const PresentedLesson& presented) {
    std::map<std::string, std::string> sections;
    std::string current;
    for (const PresentedPart& part : presented.parts) {
        if (part.isCell()) {
            sections[part.cell().cell->id] = current;
        } else if (!part.prose().headings.empty()) {
            current = part.prose().headings.back().text;
        }
    }
    return sections;
}

} // namespace attnbook
