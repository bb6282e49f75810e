#include "app/models/prose_rows.h"

#include "core/document/text_scan.h"

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

// The heading's words without Markdown marks, for the outline.
std::string plainTitle(std::string title) {
    std::string out;
    for (char c : title) {
        if (c != '*' && c != '`' && c != '_') {
            out += c;
        }
    }
    return out;
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
    while (start < block.text.size()) {
        size_t end = block.text.find('\n', start);
        end = end == std::string::npos ? block.text.size() : end + 1;
        const std::string lineText = block.text.substr(start, end - start);
        const std::string bare =
            lineText.back() == '\n' ? lineText.substr(0, lineText.size() - 1) : lineText;
        std::string_view title;
        const int level = inCode(line, codeLines) ? 0 : atxHeading(bare, title);
        if (level > 0) {
            if (!current.text.empty()) {
                finish(line - 1);
            }
            current.firstLine = line;
            current.headingLevel = level;
            current.headingTitle = plainTitle(std::string(title));
        }
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
