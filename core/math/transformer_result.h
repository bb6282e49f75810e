#pragma once
// Every intermediate of one transformer computation, by name, as `compute`, the views, the
// exports and the tests read them (transformer.md, "What compute prints").

#include "core/math/attention_result.h"
#include "core/math/gradient_check.h"
#include "core/math/transformer_config.h"
#include "core/math/transformer_training.h"

#include <armadillo>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace attnbook {

// One LayerNorm's output and what its backward pass needs.
struct LayerNormResult {
    arma::mat out;    // (n × d) LN(x)
    arma::mat xhat;   // (n × d) (x − μ) / √(σ² + ε); empty when the LN is the identity
    arma::vec invStd; // (n) 1 / √(σ² + ε)
};

struct TransformerLayerResult {
    arma::mat input;           // (n × d) Xˡ⁻¹
    LayerNormResult ln1;       // H = LN₁(Xˡ⁻¹)
    AttentionResult attention; // the attention cell's own result, with H as its X; A = its output
    arma::mat resid1;          // (n × d) R = Xˡ⁻¹ + A
    LayerNormResult ln2;       // G = LN₂(R)
    arma::mat ffnPre;          // (n × d_ff) G W₁ᵀ + b₁; empty without an FFN
    arma::mat ffnAct;          // (n × d_ff) act(ffnPre)
    arma::mat ffnOut;          // (n × d) F; zeros without an FFN
    arma::mat resid2;          // (n × d) Xˡ = R + F
};

struct TransformerLayerGradients {
    AttentionGradients attention; // W_Q … b_O of this layer's attention; X is ∂L/∂H
    // Empty when that LN is the identity, and LN₂ also when the FFN does not run (nothing reads
    // it).
    arma::rowvec ln1Gamma, ln1Beta, ln2Gamma, ln2Beta;
    arma::mat W1, W2; // empty without an FFN
    arma::rowvec b1, b2;
};

struct TransformerGradients {
    arma::mat logits; // (n × V) ∂L/∂logits: the seed of the backward pass
    arma::mat X0;     // (n × d)
    std::vector<TransformerLayerGradients> layers;
    arma::rowvec finalGamma, finalBeta; // empty when the final LN is the identity
    arma::mat unembed;                  // (V × d) ∂L/∂U through the logits alone
    arma::rowvec unembedBias;           // (V)
    // Tied: ∂L/∂vocab = ∂L/∂U plus each token's ∂L/∂X0 row added to its word's row.
    arma::mat vocab;
};

struct NextWord {
    std::string word;
    double prob = 0.0;
};

struct GenerationStep {
    int word = 0;            // index into the unembedding's words
    std::string label;       // that word
    double prob = 0.0;       // its chance when it was picked
    double costCached = 0.0; // query–key comparisons per head and layer, with the cache
    double costFull = 0.0;   // the same without it
    arma::rowvec probs;      // (V) the chances the pick drew from
};

struct GenerationResult {
    bool ran = false;
    std::string refused; // why generation did not run, when it was asked for
    std::vector<GenerationStep> steps;
    double cacheNumbers = 0.0; // L · h · (d_k + d_v) · (n + N − 1)
};

// The cell with one part removed: the last row's chances, its likeliest words and the loss.
struct KnockoutOutcome {
    ModelPart part;
    arma::rowvec probs;      // (V) the last row's chances at the cell's temperature
    arma::rowvec focusProbs; // (V) the focus row's, which the knockout view draws
    std::vector<NextWord> next;
    std::optional<double> loss;
};

struct TransformerKnockouts {
    bool computed = false; // asked for (TransformerConfig::knockouts) and run
    std::vector<std::vector<KnockoutOutcome>> head;     // [layer][head], the layers run
    std::vector<KnockoutOutcome> attention, ffn, block; // [layer]
};

struct TransformerResult {
    int n = 0, d = 0, V = 0;
    int layersRun = 0; // L, or fewer when the `layers` switch says so
    std::vector<std::string> tokens;
    std::vector<std::string> words; // the V words the logits score
    int focus = 0;
    arma::mat X0, P, X; // (n × d) X⁰ = X0 + P

    std::vector<TransformerLayerResult> layers;
    LayerNormResult finalLn;    // Z
    arma::mat logits;           // (n × V)
    arma::mat probs;            // (n × V) softmax(logits / T) per row
    std::vector<NextWord> next; // the last row's words by chance, at most 10
    std::optional<double> loss;

    GenerationResult generation;
    TransformerKnockouts knockouts; // when the config asks for them
    // The cell's training (docs/training.md), when it has a `train` key: the numbers above are
    // those of training's weights after its shown step.
    std::shared_ptr<const TrainingResult> training;
    TransformerGradients grad;
    GradientCheckReport gradcheck;
};

} // namespace attnbook
