#pragma once
// A lesson file as an exact sequence of byte ranges: front matter, prose and
// cells. Writing it back joins the same bytes, so a document saved without
// edits is unchanged, and an edited cell rewrites only its own body lines
// (docs/lesson-format.md). Fences are found by cmark, a CommonMark parser.

#include "core/document/diagnostic.h"
#include "core/document/source_text.h"
#include "core/document/yaml_tree.h"

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace attnbook {

enum class CellKind { Attention, Quiz, Chart, Transformer };
const char* cellKindName(CellKind kind);
std::optional<CellKind> cellKindFromName(std::string_view name);

struct ProseBlock {
    int firstLine = 1;
    std::string text; // exact bytes, line ends included
};

struct CellBlock {
    CellKind kind = CellKind::Attention;
    std::string id;
    int openLine = 0;       // the opening fence
    int bodyFirstLine = 0;  // first line of the YAML body
    int indent = 0;         // columns the fence is indented by
    std::string openFence;  // exact bytes of the opening line, line end included
    std::string body;       // exact bytes of the body lines, line ends included
    std::string closeFence; // exact bytes of the closing line ("" when never closed)
    bool closed = true;
    bool edited = false;
};

struct FrontMatter {
    std::string raw; // the `---` block with its line ends, "" when absent
    YamlNode values;
    int lineCount = 0;
};

struct Segment {
    std::variant<ProseBlock, CellBlock> block;
    bool isCell() const { return std::holds_alternative<CellBlock>(block); }
    const CellBlock& cell() const { return std::get<CellBlock>(block); }
    CellBlock& cell() { return std::get<CellBlock>(block); }
    const ProseBlock& prose() const { return std::get<ProseBlock>(block); }
};

// Lines [first, last] of an ordinary code block: bindings are not replaced there.
struct LineRange {
    int first = 0;
    int last = 0;
};

class Document {
  public:
    std::string path;
    bool hadByteOrderMark = false;
    std::string lineEnding = "\n";
    FrontMatter frontMatter;
    std::vector<Segment> segments;
    std::vector<LineRange> codeBlocks;
    std::string firstHeading; // text of the first level-1 heading

    std::string title() const; // front matter title, else first heading, else base name
    std::string frontMatterValue(const std::string& key) const;

    CellBlock* findCell(const std::string& id);
    const CellBlock* findCell(const std::string& id) const;
    std::vector<const CellBlock*> cells() const;

    // The file's bytes: what was read, with edited cells' bodies replaced.
    std::string serialize() const;
    // Replaces a cell's body (YAML text, line ends as the document's). The
    // caller keeps it valid; `body` must be empty or end with a line end.
    void setCellBody(const std::string& id, std::string body);
};

struct ParsedDocument {
    Document document;
    std::vector<Diagnostic> diagnostics;
};

// Splits a lesson into front matter, prose and cells. Structural problems
// (an unclosed or nested cell fence, a bad or duplicate id, broken front
// matter) become diagnostics; the rest of the document is still returned.
ParsedDocument parseDocument(const SourceText& text, const std::string& path);

bool isValidCellId(std::string_view id);

} // namespace attnbook
