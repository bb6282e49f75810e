#include "core/live/prose_check.h"

#include "core/document/bindings.h"

namespace attnbook {

std::string proseBindingProblem(std::string_view markdown, const LessonResults& results) {
    for (const ProsePiece& piece : scanProse(markdown, 1)) {
        std::string why;
        if (piece.kind == ProsePiece::Kind::Malformed) {
            why = piece.error;
        } else if (piece.kind == ProsePiece::Kind::Unclosed) {
            why = "no closing }}";
        } else if (piece.kind == ProsePiece::Kind::Binding) {
            why = results.value(piece.binding).error;
        }
        if (!why.empty()) {
            const std::string written(
                markdown.substr(piece.offset, std::min<size_t>(piece.length, 80)));
            return "line " + std::to_string(piece.line) + ", column " +
                   std::to_string(piece.column) + ": " + written + ": " + why;
        }
    }
    return {};
}

} // namespace attnbook
