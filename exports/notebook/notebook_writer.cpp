#include "exports/notebook/notebook_writer.h"

#include <nlohmann/json.hpp>

namespace attnbook {
namespace {

// nlohmann::json keeps an object's keys in a std::map, which orders UTF-8 bytes, i.e. code
// points, as Python's sort_keys does; its dump(1) is json.dumps(indent=1) byte for byte
// (one item per line, "," with no space after it, ": " after a key, [] and {} when empty) and,
// without ensure_ascii, escapes what json.dumps(ensure_ascii=False) escapes: \" \\ \b \f \n
// \r \t, and \u00XX for the other control characters. Bytes that are not UTF-8 (never in a lesson,
// which is checked on reading) become U+FFFD rather than an exception.
using NotebookJson = nlohmann::json;

NotebookJson cellNode(const NotebookCell& cell) {
    NotebookJson metadata = NotebookJson::object();
    if (cell.sourceHidden) {
        metadata["jupyter"] = {{"source_hidden", true}};
    }
    if (!cell.tags.empty()) {
        metadata["tags"] = cell.tags;
    }
    NotebookJson o = {{"cell_type", cell.kind == NotebookCell::Kind::Code ? "code" : "markdown"},
                      {"id", cell.id},
                      {"metadata", std::move(metadata)},
                      {"source", splitSourceLines(cell.source)}};
    if (cell.kind == NotebookCell::Kind::Code) {
        o["execution_count"] = nullptr;
        o["outputs"] = NotebookJson::array();
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
    NotebookJson cellNodes = NotebookJson::array();
    for (const NotebookCell& cell : cells) {
        cellNodes.push_back(cellNode(cell));
    }
    NotebookJson meta = {
        {"kernelspec", {{"display_name", "Python 3"}, {"language", "python"}, {"name", "python3"}}},
        {"language_info", {{"name", "python"}}}};
    if (!metadata.title.empty()) {
        meta["title"] = metadata.title;
    }
    if (!metadata.authors.empty()) {
        NotebookJson authors = NotebookJson::array();
        for (const std::string& name : metadata.authors) {
            authors.push_back({{"name", name}});
        }
        meta["authors"] = std::move(authors);
    }
    if (!metadata.appVersion.empty()) {
        meta["attnbook"] = {{"app_version", metadata.appVersion}};
    }
    const NotebookJson notebook = {{"cells", std::move(cellNodes)},
                                   {"metadata", std::move(meta)},
                                   {"nbformat", 4},
                                   {"nbformat_minor", 5}};
    return QByteArray::fromStdString(
               notebook.dump(1, ' ', false, NotebookJson::error_handler_t::replace)) +
           '\n';
}

} // namespace attnbook
