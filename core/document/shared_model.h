#pragma once
// A transformer cell may take its model from an earlier transformer cell: `model: tiny`, or
// `model: {cell: tiny, layers: 1}` for that model's first blocks (docs/transformer.md,
// "A shared model"). The model is written once and read by every cell that names it; what a
// cell writes itself (its prompt, positions, temperature, …) stays its own.

#include "core/document/diagnostic.h"
#include "core/document/yaml_tree.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace attnbook {

// What one cell took: from which cell, how many of its blocks (0: all), and which keys.
struct SharedModelUse {
    std::string cell;
    int layers = 0;
    std::vector<std::string> keys; // the model keys the cell did not write itself
};

// The keys that make up a model: the vocabulary, the blocks, the final LayerNorm and its ε,
// the scoring, and how it trains. Positions are a reader's control of each cell, so a cell
// writes its own (docs/transformer.md says why).
const std::vector<std::string>& sharedModelKeys();

// The keys of a transformer cell's prompt: what it reads and what it makes of it (its tokens,
// targets, temperature, generation and focus), not the model. Training reads none of them, so a
// what-if of these alone leaves a cell's training as it was (withPromptOf,
// core/math/transformer_training.h).
bool isPromptKey(const std::string& key);

// The transformer cells read so far, in lesson order: each body with the model it took
// spliced in, or nullopt for a cell that has errors of its own.
using ModelBodies = std::map<std::string, std::optional<YamlNode>>;

// `body` with the model its `model:` key names: every model key `body` does not write, copied
// from that cell's body (with its file positions, so a problem in a shared value points where
// the value is written). A body without `model:` is returned as it is. nullopt after an error,
// reported once at the `model:` value.
std::optional<YamlNode> withSharedModel(const YamlNode& body, const std::string& cellId,
                                        const ModelBodies& earlier,
                                        std::vector<Diagnostic>& diagnostics,
                                        std::optional<SharedModelUse>& use);

} // namespace attnbook
