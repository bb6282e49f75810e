#pragma once
// The inputs of one transformer cell, as numbers (transformer.md): a pre-norm decoder
// (GPT-2's order), its unembedding, the loss targets and the generation request. The
// document layer fills it from YAML; the window's controls switch parts off through the
// `run` switches without touching the authored weights.
//
// Names (transformer.md, attention.md):
//   n tokens   d model width   L layers   d_ff the FFN's hidden width   V vocabulary words

#include "core/math/attention_config.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace attnbook {

// LN(x) = γ ⊙ (x − μ) / √(σ² + ε) + β per row; `identity` is the key's `none`.
struct LayerNormParams {
    bool identity = false;
    arma::rowvec gamma; // (d); empty: ones
    arma::rowvec beta;  // (d); empty: zeros
};

enum class Activation { Gelu, GeluTanh, Relu };

// F = act(G W₁ᵀ + b₁) W₂ᵀ + b₂, the same network at every position.
struct FeedForwardParams {
    bool present = true; // false: the key's `none` (no FFN, F = 0)
    arma::mat W1;        // (d_ff × d)
    arma::rowvec b1;     // (d_ff); empty: zeros
    arma::mat W2;        // (d × d_ff)
    arma::rowvec b2;     // (d); empty: zeros
    Activation activation = Activation::Gelu;
};

struct TransformerLayer {
    // Every key of an attention cell that concerns one layer: heads, d_k, d_v, scale, mask,
    // padding, W_*, b_*. Its tokens, X0, positional, upstream and focus are not read: the
    // layer's input is LN₁ of the residual stream.
    AttentionConfig attention;
    LayerNormParams ln1, ln2;
    FeedForwardParams ffn;
};

enum class PickKind { Greedy, Sample };

struct GenerateRequest {
    int steps = 0;
    PickKind pick = PickKind::Greedy;
    std::uint64_t seed = 0; // splitmix64's starting state, when sampling
};

// What the window's controls switch off, on top of what the author wrote.
struct TransformerSwitches {
    int layers = -1;  // run the first k layers; −1: all
    bool norm = true; // false: every LayerNorm is the identity
    bool ffn = true;  // false: no layer has an FFN

    bool operator==(const TransformerSwitches&) const = default;
};

// A part of the model a knock-out removes (transformer_knockouts.h).
struct ModelPart {
    enum class Kind { Head, Attention, Ffn, Block };
    Kind kind = Kind::Block;
    int layer = 0;
    int head = -1; // for Kind::Head

    bool operator==(const ModelPart&) const = default;
};

struct TransformerConfig {
    std::vector<std::string> tokens; // n labels
    arma::mat X0;                    // (n × d) the token vectors
    PositionalKind positional = PositionalKind::None;
    arma::mat learnedP; // (n × d) when positional == Learned

    // The vocabulary that embeds tokens (and generated words): V rows of d, with labels.
    // Empty when the cell gives X directly.
    arma::mat vocab;
    std::vector<std::string> vocabLabels;

    std::vector<TransformerLayer> layers;
    LayerNormParams finalLn;
    double eps = 1e-5;

    // logits = Z Uᵀ + b_U. Tied: U is `vocab` and the words are vocabLabels.
    bool tiedUnembed = true;
    arma::mat unembed;                      // (V' × d) when not tied
    std::vector<std::string> unembedLabels; // V' labels when not tied
    arma::rowvec unembedBias;               // (V or V'); empty: zeros

    double temperature = 1.0;
    // One entry per token: the index (into the unembedding's words) of the word that should
    // come next, or −1 for none. Empty: no loss.
    std::vector<int> targets;
    // ∂L/∂logits (n × V) when there are no targets; nullopt: all ones.
    std::optional<arma::mat> upstream;

    std::optional<GenerateRequest> generate;
    // Compute the knock-outs with the forward pass (transformer_knockouts.h): L·h + 3L more
    // passes, so only when the cell shows them or a binding reads them.
    bool knockouts = false;
    // The part this pass runs without: set by computeKnockouts on its own copies, never by a
    // document.
    std::optional<ModelPart> removed;
    TransformerSwitches run;
    int focus = 0;

    // The words the logits score, in order.
    const std::vector<std::string>& words() const {
        return tiedUnembed ? vocabLabels : unembedLabels;
    }
    const arma::mat& unembedding() const { return tiedUnembed ? vocab : unembed; }
};

// Sizes refused before anything is allocated: the attention limits for each layer, and these.
struct TransformerLimits {
    AttentionLimits attention;
    int maxLayers = 64;
    int maxHidden = 16384;  // d_ff
    int maxVocab = 100000;  // V
    int maxGenerate = 4096; // steps
};

} // namespace attnbook
