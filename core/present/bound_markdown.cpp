#include "core/present/bound_markdown.h"

#include "core/document/html_comments.h"
#include "core/present/prose_rows.h"

namespace attnbook {

std::string boundMarkdown(const std::string& text, const LessonResults& results,
                          LiveMarkCounter* marks) {
    const std::string noNotes = withoutHtmlComments(text);
    const std::vector<ProsePiece> pieces = scanProse(noNotes, 1);
    return substituteBindings(
        noNotes, pieces,
        [&](const Binding& binding) -> std::optional<std::string> {
            const int number = marks ? marks->values++ : -1;
            const std::optional<std::string> value = results.boundText(binding);
            if (!value) {
                return std::nullopt;
            }
            return number >= 0 ? markedValue(number, escapeMarkdown(*value))
                               : escapeMarkdown(*value);
        },
        [&](const Binding&) { return marks ? markedClaim(marks->claims++) : std::string(); });
}

} // namespace attnbook
