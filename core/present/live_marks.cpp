#include "core/present/live_marks.h"

#include "core/document/html_comments.h"

namespace attnbook {

std::string markedValue(int number, const std::string& markdown) {
    std::string out(kValueMarkOpen);
    out += std::to_string(number);
    out += kMarkNumberEnd;
    out += markdown;
    out += kMarkClose;
    return out;
}

std::string markedClaim(int number) {
    std::string out(kClaimMarkOpen);
    out += std::to_string(number);
    out += kMarkClose;
    return out;
}

std::string withoutLiveMarks(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    size_t i = 0;
    while (i < text.size()) {
        const std::string_view rest = text.substr(i);
        if (rest.starts_with(kValueMarkOpen) || rest.starts_with(kClaimMarkOpen)) {
            // the number, up to U+E001 (a value's text follows) or U+E002 (a claim ends)
            i += kValueMarkOpen.size();
            while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
                ++i;
            }
            if (text.substr(i).starts_with(kMarkNumberEnd) ||
                text.substr(i).starts_with(kMarkClose)) {
                i += kMarkNumberEnd.size();
            }
            continue;
        }
        if (rest.starts_with(kMarkClose)) {
            i += kMarkClose.size();
            continue;
        }
        out += text[i++];
    }
    return out;
}

NumberedProse numberedProsePieces(const Document& document) {
    NumberedProse numbered;
    for (const Segment& segment : document.segments) {
        if (!segment.isCell()) {
            const ProseBlock& prose = segment.prose();
            numbered.pieces.push_back(scanProse(blankedHtmlComments(prose.text), prose.firstLine, 1,
                                                document.codeBlocks));
        }
    }
    // Numbered after every list is in place: the pointers stay valid.
    for (const std::vector<ProsePiece>& block : numbered.pieces) {
        for (const ProsePiece& piece : block) {
            if (piece.kind != ProsePiece::Kind::Binding) {
                continue;
            }
            std::vector<NumberedBinding>& list =
                piece.binding.claim ? numbered.claims : numbered.values;
            list.push_back({int(list.size()), &piece.binding, piece.line});
        }
    }
    return numbered;
}

std::string liveLessonSource(const Document& document) {
    Document blanked = document;
    for (Segment& segment : blanked.segments) {
        if (segment.isCell()) {
            CellBlock& cell = std::get<CellBlock>(segment.block);
            cell.body = blankedHtmlComments(cell.body);
        } else {
            ProseBlock& prose = std::get<ProseBlock>(segment.block);
            prose.text = blankedHtmlComments(prose.text);
        }
    }
    return blanked.serialize();
}

} // namespace attnbook
