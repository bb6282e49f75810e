#pragma once
// Renames a cell and every binding that names it, in prose and in other
// cells' text, so that no binding is left pointing at the old id.

#include "core/document/document.h"

#include <optional>
#include <string>

namespace attnbook {

// Returns an error message, or nullopt when the rename is done. Code spans
// and code blocks are left alone, as bindings are not read there.
std::optional<std::string> renameCell(Document& document, const std::string& oldId,
                                      const std::string& newId);

} // namespace attnbook
