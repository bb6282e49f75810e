#include "core/document/cell_rename.h"

#include "core/document/bindings.h"

namespace attnbook {
namespace {

// `text` with the bindings that start with `oldId` renamed.
std::string renameInText(const std::string& text, int firstLine,
                         const std::vector<LineRange>& codeLines, const std::string& oldId,
                         const std::string& newId) {
    std::string out;
    for (const ProsePiece& piece : scanProse(text, firstLine, 1, codeLines)) {
        std::string raw = text.substr(piece.offset, piece.length);
        if (piece.kind == ProsePiece::Kind::Binding) {
            // Back to front, so the offsets of the paths before stay valid.
            const std::vector<BindingPath>& paths = piece.binding.paths;
            for (auto path = paths.rbegin(); path != paths.rend(); ++path) {
                if (path->cellId == oldId) {
                    raw.replace(2 + path->offset, oldId.size(), newId); // "{{" + inner + "}}"
                }
            }
        }
        out += raw;
    }
    return out;
}

} // namespace

std::optional<std::string> renameCell(Document& document, const std::string& oldId,
                                      const std::string& newId) {
    CellBlock* cell = document.findCell(oldId);
    if (!cell) {
        return "there is no cell '" + oldId + "'";
    }
    if (!isValidCellId(newId)) {
        return "'" + newId +
               "' is not a valid cell id: start with a letter or _, then letters, "
               "digits, _ or -";
    }
    if (newId != oldId && document.findCell(newId)) {
        return "there is already a cell '" + newId + "'";
    }
    // The fence line: "```attention old" → "```attention new", keeping the rest.
    const std::string kind = cellKindName(cell->kind);
    const size_t kindAt = cell->openFence.find(kind);
    const size_t idAt = cell->openFence.find(oldId, kindAt + kind.size());
    if (kindAt == std::string::npos || idAt == std::string::npos) {
        return std::string("the cell's fence line is not as expected");
    }
    cell->openFence.replace(idAt, oldId.size(), newId);
    cell->id = newId;
    cell->edited = true;

    for (Segment& segment : document.segments) {
        if (segment.isCell()) {
            CellBlock& other = segment.cell();
            // Quiz text and binding answers live in cell bodies.
            const std::string renamed =
                renameInText(other.body, other.bodyFirstLine, {}, oldId, newId);
            if (renamed != other.body) {
                other.body = renamed;
                other.edited = true;
            }
        } else {
            ProseBlock& prose = std::get<ProseBlock>(segment.block);
            prose.text =
                renameInText(prose.text, prose.firstLine, document.codeBlocks, oldId, newId);
        }
    }
    return std::nullopt;
}

} // namespace attnbook
