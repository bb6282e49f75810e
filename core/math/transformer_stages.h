#pragma once
// What every part of the transformer engine agrees on: which stages the `run` switches leave
// on, and each layer's attention as an AttentionConfig that reads the layer's input without
// copying its weights. Internal to core/math (transformer_engine.cpp,
// transformer_generation.cpp, transformer_gradient_check.cpp).

#include "core/math/transformer_config.h"

namespace attnbook::transformer {

// The layers the switches run: L, or the first k.
int layersRun(const TransformerConfig& config);

// The LN as computed: the identity when the `norm` switch is off.
const LayerNormParams& effective(const LayerNormParams& ln, const TransformerConfig& config);

// Whether the layer's FFN runs (present, and the `ffn` switch on).
bool ffnRuns(const TransformerLayer& layer, const TransformerConfig& config);

// The layer's attention with `input` (n × d) as its X0 and no positional encoding, its weight
// matrices aliasing the layer's (Armadillo's advanced constructor: no copy). Valid while
// `layer` and `input` are. `outputWeights`, when given, replaces W_O (copied, never written
// through the alias): a knock-out's W_O without one head's columns.
AttentionConfig attentionOver(const AttentionConfig& layer, const arma::mat& input,
                              const std::vector<std::string>& tokens,
                              const arma::mat* outputWeights = nullptr);

// A copy of `config` whose weight matrices (W_Q … W_O, W_1, W_2, the vocab, the unembedding)
// alias `config`'s instead of copying them: the window's what-ifs build one per edit, and a
// GPT-2-sized cell's weights are 100 MB. The rest (tokens, X0, biases, γ, β) is copied, so the
// copy's X0 may be rewritten. Valid while `config` is; move it, never copy it (a copy of an
// aliasing Armadillo matrix copies the numbers).
TransformerConfig sharedWeights(const TransformerConfig& config);

// The part `config.removed` takes out of layer `layer`, or nullptr.
const ModelPart* removedFrom(const TransformerConfig& config, int layer);

// "layers[l].attention." + key: where an attention problem of layer l sits in the cell.
std::string layerKey(int layer, const std::string& key);

inline constexpr const char* kGenerationNeedsCausal =
    "generation needs the causal mask in every layer: with the mask off, each new word changes "
    "every earlier token's output, so there is nothing to cache";

} // namespace attnbook::transformer
