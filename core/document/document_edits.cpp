#include "core/document/document_edits.h"

#include <algorithm>

namespace attnbook {
namespace {

// `text` with every line end written as the document's own, and a final one.
std::string withLineEnding(const std::string& text, const std::string& lineEnding) {
    std::string out = withLineEnds(text, lineEnding);
    if (!out.empty() &&
        out.compare(out.size() - lineEnding.size(), lineEnding.size(), lineEnding) != 0) {
        out += lineEnding;
    }
    return out;
}

int segmentOf(const Document& document, const std::string& id) {
    for (size_t i = 0; i < document.segments.size(); ++i) {
        if (document.segments[i].isCell() && document.segments[i].cell().id == id) {
            return int(i);
        }
    }
    return -1;
}

bool endsWithBlankLine(const std::string& text) {
    return text.size() >= 2 && text.back() == '\n' &&
           (text[text.size() - 2] == '\n' ||
            (text.size() >= 3 && text[text.size() - 2] == '\r' && text[text.size() - 3] == '\n'));
}

// The bytes before segment `index` end in a blank line (or the file starts there).
bool blankBefore(const Document& document, int index) {
    if (index <= 0) {
        return document.frontMatter.raw.empty() || endsWithBlankLine(document.frontMatter.raw);
    }
    const Segment& previous = document.segments[size_t(index - 1)];
    return previous.isCell() ? false : endsWithBlankLine(previous.prose().text);
}

} // namespace

std::string withLineEnds(const std::string& text, const std::string& lineEnding) {
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
            continue;
        }
        out += text[i] == '\n' ? lineEnding : std::string(1, text[i]);
    }
    return out;
}

std::string textForEditing(const std::string& bytes) {
    std::string out = withLineEnds(bytes, "\n");
    if (!out.empty() && out.back() == '\n') {
        out.pop_back();
    }
    return out;
}

std::string typedCellBody(const std::string& typed, const std::string& lineEnding) {
    std::string body = withLineEnds(typed, lineEnding);
    if (!body.empty()) {
        body += lineEnding; // textForEditing() took off the final line end
    }
    return body;
}

std::string unusedCellId(const Document& document, const std::string& stem) {
    for (int i = 1;; ++i) {
        const std::string id = stem + std::to_string(i);
        if (!document.findCell(id)) {
            return id;
        }
    }
}

std::optional<std::string> insertCell(Document& document, int afterSegment, CellKind kind,
                                      const std::string& id, const std::string& body) {
    if (!isValidCellId(id)) {
        return "'" + id + "' is not a valid cell id";
    }
    if (document.findCell(id)) {
        return "there is already a cell '" + id + "'";
    }
    if (afterSegment < -1 || afterSegment >= int(document.segments.size())) {
        return std::string("no such place in the document");
    }
    const std::string& le = document.lineEnding;
    CellBlock cell;
    cell.kind = kind;
    cell.id = id;
    cell.openFence = std::string("```") + cellKindName(kind) + " " + id + le;
    cell.body = body.empty() ? std::string() : withLineEnding(body, le);
    cell.closeFence = "```" + le;
    cell.edited = true;
    const int at = afterSegment + 1;
    // Blank lines around the new cell, so it never runs into a paragraph.
    std::vector<Segment> inserted;
    if (!blankBefore(document, at)) {
        inserted.push_back({ProseBlock{0, le}});
    }
    inserted.push_back({std::move(cell)});
    inserted.push_back({ProseBlock{0, le}});
    document.segments.insert(document.segments.begin() + at, inserted.begin(), inserted.end());
    return std::nullopt;
}

std::optional<std::string> insertProse(Document& document, int afterSegment,
                                       const std::string& markdown) {
    if (afterSegment < -1 || afterSegment >= int(document.segments.size())) {
        return std::string("no such place in the document");
    }
    const std::string& le = document.lineEnding;
    std::string text = withLineEnding(markdown, le);
    if (!blankBefore(document, afterSegment + 1)) {
        text = le + text;
    }
    text += le;
    document.segments.insert(document.segments.begin() + afterSegment + 1, {ProseBlock{0, text}});
    return std::nullopt;
}

std::optional<std::string> duplicateCell(Document& document, const std::string& id,
                                         const std::string& newId) {
    const int index = segmentOf(document, id);
    if (index < 0) {
        return "there is no cell '" + id + "'";
    }
    const CellBlock original = document.segments[size_t(index)].cell();
    std::string body = original.body;
    return insertCell(document, index, original.kind, newId, body);
}

std::optional<std::string> deleteCell(Document& document, const std::string& id) {
    const int index = segmentOf(document, id);
    if (index < 0) {
        return "there is no cell '" + id + "'";
    }
    document.segments.erase(document.segments.begin() + index);
    // Drop one blank line that set the cell off, so deletes do not pile up gaps.
    if (index < int(document.segments.size()) && !document.segments[size_t(index)].isCell()) {
        std::string& next = std::get<ProseBlock>(document.segments[size_t(index)].block).text;
        const std::string& le = document.lineEnding;
        if (next.compare(0, le.size(), le) == 0 && blankBefore(document, index)) {
            next.erase(0, le.size());
        }
        if (next.empty()) {
            document.segments.erase(document.segments.begin() + index);
        }
    }
    return std::nullopt;
}

std::optional<std::string> moveCell(Document& document, const std::string& id, int direction) {
    const int index = segmentOf(document, id);
    if (index < 0) {
        return "there is no cell '" + id + "'";
    }
    // Skip blank-line-only prose: a move goes past real content.
    const auto isBlank = [](const Segment& s) {
        return !s.isCell() && s.prose().text.find_first_not_of(" \t\r\n") == std::string::npos;
    };
    int target = index + (direction < 0 ? -1 : 1);
    while (target >= 0 && target < int(document.segments.size()) &&
           isBlank(document.segments[size_t(target)])) {
        target += direction < 0 ? -1 : 1;
    }
    if (target < 0 || target >= int(document.segments.size())) {
        return std::string(direction < 0 ? "the cell is already at the top"
                                         : "the cell is already at the bottom");
    }
    // Trading places keeps every byte; a fence may open or close next to a
    // paragraph in CommonMark, so no blank lines need adding.
    std::swap(document.segments[size_t(index)], document.segments[size_t(target)]);
    return std::nullopt;
}

std::optional<std::string> setProseText(Document& document, int segment, std::string markdown) {
    if (segment < 0 || segment >= int(document.segments.size()) ||
        document.segments[size_t(segment)].isCell()) {
        return std::string("no such prose block");
    }
    std::get<ProseBlock>(document.segments[size_t(segment)].block).text =
        withLineEnding(markdown, document.lineEnding);
    return std::nullopt;
}

} // namespace attnbook
