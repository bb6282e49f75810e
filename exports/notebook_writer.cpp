#include "exports/notebook_writer.h"

#include "core/document/json.h"

#include <cstdio>
#include <map>
#include <memory>
#include <variant>

namespace attnbook {
namespace {

// A JSON value whose objects keep their keys sorted (std::map orders UTF-8 bytes, which is
// code point order, as Python's sort_keys does).
struct Node {
    using Array = std::vector<Node>;
    using Object = std::map<std::string, Node>;
    std::variant<std::nullptr_t, bool, int, std::string, Array, Object> value;

    Node() : value(nullptr) {}
    Node(bool b) : value(b) {}
    Node(int i) : value(i) {}
    Node(std::string s) : value(std::move(s)) {}
    Node(const char* s) : value(std::string(s)) {}
    Node(Array a) : value(std::move(a)) {}
    Node(Object o) : value(std::move(o)) {}
};

// json.dumps(indent=1, separators=(",", ": ")): one item per line, one more space per level,
// empty arrays and objects as [] and {}.
void write(std::string& out, const Node& node, int level) {
    const std::string inner(size_t(level + 1), ' ');
    const std::string outer(size_t(level), ' ');
    std::visit(
        [&](const auto& v) {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, std::nullptr_t>) {
                out += "null";
            } else if constexpr (std::is_same_v<T, bool>) {
                out += v ? "true" : "false";
            } else if constexpr (std::is_same_v<T, int>) {
                out += std::to_string(v);
            } else if constexpr (std::is_same_v<T, std::string>) {
                out += jsonStringLiteral(v);
            } else if constexpr (std::is_same_v<T, Node::Array>) {
                if (v.empty()) {
                    out += "[]";
                    return;
                }
                out += "[\n";
                for (size_t i = 0; i < v.size(); ++i) {
                    out += inner;
                    write(out, v[i], level + 1);
                    out += i + 1 < v.size() ? ",\n" : "\n";
                }
                out += outer + "]";
            } else {
                if (v.empty()) {
                    out += "{}";
                    return;
                }
                out += "{\n";
                size_t i = 0;
                for (const auto& [key, value] : v) {
                    out += inner + jsonStringLiteral(key) + ": ";
                    write(out, value, level + 1);
                    out += ++i < v.size() ? ",\n" : "\n";
                }
                out += outer + "}";
            }
        },
        node.value);
}

Node cellNode(const NotebookCell& cell) {
    Node::Object o;
    Node::Object metadata;
    if (cell.sourceHidden) {
        metadata["jupyter"] = Node::Object{{"source_hidden", true}};
    }
    if (!cell.tags.empty()) {
        metadata["tags"] = Node::Array(cell.tags.begin(), cell.tags.end());
    }
    const std::vector<std::string> lines = splitSourceLines(cell.source);
    o["cell_type"] = cell.kind == NotebookCell::Kind::Code ? "code" : "markdown";
    o["id"] = cell.id;
    o["metadata"] = std::move(metadata);
    o["source"] = Node::Array(lines.begin(), lines.end());
    if (cell.kind == NotebookCell::Kind::Code) {
        o["execution_count"] = Node();
        o["outputs"] = Node::Array{};
    }
    return o;
}

// The length of the line end that starts at `i`, or 0 when none does.
size_t lineEndAt(const std::string& s, size_t i) {
    const auto byte = [&](size_t k) { return k < s.size() ? static_cast<unsigned char>(s[k]) : 0; };
    const unsigned char c = byte(i);
    if (c == '\r') {
        return byte(i + 1) == '\n' ? 2 : 1;
    }
    if (c == '\n' || c == 0x0b || c == 0x0c || c == 0x1c || c == 0x1d || c == 0x1e) {
        return 1;
    }
    if (c == 0xc2 && byte(i + 1) == 0x85) { // U+0085 NEXT LINE
        return 2;
    }
    if (c == 0xe2 && byte(i + 1) == 0x80 && (byte(i + 2) == 0xa8 || byte(i + 2) == 0xa9)) {
        return 3; // U+2028 LINE SEPARATOR, U+2029 PARAGRAPH SEPARATOR
    }
    return 0;
}

} // namespace

std::vector<std::string> splitSourceLines(const std::string& text) {
    std::vector<std::string> lines;
    size_t start = 0;
    for (size_t i = 0; i < text.size();) {
        if (const size_t end = lineEndAt(text, i)) {
            i += end;
            lines.push_back(text.substr(start, i - start));
            start = i;
        } else {
            ++i;
        }
    }
    if (start < text.size()) {
        lines.push_back(text.substr(start));
    }
    return lines;
}

std::string notebookCellId(const std::string& text) {
    std::string id;
    for (const char c : text) {
        const bool kept = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                          (c >= '0' && c <= '9') || c == '-' || c == '_';
        id += kept ? c : '-';
        if (id.size() == 64) {
            break;
        }
    }
    return id.empty() ? std::string("cell") : id;
}

QByteArray notebookBytes(const NotebookMetadata& metadata, const std::vector<NotebookCell>& cells) {
    Node::Array cellNodes;
    for (const NotebookCell& cell : cells) {
        cellNodes.push_back(cellNode(cell));
    }
    Node::Object meta;
    meta["kernelspec"] =
        Node::Object{{"display_name", "Python 3"}, {"language", "python"}, {"name", "python3"}};
    meta["language_info"] = Node::Object{{"name", "python"}};
    if (!metadata.title.empty()) {
        meta["title"] = metadata.title;
    }
    if (!metadata.authors.empty()) {
        Node::Array authors;
        for (const std::string& name : metadata.authors) {
            authors.push_back(Node::Object{{"name", name}});
        }
        meta["authors"] = std::move(authors);
    }
    if (!metadata.appVersion.empty()) {
        meta["attnbook"] = Node::Object{{"app_version", metadata.appVersion}};
    }
    const Node notebook = Node::Object{{"cells", std::move(cellNodes)},
                                       {"metadata", std::move(meta)},
                                       {"nbformat", 4},
                                       {"nbformat_minor", 5}};
    std::string out;
    write(out, notebook, 0);
    out += '\n';
    return QByteArray::fromStdString(out);
}

} // namespace attnbook
