#pragma once
// A Jupyter notebook as bytes: nbformat 4.5 JSON in the form nbformat itself writes
// (nbformat.writes: keys sorted, one-space indent, each cell's source split into lines the way
// Python's str.splitlines(True) splits them, non-ASCII kept as UTF-8), so that the same cells
// always give the same bytes and a notebook opened and saved by Jupyter without edits is
// unchanged. Code cells are stored without outputs: the reader runs them.

#include <QtCore/QByteArray>

#include <string>
#include <vector>

namespace attnbook {

struct NotebookCell {
    enum class Kind { Markdown, Code };
    Kind kind = Kind::Markdown;
    std::string id;     // unique in the notebook, [A-Za-z0-9_-]{1,64} (nbformat 4.5)
    std::string source; // UTF-8 text; line ends "\n"
    // Folded away when the notebook opens (JupyterLab's "source_hidden"): sample answers.
    bool sourceHidden = false;
    std::vector<std::string> tags; // cell metadata "tags"
};

struct NotebookMetadata {
    std::string title;
    std::vector<std::string> authors;
    std::string appVersion; // metadata.attnbook.app_version
};

// The notebook's JSON text, ending with a line end, as nbformat.write would write it.
QByteArray notebookBytes(const NotebookMetadata& metadata, const std::vector<NotebookCell>& cells);

// Text split after each line end that Python's str.splitlines recognises (\n, \r\n, \r, \v,
// \f, \x1c-\x1e, U+0085, U+2028, U+2029), each piece keeping its line end.
std::vector<std::string> splitSourceLines(const std::string& text);

// An id nbformat accepts, made from `text`: letters, digits, '-' and '_' kept, anything else
// turned into '-', at most 64 characters; "cell" when nothing is left.
std::string notebookCellId(const std::string& text);

} // namespace attnbook
