#pragma once
// Computes a transformer cell (transformer.md): the pre-norm decoder forward, the loss, the
// backward pass through every stage to every parameter and to X0, the gradient check, and
// generation with a key/value cache. Each layer's attention is the AttentionEngine's.
//
// The same decoder as plain loops (forward, knock-outs, backward, the check by differences),
// sharing nothing with this engine, is namespace `tref` in
// tests/core/test_transformer_reference.cpp: the readable version of every stage, and the
// reference random cells must agree with (the forward pass to 1e-12, gradients to 1e-10).

#include "core/math/attention_engine.h"
#include "core/math/transformer_config.h"
#include "core/math/transformer_result.h"

namespace attnbook {

// Whether a pass computes the knock-outs its configuration asks for (transformer.md,
// "Knock-outs": L·h + 2L forward passes more). The live page's first answer to a what-if skips
// them and its second computes them (docs/web-page.md), so the chances show within a frame.
enum class Knockouts { AsAsked, Skip };

class TransformerEngine {
  public:
    explicit TransformerEngine(TransformerLimits limits = {})
        : limits_(limits), attention_(limits.attention) {}

    // Throws InvalidConfig (key "layers[l].attention.W_Q", "ffn.W_1", …) when the
    // configuration cannot be computed. Never produces NaN.
    TransformerResult compute(const TransformerConfig& config,
                              GradientCheck check = GradientCheck::Run,
                              Knockouts knockouts = Knockouts::AsAsked);

    // The forward pass alone: the stream, the logits, the chances, the loss, `next` and the
    // knock-outs the configuration asks for (unless skipped).
    void forward(const TransformerConfig& config, TransformerResult& result,
                 Knockouts knockouts = Knockouts::AsAsked);
    // The forward pass again from layer `first` (0 … layersRun; layersRun: the output alone),
    // keeping `result`'s layers before it: `result` must hold the forward pass of a
    // configuration that differs from `config` only in layer `first` or after it (or in the
    // final LayerNorm and the unembedding). The gradient check nudges one weight at a time,
    // and the layers before it would compute the same numbers again. first ≤ 0: forward.
    void forwardFrom(const TransformerConfig& config, TransformerResult& result, int first);
    // The backward pass and the gradient check of a result whose forward pass is current.
    void backward(const TransformerConfig& config, TransformerResult& result,
                  GradientCheck check = GradientCheck::Run);
    // Generation with the cache from a result whose forward pass is current (step 1 reuses
    // its keys and values). Fills result.generation; a refusal is said there, not thrown.
    void generate(const TransformerConfig& config, TransformerResult& result);

    const TransformerLimits& limits() const { return limits_; }

  private:
    // Layers `first` … layersRun − 1 from the stream before them, then the output: the
    // chances, `next`, the loss and the knock-outs.
    void runLayers(const TransformerConfig& config, TransformerResult& result, int first,
                   Knockouts knockouts);
    TransformerLimits limits_;
    AttentionEngine attention_;
};

// Checks a configuration's shapes across layers before anything is computed; throws
// InvalidConfig naming the key at fault.
void validateTransformer(const TransformerConfig& config, const TransformerLimits& limits);

// Multiply-adds of one forward pass (what the gradient check and the cost limits charge).
double transformerForwardCost(const TransformerConfig& config);

// The loss the backward pass differentiates: the mean cross-entropy over the targets, or
// Σ upstream ⊙ logits without targets (upstream defaults to ones).
double transformerObjective(const TransformerConfig& config, const TransformerResult& forward);

// The gradient check of attention.md over every parameter the switches leave on and X0: the
// same step, norm-wise error and sampling budget (GradientCheckPolicy), on the objective above.
GradientCheckReport transformerGradientCheck(const TransformerConfig& config,
                                             const TransformerResult& analytic,
                                             const TransformerLimits& limits);

// splitmix64 (transformer.md, "Generation"): advances `state` and returns the next output.
std::uint64_t splitmix64(std::uint64_t& state);
// The word a draw u ∈ [0, 1) picks from `probs`: the first whose running total exceeds u
// (the last word with a positive chance if rounding leaves the total at or below u).
int pickByDraw(const arma::rowvec& probs, double u);
// The greedy pick: the most likely word, the first in order on a tie.
int pickGreedy(const arma::rowvec& probs);

} // namespace attnbook
