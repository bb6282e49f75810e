#pragma once
// Edits a cell's YAML body one top-level key at a time, rewriting only that
// key's lines, so that a diff of the saved file shows just the change. The
// window, `edit --set` and `compute --set` all edit through here.

#include "core/document/document.h"

#include <armadillo>

#include <optional>
#include <string>

namespace attnbook {

// Sets `key` of cell `cellId` to the YAML text `value` (added at the end
// when the key is absent). Returns an error message, or nullopt on success.
std::optional<std::string> setCellKey(Document& document, const std::string& cellId,
                                      const std::string& key, const std::string& value);

// Removes `key` from the cell (a no-op when absent).
std::optional<std::string> removeCellKey(Document& document, const std::string& cellId,
                                         const std::string& key);

// YAML flow text for values the window writes: [[1, 0], [0, 1]] and [1, 0].
std::string yamlFlowMatrix(const arma::mat& m);
std::string yamlFlowVector(const arma::rowvec& v);
std::string yamlFlowStrings(const std::vector<std::string>& items);

} // namespace attnbook
