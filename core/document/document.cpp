#include "core/document/document.h"
#include "core/document/lesson_format_version.h"
#include "core/document/markdown_headings.h"

#include "core/document/text_scan.h"

#include <cmark.h>

#include <filesystem>

#include <algorithm>
#include <memory>

namespace attnbook {

const char* cellKindName(CellKind kind) {
    switch (kind) {
    case CellKind::Attention:
        return "attention";
    case CellKind::Quiz:
        return "quiz";
    case CellKind::Chart:
        return "chart";
    case CellKind::Transformer:
        return "transformer";
    }
    return "";
}

std::optional<CellKind> cellKindFromName(std::string_view name) {
    for (CellKind kind :
         {CellKind::Attention, CellKind::Quiz, CellKind::Chart, CellKind::Transformer}) {
        if (name == cellKindName(kind)) {
            return kind;
        }
    }
    return std::nullopt;
}

bool isValidCellId(std::string_view id) {
    return isPlainName(id, "-");
}

std::string Document::title() const {
    const std::string fromFrontMatter = frontMatterValue("title");
    if (!fromFrontMatter.empty()) {
        return fromFrontMatter;
    }
    if (!firstHeading.empty()) {
        return firstHeading;
    }
    return std::filesystem::path(path).stem().string();
}

std::string Document::frontMatterValue(const std::string& key) const {
    const YamlNode* value = frontMatter.values.find(key);
    return value && value->isScalar() ? value->scalar : std::string();
}

CellBlock* Document::findCell(const std::string& id) {
    for (Segment& segment : segments) {
        if (segment.isCell() && segment.cell().id == id) {
            return &segment.cell();
        }
    }
    return nullptr;
}

const CellBlock* Document::findCell(const std::string& id) const {
    return const_cast<Document*>(this)->findCell(id);
}

std::vector<const CellBlock*> Document::cells() const {
    std::vector<const CellBlock*> out;
    for (const Segment& segment : segments) {
        if (segment.isCell()) {
            out.push_back(&segment.cell());
        }
    }
    return out;
}

std::string Document::serialize() const {
    std::string out;
    if (hadByteOrderMark) {
        out += "\xEF\xBB\xBF";
    }
    out += frontMatter.raw;
    for (const Segment& segment : segments) {
        if (segment.isCell()) {
            const CellBlock& cell = segment.cell();
            out += cell.openFence;
            out += cell.body;
            out += cell.closeFence;
        } else {
            out += segment.prose().text;
        }
    }
    return out;
}

void Document::setCellBody(const std::string& id, std::string body) {
    if (CellBlock* cell = findCell(id)) {
        cell->body = std::move(body);
        cell->edited = true;
    }
}

namespace {

std::string_view trimRight(std::string_view s) {
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) {
        s.remove_suffix(1);
    }
    return s;
}

struct Fence {
    int indent = 0;
    char marker = '`';
    int length = 0;
    std::string_view info;
};

// The opening fence of a line, by CommonMark's rules: up to three spaces, then
// three or more backticks or tildes.
std::optional<Fence> openingFence(std::string_view line) {
    Fence fence;
    while (fence.indent < int(line.size()) && line[size_t(fence.indent)] == ' ') {
        ++fence.indent;
    }
    if (fence.indent > 3 || size_t(fence.indent) >= line.size()) {
        return std::nullopt;
    }
    fence.marker = line[size_t(fence.indent)];
    if (fence.marker != '`' && fence.marker != '~') {
        return std::nullopt;
    }
    size_t i = size_t(fence.indent);
    while (i < line.size() && line[i] == fence.marker) {
        ++i;
    }
    fence.length = int(i - size_t(fence.indent));
    if (fence.length < 3) {
        return std::nullopt;
    }
    std::string_view info = line.substr(i);
    while (!info.empty() && (info.front() == ' ' || info.front() == '\t')) {
        info.remove_prefix(1);
    }
    fence.info = trimRight(info);
    return fence;
}

bool closesFence(std::string_view line, const Fence& open) {
    size_t i = 0;
    while (i < line.size() && i < 4 && line[i] == ' ') {
        ++i;
    }
    if (i > 3) {
        return false;
    }
    size_t run = 0;
    while (i < line.size() && line[i] == open.marker) {
        ++i, ++run;
    }
    return int(run) >= open.length && trimRight(line.substr(i)).empty();
}

std::vector<std::string_view> words(std::string_view s) {
    std::vector<std::string_view> out;
    size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) {
            ++i;
        }
        const size_t start = i;
        while (i < s.size() && s[i] != ' ' && s[i] != '\t') {
            ++i;
        }
        if (i > start) {
            out.push_back(s.substr(start, i - start));
        }
    }
    return out;
}

// The front matter: a `---` first line, up to the next `---` or `...` line.
int frontMatterEnd(const SourceText& text) {
    if (text.bytes().empty() || trimRight(text.lineText(1)) != "---") {
        return 0;
    }
    for (int line = 2; line <= text.lineCount(); ++line) {
        const std::string_view l = trimRight(text.lineText(line));
        if (l == "---" || l == "...") {
            return line;
        }
    }
    return -1;
}

struct FoundCell {
    CellBlock cell;
    int lastLine = 0; // the closing fence, or the file's last line when unclosed
};

using Diagnostics = std::vector<Diagnostic>;

// Reads the front matter into `doc` and returns the file's bytes with it blanked out
// (keeping its lines, so cmark's line numbers stay the file's) for the Markdown parser.
std::string readFrontMatter(const SourceText& text, Document& doc, Diagnostics& diagnostics) {
    std::string markdown = text.bytes();
    const int matterEnd = frontMatterEnd(text);
    if (matterEnd < 0) {
        diagnostics.push_back(
            {Severity::Error, 1, 1, "the front matter opened here is never closed with '---'", ""});
        return markdown;
    }
    if (matterEnd == 0) {
        return markdown;
    }
    const size_t end = text.offsetOfLine(matterEnd + 1);
    doc.frontMatter.raw = text.bytes().substr(0, end);
    doc.frontMatter.lineCount = matterEnd;
    const size_t bodyStart = text.offsetOfLine(2);
    const size_t bodyEnd = text.offsetOfLine(matterEnd);
    try {
        doc.frontMatter.values = parseYaml(text.bytes().substr(bodyStart, bodyEnd - bodyStart), 2);
        if (!doc.frontMatter.values.isNull() && !doc.frontMatter.values.isMap()) {
            diagnostics.push_back(
                {Severity::Error, 2, 1, "the front matter must be a map of keys (title: ...)", ""});
        }
        if (std::optional<Diagnostic> newer = lessonFormatProblem(doc.frontMatter.values)) {
            diagnostics.push_back(std::move(*newer));
        }
    } catch (const YamlError& e) {
        diagnostics.push_back({Severity::Error, e.at.line, e.at.column, e.what(), ""});
    }
    for (size_t i = 0; i < end; ++i) {
        if (markdown[i] != '\n' && markdown[i] != '\r') {
            markdown[i] = ' ';
        }
    }
    return markdown;
}

// The cell's id from the words of its fence's info string (`info[0]` is the kind), with a
// problem for a missing or invalid id and for words after it.
void readCellId(CellBlock& cell, const std::vector<std::string_view>& info,
                std::string_view openLine, Diagnostics& diagnostics) {
    const int first = cell.openLine;
    const int idColumn =
        int(info.size() > 1 ? info[1].data() - openLine.data() : openLine.size()) + 1;
    if (info.size() < 2) {
        diagnostics.push_back({Severity::Error, first, idColumn,
                               std::string("this ") + cellKindName(cell.kind) +
                                   " cell needs an id: ```" + cellKindName(cell.kind) + " NAME",
                               ""});
        return;
    }
    cell.id = std::string(info[1]);
    if (!isValidCellId(cell.id)) {
        diagnostics.push_back({Severity::Error, first, idColumn,
                               "'" + cell.id +
                                   "' is not a valid cell id: start with a letter or _, "
                                   "then letters, digits, _ or -",
                               cell.id});
    }
    if (info.size() > 2) {
        const int column = int(info[2].data() - openLine.data()) + 1;
        diagnostics.push_back({Severity::Error, first, column,
                               "unexpected '" + std::string(info[2]) + "' after the cell id",
                               cell.id});
    }
}

// The cell that the code block `node` opens, or nullopt when it is a plain code block (kept
// in doc.codeBlocks) or a cell in the wrong place (a problem).
std::optional<FoundCell> cellOfCodeBlock(cmark_node* node, const cmark_node* root,
                                         const SourceText& text, Document& doc,
                                         Diagnostics& diagnostics) {
    const int first = cmark_node_get_start_line(node);
    const int last = cmark_node_get_end_line(node);
    const std::optional<Fence> fence =
        first >= 1 && first <= text.lineCount() ? openingFence(text.lineText(first)) : std::nullopt;
    const std::vector<std::string_view> info = fence ? words(fence->info) : words("");
    const std::optional<CellKind> kind =
        info.empty() ? std::nullopt : cellKindFromName(info.front());
    if (!kind) {
        doc.codeBlocks.push_back({first, last});
        return std::nullopt;
    }
    if (cmark_node_parent(node) != root) {
        diagnostics.push_back({Severity::Error, first, fence->indent + 1,
                               "a cell must stand on its own, not inside a list or a quote", ""});
        doc.codeBlocks.push_back({first, last});
        return std::nullopt;
    }
    FoundCell f;
    CellBlock& cell = f.cell;
    cell.kind = *kind;
    cell.openLine = first;
    cell.bodyFirstLine = first + 1;
    cell.indent = fence->indent;
    readCellId(cell, info, text.lineText(first), diagnostics);
    cell.closed = last > first && closesFence(text.lineText(last), *fence);
    if (!cell.closed) {
        diagnostics.push_back({Severity::Error, first, fence->indent + 1,
                               "this cell's fence is never closed", cell.id});
    }
    f.lastLine = cell.closed ? last : text.lineCount();
    return f;
}

// The cells of the parsed Markdown, in file order; the first level-1 heading goes to `doc`.
std::vector<FoundCell> findCells(cmark_node* root, const SourceText& text, Document& doc,
                                 Diagnostics& diagnostics) {
    std::vector<FoundCell> found;
    cmark_iter* iter = cmark_iter_new(root);
    cmark_event_type event;
    while ((event = cmark_iter_next(iter)) != CMARK_EVENT_DONE) {
        cmark_node* node = cmark_iter_get_node(iter);
        if (event != CMARK_EVENT_ENTER) {
            continue;
        }
        const cmark_node_type type = cmark_node_get_type(node);
        if (type == CMARK_NODE_HEADING && cmark_node_get_heading_level(node) == 1 &&
            doc.firstHeading.empty()) {
            doc.firstHeading = cmarkHeadingText(node);
        }
        if (type == CMARK_NODE_CODE_BLOCK) {
            if (std::optional<FoundCell> f = cellOfCodeBlock(node, root, text, doc, diagnostics)) {
                found.push_back(std::move(*f));
            }
        }
    }
    cmark_iter_free(iter);
    return found;
}

// Cuts the bytes after the front matter into segments that cover the file exactly: prose
// between the cells, and each cell's fences and body. A repeated id is a problem.
void cutIntoSegments(const SourceText& text, std::vector<FoundCell>& found, Document& doc,
                     Diagnostics& diagnostics) {
    const std::string& bytes = text.bytes();
    size_t cursor = doc.frontMatter.raw.size();
    int cursorLine = doc.frontMatter.lineCount + 1;
    std::vector<std::string> seenIds;
    for (FoundCell& f : found) {
        CellBlock& cell = f.cell;
        const size_t open = text.offsetOfLine(cell.openLine);
        if (open > cursor) {
            doc.segments.push_back({ProseBlock{cursorLine, bytes.substr(cursor, open - cursor)}});
        }
        const size_t bodyStart = text.offsetOfLine(cell.openLine + 1);
        const size_t closeStart = cell.closed ? text.offsetOfLine(f.lastLine) : bytes.size();
        const size_t end = text.offsetOfLine(f.lastLine + 1);
        cell.openFence = bytes.substr(open, bodyStart - open);
        cell.body = bytes.substr(bodyStart, std::max(closeStart, bodyStart) - bodyStart);
        cell.closeFence = cell.closed ? bytes.substr(closeStart, end - closeStart) : "";
        if (!cell.id.empty()) {
            if (std::find(seenIds.begin(), seenIds.end(), cell.id) != seenIds.end()) {
                const CellBlock* earlier = doc.findCell(cell.id);
                diagnostics.push_back({Severity::Error, cell.openLine, 1,
                                       "duplicate cell id '" + cell.id + "' (also at line " +
                                           std::to_string(earlier ? earlier->openLine : 0) + ")",
                                       cell.id});
            }
            seenIds.push_back(cell.id);
        }
        cursor = std::max(end, bodyStart);
        cursorLine = f.lastLine + 1;
        doc.segments.push_back({std::move(cell)});
    }
    if (cursor < bytes.size()) {
        doc.segments.push_back({ProseBlock{cursorLine, bytes.substr(cursor)}});
    }
}

} // namespace

ParsedDocument parseDocument(const SourceText& text, const std::string& path) {
    ParsedDocument parsed;
    Document& doc = parsed.document;
    doc.path = path;
    doc.hadByteOrderMark = text.hadByteOrderMark();
    doc.lineEnding = text.lineEnding();
    std::string markdown = readFrontMatter(text, doc, parsed.diagnostics);
    std::unique_ptr<cmark_node, decltype(&cmark_node_free)> root(
        cmark_parse_document(markdown.data(), markdown.size(), CMARK_OPT_DEFAULT),
        &cmark_node_free);
    std::vector<FoundCell> found = findCells(root.get(), text, doc, parsed.diagnostics);
    cutIntoSegments(text, found, doc, parsed.diagnostics);
    return parsed;
}

} // namespace attnbook
