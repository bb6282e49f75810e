#include "core/document/cell_editor.h"

#include "core/document/cell_reader.h"
#include "core/document/json.h"
#include "core/document/text_scan.h"
#include "core/document/yaml_tree.h"

#include <algorithm>
#include <map>

namespace attnbook {
namespace {

std::vector<std::string> splitLines(const std::string& body) {
    std::vector<std::string> lines;
    size_t start = 0;
    while (start < body.size()) {
        size_t end = body.find('\n', start);
        end = end == std::string::npos ? body.size() : end + 1;
        lines.push_back(body.substr(start, end - start));
        start = end;
    }
    return lines;
}

bool isBlankOrComment(const std::string& line) {
    const size_t first = line.find_first_not_of(" \t\r\n");
    return first == std::string::npos || line[first] == '#';
}

struct KeySpan {
    size_t first = 0; // body line index of the key
    size_t end = 0;   // one past its last line
};

// Finds the body lines of each top-level key from the parsed tree's positions.
std::optional<std::string> locateKey(const CellBlock& cell, const std::string& key,
                                     const std::vector<std::string>& lines,
                                     std::optional<KeySpan>& span) {
    std::shared_ptr<const YamlNode> parsed;
    try {
        parsed = parsedYaml(cell.body, cell.bodyFirstLine);
    } catch (const YamlError& e) {
        return "the cell's YAML does not parse (line " + std::to_string(e.at.line) +
               "): " + e.what();
    }
    const YamlNode& body = *parsed;
    if (body.isNull()) {
        return std::nullopt;
    }
    if (!body.isMap()) {
        return std::string("the cell's body is not a map of keys");
    }
    for (size_t i = 0; i < body.entries.size(); ++i) {
        const YamlNode& k = body.entries[i].first;
        if (k.scalar != key) {
            continue;
        }
        if (i + 1 < body.entries.size() && body.entries[i + 1].first.at.line == k.at.line) {
            return std::string("the cell is written as one flow map; edit it by hand");
        }
        KeySpan s;
        s.first = size_t(k.at.line - cell.bodyFirstLine);
        s.end = i + 1 < body.entries.size()
                    ? size_t(body.entries[i + 1].first.at.line - cell.bodyFirstLine)
                    : lines.size();
        // Comments and blank lines before the next key belong to what follows.
        while (s.end > s.first + 1 && isBlankOrComment(lines[s.end - 1])) {
            --s.end;
        }
        span = s;
        return std::nullopt;
    }
    return std::nullopt;
}

std::string keyLines(const CellBlock& cell, const std::string& key, const std::string& value,
                     const std::string& lineEnding) {
    const std::string indent(size_t(cell.indent), ' ');
    std::string trimmed = value;
    while (!trimmed.empty() && (trimmed.back() == '\n' || trimmed.back() == '\r')) {
        trimmed.pop_back();
    }
    if (trimmed.find('\n') == std::string::npos) {
        return indent + key + ": " + trimmed + lineEnding;
    }
    std::string out = indent + key + ":" + lineEnding;
    size_t start = 0;
    while (start <= trimmed.size()) {
        size_t end = trimmed.find('\n', start);
        end = end == std::string::npos ? trimmed.size() : end;
        std::string line = trimmed.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') {
            line.pop_back();
        }
        out += indent + "  " + line + lineEnding;
        start = end + 1;
    }
    return out;
}

} // namespace

std::optional<std::string> setCellKey(Document& document, const std::string& cellId,
                                      const std::string& key, const std::string& value) {
    CellBlock* cell = document.findCell(cellId);
    if (!cell) {
        return "there is no cell '" + cellId + "'";
    }
    if (!isPlainName(key)) {
        return "'" + key + "' is not a key name";
    }
    try {
        parsedYaml(value, 1);
    } catch (const YamlError& e) {
        return std::string("the value is not valid YAML: ") + e.what();
    }
    std::vector<std::string> lines = splitLines(cell->body);
    std::optional<KeySpan> span;
    if (auto error = locateKey(*cell, key, lines, span)) {
        return error;
    }
    const std::string replacement = keyLines(*cell, key, value, document.lineEnding);
    std::string body;
    if (span) {
        for (size_t i = 0; i < span->first; ++i) {
            body += lines[i];
        }
        body += replacement;
        for (size_t i = span->end; i < lines.size(); ++i) {
            body += lines[i];
        }
    } else {
        body = cell->body;
        if (!body.empty() && body.back() != '\n') {
            body += document.lineEnding;
        }
        body += replacement;
    }
    document.setCellBody(cellId, std::move(body));
    return std::nullopt;
}

namespace {

std::string withoutLineEnd(std::string line) {
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) {
        line.pop_back();
    }
    return line;
}

// A value that parses alone as it does after "key: " on one line: a scalar, or a list or map
// in brackets. Not a block collection ("a: b", "- a"), a block scalar (| >), a tag, an anchor
// or a directive, which read differently (or not at all) after a key.
std::optional<YamlNode> valueAlone(const std::string& value, int line, int columnOffset) {
    const size_t first = value.find_first_not_of(' ');
    if (first == std::string::npos ||
        std::string("|>!&*%@`#").find(value[first]) != std::string::npos) {
        return std::nullopt;
    }
    const bool indicator = first + 1 == value.size() || value[first + 1] == ' ';
    if (std::string("-?:").find(value[first]) != std::string::npos && indicator) {
        return std::nullopt; // "- a", "? a", ": a"
    }
    YamlNode node;
    try {
        node = parseYaml(value, line, columnOffset);
    } catch (const YamlError&) {
        return std::nullopt; // setCellKey refused it already, or it reads with an error
    }
    const char opens = value[first];
    const bool fits = opens == '['   ? node.isSequence()
                      : opens == '{' ? node.isMap()
                                     : node.isScalar();
    return fits ? std::optional<YamlNode>(std::move(node)) : std::nullopt;
}

} // namespace

std::optional<YamlNode> parsedBodyAfterSets(const CellBlock& before, const CellBlock& after,
                                            const std::vector<KeySet>& sets) {
    if (before.bodyFirstLine != after.bodyFirstLine || before.indent != after.indent) {
        return std::nullopt;
    }
    YamlNode body;
    try {
        body = parseYaml(cellYamlText(before), before.bodyFirstLine, before.indent);
    } catch (const YamlError&) {
        return std::nullopt;
    }
    if (!body.isMap()) {
        return std::nullopt;
    }
    const std::vector<std::string> lines = splitLines(before.body);
    const std::vector<std::string> afterLines = splitLines(after.body);
    const int first = before.bodyFirstLine;
    const size_t written = body.entries.size(); // the keys `before` has
    std::map<size_t, std::string> changed;      // body line → what setCellKey wrote there
    for (const KeySet& set : sets) {
        const std::string value = withoutLineEnd(set.value);
        if (value.find_first_of("\r\n") != std::string::npos || !isPlainName(set.key)) {
            return std::nullopt;
        }
        const auto entry = std::find_if(body.entries.begin(), body.entries.end(),
                                        [&](const auto& e) { return e.first.scalar == set.key; });
        const size_t i = size_t(entry - body.entries.begin());
        int line = 0;
        if (entry == body.entries.end()) {
            line = first + int(lines.size()) + int(body.entries.size() - written);
        } else {
            line = entry->first.at.line;
            // Written on one line: the lines up to the next key are blank or comments.
            const int next =
                i + 1 < written ? body.entries[i + 1].first.at.line : first + int(lines.size());
            if (i < written && next <= line) {
                return std::nullopt; // the keys share a line (a flow map)
            }
            for (int l = line + 1; i < written && l < next; ++l) {
                if (!isBlankOrComment(lines[size_t(l - first)])) {
                    return std::nullopt;
                }
            }
        }
        std::optional<YamlNode> node =
            valueAlone(value, line, before.indent + int(set.key.size()) + 2);
        if (!node) {
            return std::nullopt;
        }
        if (entry == body.entries.end()) {
            YamlNode key;
            key.kind = YamlNode::Kind::Scalar;
            key.scalar = set.key;
            key.at = {line, before.indent + 1};
            body.entries.emplace_back(std::move(key), std::move(*node));
        } else {
            entry->second = std::move(*node);
        }
        changed[size_t(line - first)] =
            std::string(size_t(before.indent), ' ') + set.key + ": " + value;
    }
    // `after` must be `before` with just those lines written: else parse it whole.
    if (afterLines.size() != lines.size() + (body.entries.size() - written)) {
        return std::nullopt;
    }
    for (size_t l = 0; l < afterLines.size(); ++l) {
        const auto wrote = changed.find(l);
        const bool same = wrote != changed.end() ? withoutLineEnd(afterLines[l]) == wrote->second
                                                 : l < lines.size() && afterLines[l] == lines[l];
        if (!same) {
            return std::nullopt;
        }
    }
    return body;
}

std::optional<std::string> removeCellKey(Document& document, const std::string& cellId,
                                         const std::string& key) {
    CellBlock* cell = document.findCell(cellId);
    if (!cell) {
        return "there is no cell '" + cellId + "'";
    }
    std::vector<std::string> lines = splitLines(cell->body);
    std::optional<KeySpan> span;
    if (auto error = locateKey(*cell, key, lines, span)) {
        return error;
    }
    if (!span) {
        return std::nullopt;
    }
    std::string body;
    for (size_t i = 0; i < lines.size(); ++i) {
        if (i < span->first || i >= span->end) {
            body += lines[i];
        }
    }
    document.setCellBody(cellId, std::move(body));
    return std::nullopt;
}

std::string yamlFlowVector(const arma::rowvec& v) {
    std::string out = "[";
    for (arma::uword i = 0; i < v.n_elem; ++i) {
        out += (i ? ", " : "") + shortestDouble(v(i));
    }
    return out + "]";
}

std::string yamlFlowMatrix(const arma::mat& m) {
    std::string out = "[";
    for (arma::uword r = 0; r < m.n_rows; ++r) {
        out += (r ? ", " : "") + yamlFlowVector(m.row(r));
    }
    return out + "]";
}

namespace {

// The inside of a double-quoted YAML scalar that reads back as `s`: quotes and backslashes
// escaped, and every control character and line break too (\n, \xNN, \u0085, \L, \P), which a
// double-quoted scalar would otherwise fold into a space.
std::string yamlDoubleQuoted(const std::string& s) {
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += char(c);
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\t') {
            out += "\\t";
        } else if (c == '\r') {
            out += "\\r";
        } else if (c < 0x20 || c == 0x7f) {
            static const char* hex = "0123456789ABCDEF";
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 15];
        } else if (s.compare(i, 2, "\xC2\x85") == 0) { // NEL (yaml-cpp reads \N as one byte)
            out += "\\u0085";
            ++i;
        } else if (s.compare(i, 3, "\xE2\x80\xA8") == 0) { // LINE SEPARATOR
            out += "\\L";
            i += 2;
        } else if (s.compare(i, 3, "\xE2\x80\xA9") == 0) { // PARAGRAPH SEPARATOR
            out += "\\P";
            i += 2;
        } else {
            out += char(c);
        }
    }
    return out;
}

} // namespace

std::string yamlFlowStrings(const std::vector<std::string>& items) {
    std::string out = "[";
    for (size_t i = 0; i < items.size(); ++i) {
        out += i ? ", " : "";
        const std::string& s = items[i];
        const bool reserved = s == "true" || s == "false" || s == "null" || s == "~";
        if (isPlainName(s, " '-") && !reserved && s.back() != ' ') {
            out += s;
        } else {
            out += "\"" + yamlDoubleQuoted(s) + "\"";
        }
    }
    return out + "]";
}

} // namespace attnbook
