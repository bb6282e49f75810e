#include "core/present/bound_markdown.h"

#include "core/document/html_comments.h"
#include "core/present/prose_rows.h"

namespace attnbook {

std::string boundMarkdown(const std::string& text, const LessonResults& results) {
    const std::string noNotes = withoutHtmlComments(text);
    const std::vector<ProsePiece> pieces = scanProse(noNotes, 1);
    return substituteBindings(
        noNotes, pieces, [&](const Binding& binding) -> std::optional<std::string> {
            const std::optional<std::string> value = results.boundText(binding);
            return value ? std::optional(escapeMarkdown(*value)) : std::nullopt;
        });
}

} // namespace attnbook
