#include "core/present/presented_lesson.h"

#include "core/document/bindings.h"
#include "core/document/html_comments.h"
#include "core/present/prose_rows.h"

namespace attnbook {

std::string presentedProse(std::string_view text, int firstLine, const Document& document,
                           const LessonResults& results) {
    // The bindings are found in the text as written (their lines keep the document's code
    // blocks apart), and the notes go afterwards: a binding inside a note goes with it.
    const std::vector<ProsePiece> pieces = scanProse(text, firstLine, 1, document.codeBlocks);
    const std::string bound =
        substituteBindings(text, pieces, [&](const Binding& binding) -> std::optional<std::string> {
            const std::optional<std::string> value = results.boundText(binding);
            return value ? std::optional(escapeMarkdown(*value)) : std::nullopt;
        });
    return withoutHtmlComments(bound);
}

PresentedLesson presentLesson(const Lesson& lesson, const LessonResults& results) {
    const Document& document = lesson.document;
    PresentedLesson presented;
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
            std::string markdown = presentedProse(prose.text, prose.firstLine, document, results);
            std::vector<MarkdownHeading> headings = markdownHeadings(markdown);
            presented.parts.push_back(
                {PresentedProse{std::move(markdown), &prose, std::move(headings)}});
            continue;
        }
        const LessonCell* cell = lesson.cell(segment.cell().id);
        if (!cell) {
            continue; // a cell that did not read (its errors say why): nothing to show
        }
        PresentedCell shown{cell, results.cell(cell->id), cell->quiz() ? ++question : 0};
        presented.parts.push_back({shown});
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
