#pragma once
// Edits a cell's YAML body one top-level key at a time, rewriting only that
// key's lines, so that a diff of the saved file shows just the change. The
// window, `edit --set` and `compute --set` all edit through here.

#include "core/document/document.h"
#include "core/document/yaml_tree.h"

#include <armadillo>

#include <optional>
#include <string>
#include <vector>

namespace attnbook {

// Sets `key` of cell `cellId` to the YAML text `value` (added at the end
// when the key is absent). Returns an error message, or nullopt on success.
std::optional<std::string> setCellKey(Document& document, const std::string& cellId,
                                      const std::string& key, const std::string& value);

// One key setCellKey set, with its YAML text.
struct KeySet {
    std::string key;
    std::string value;
};

// The body of `after` parsed, as readCell parses it, when `after` is `before` with `sets`
// made by setCellKey in order: taken from `before`'s parsed body (parseYaml keeps it) with only
// the new values parsed, each alone where setCellKey wrote it. A what-if on the live page sets
// one key of a model's long body, and yaml-cpp over the whole body was most of its answer
// (docs/web-page.md). Only for edits that move no other line — a one-line scalar or flow value
// over a key written on one line, or a new key at the end — and only when `after`'s text is
// exactly that; nullopt otherwise, and the caller parses `after` as usual.
std::optional<YamlNode> parsedBodyAfterSets(const CellBlock& before, const CellBlock& after,
                                            const std::vector<KeySet>& sets);

// Removes `key` from the cell (a no-op when absent).
std::optional<std::string> removeCellKey(Document& document, const std::string& cellId,
                                         const std::string& key);

// YAML flow text for values the window writes: [[1, 0], [0, 1]] and [1, 0].
std::string yamlFlowMatrix(const arma::mat& m);
std::string yamlFlowVector(const arma::rowvec& v);
std::string yamlFlowStrings(const std::vector<std::string>& items);

} // namespace attnbook
