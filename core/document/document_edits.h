#pragma once
// Structural edits of a lesson for authors: new cells, duplicates, deletes,
// moves and prose rewrites. Each works on the document's byte segments, so
// everything it does not touch is written back exactly as it was read; the
// caller re-reads the serialized bytes to get fresh line numbers.

#include "core/document/document.h"

#include <optional>
#include <string>

namespace attnbook {

// Inserts a cell (`kind`, `id`, YAML `body` ending in a line end) after
// segment `afterSegment` (−1: at the top, after the front matter), set off
// by blank lines. Returns an error message, or nullopt.
std::optional<std::string> insertCell(Document& document, int afterSegment, CellKind kind,
                                      const std::string& id, const std::string& body);

// Inserts a prose paragraph after segment `afterSegment`.
std::optional<std::string> insertProse(Document& document, int afterSegment,
                                       const std::string& markdown);

// Copies cell `id` right after itself as `newId`.
std::optional<std::string> duplicateCell(Document& document, const std::string& id,
                                         const std::string& newId);

// Removes cell `id` and one blank line that set it off.
std::optional<std::string> deleteCell(Document& document, const std::string& id);

// Moves cell `id` above the previous (or below the next) block of prose or cell.
std::optional<std::string> moveCell(Document& document, const std::string& id, int direction);

// Replaces the Markdown of prose segment `segment` (its line ends are the
// document's; a missing final line end is added).
std::optional<std::string> setProseText(Document& document, int segment, std::string markdown);

// `text` with every line end ("\n", or "\r\n" pasted) written as `lineEnding`.
std::string withLineEnds(const std::string& text, const std::string& lineEnding);

// Text of the document as the window's editors show it: "\n" line ends, no final line end.
std::string textForEditing(const std::string& bytes);

// A cell's body as an editor holds it (textForEditing), as the document writes it: its line
// ends, and the final line end again (none for an empty body).
std::string typedCellBody(const std::string& typed, const std::string& lineEnding);

// A fresh id for a cell of `kind`: "attention1", "attention2", ... not yet used.
std::string unusedCellId(const Document& document, const std::string& stem);

} // namespace attnbook
