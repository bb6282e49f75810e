#include "core/present/prose_rows.h"

#include "core/document/markdown_headings.h"
#include "core/document/sample_answers.h"
#include "core/document/text_scan.h"

#include <map>
#include <string_view>

namespace attnbook {
namespace {

bool inCode(int line, const std::vector<LineRange>& codeLines) {
    for (const LineRange& range : codeLines) {
        if (line >= range.first && line <= range.last) {
            return true;
        }
    }
    return false;
}

bool isBlank(const std::string& text) {
    return text.find_first_not_of(" \t\r\n") == std::string::npos;
}

// Whether a piece may start at `bare`, a line after a blank line: a plain paragraph, one
// that continues nothing above it. Not an indented line (a list item's paragraph, code), a
// list item (its number or bullet belongs to the list above), a quote, a table, HTML, a
// link definition or a code fence.
bool startsPlainParagraph(const std::string& bare) {
    if (bare.empty() || bare[0] == ' ' || bare[0] == '\t') {
        return false;
    }
    const std::string_view marks = "-*+>|<[:=`~";
    if (marks.find(bare[0]) != std::string_view::npos) {
        return false;
    }
    size_t digits = 0;
    while (digits < bare.size() && digits < 10 && bare[digits] >= '0' && bare[digits] <= '9') {
        ++digits;
    }
    return digits == 0 || digits >= bare.size() || (bare[digits] != '.' && bare[digits] != ')');
}

// The number of times `needle` occurs in `text`.
int occurrences(const std::string& text, std::string_view needle) {
    int count = 0;
    for (size_t at = text.find(needle); at != std::string::npos;
         at = text.find(needle, at + needle.size())) {
        ++count;
    }
    return count;
}

} // namespace

int lineCount(const std::string& text) {
    int lines = 0;
    for (char c : text) {
        lines += c == '\n';
    }
    return lines + (!text.empty() && text.back() != '\n' ? 1 : 0);
}

std::vector<ProsePieceRow> splitProse(const ProseBlock& block,
                                      const std::vector<LineRange>& codeLines) {
    std::vector<ProsePieceRow> rows;
    // The headings by the one rule every reader's headings follow (markdown_headings.h), by the
    // line of the lesson each starts on: ATX and setext alike, none inside code or a comment.
    std::map<int, MarkdownHeading> headingAt;
    for (MarkdownHeading& heading : markdownHeadings(block.text)) {
        headingAt[block.firstLine + heading.line - 1] = std::move(heading);
    }
    ProsePieceRow current;
    current.firstLine = block.firstLine;
    int line = block.firstLine;
    size_t start = 0;
    const auto finish = [&](int lastLine) {
        current.lastLine = lastLine;
        if (!isBlank(current.text)) {
            current.pieces = scanProse(current.text, current.firstLine, 1, codeLines);
            for (const ProsePiece& p : current.pieces) {
                if (p.kind == ProsePiece::Kind::Binding) {
                    for (const BindingPath& path : p.binding.paths) {
                        current.boundCells.insert(path.cellId);
                    }
                }
            }
            rows.push_back(std::move(current));
        }
        current = ProsePieceRow{};
    };
    bool afterBlank = false;
    bool inAnswer = false; // from a paragraph that names a sample answer to the next heading
    int openComments = 0;  // HTML comments opened and not closed in this piece
    while (start < block.text.size()) {
        size_t end = block.text.find('\n', start);
        end = end == std::string::npos ? block.text.size() : end + 1;
        const std::string lineText = block.text.substr(start, end - start);
        const std::string bare =
            lineText.back() == '\n' ? lineText.substr(0, lineText.size() - 1) : lineText;
        const bool code = inCode(line, codeLines);
        const auto heading = headingAt.find(line);
        const int level = heading == headingAt.end() ? 0 : heading->second.level;
        const bool paragraphStarts =
            (afterBlank || current.text.empty()) && !code && openComments <= 0;
        if (level > 0) {
            if (!current.text.empty()) {
                finish(line - 1);
            }
            current.firstLine = line;
            current.headingLevel = level;
            current.headingTitle = heading->second.text;
            openComments = 0;
            inAnswer = false;
        } else if (!inAnswer && paragraphStarts && namesSampleAnswer(bare)) {
            if (!current.text.empty()) {
                finish(line - 1);
            }
            current.firstLine = line;
            inAnswer = true;
        } else if (current.text.size() >= kLongProseBytes && paragraphStarts &&
                   startsPlainParagraph(bare)) {
            finish(line - 1);
            current.firstLine = line;
            openComments = 0;
        }
        current.sampleAnswer = inAnswer;
        if (!code) {
            openComments += occurrences(bare, "<!--") - occurrences(bare, "-->");
        }
        afterBlank = isBlank(lineText);
        current.text += lineText;
        start = end;
        ++line;
    }
    if (!current.text.empty()) {
        finish(line - 1);
    }
    return rows;
}

std::string escapeMarkdown(const std::string& text) {
    std::string out;
    out.reserve(text.size() + 8);
    for (char c : text) {
        if (c == '[' || c == ']' || c == '*' || c == '_' || c == '\\' || c == '`' || c == '<') {
            out += '\\';
        }
        out += c;
    }
    return out;
}

} // namespace attnbook
