#pragma once
// Training inside a lesson (docs/training.md): full-batch gradient descent, SGD or Adam, on the
// next-token loss of the lesson's sentences, from the cell's own weights or from seeded random
// ones. A pure function of the cell: the same cell gives the same numbers bit for bit.
//
// Names: S steps, M the positions with a next token over all sentences, θ the trainable
// parameters, g = ∂L/∂θ.

#include "core/math/transformer_config.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace attnbook {

struct TrainingSpec {
    // Each sentence as rows of the cell's vocab; each runs on its own (its own n).
    std::vector<std::vector<int>> data;
    std::vector<std::vector<int>> heldOut; // never trained on; empty: none
    int steps = 0;
    enum class Optimizer { Sgd, Adam };
    Optimizer optimizer = Optimizer::Adam;
    double lr = 0.01;
    // Start from scale · z instead of the cell's weights (z standard normal from splitmix64).
    struct Init {
        std::uint64_t seed = 0;
        double scale = 0.1;
    };
    std::optional<Init> init;
    // Which parameters move: attention (W_*, b_*), ffn, norm (every γ, β), vocab (the embedding
    // rows, and a separate unembedding U and b_U).
    struct Trainable {
        bool attention = true, ffn = true, norm = true, vocab = true;
    };
    Trainable trainable;
    int show = -1; // the step whose weights the cell shows; −1: the last

    int shownStep() const { return show < 0 ? steps : show; }
};

struct TrainingResult {
    std::vector<double> loss;          // the loss before each step, then after the last
    std::vector<double> heldOutLoss;   // the same on the held-out sentences; empty without them
    std::vector<double> gradNorm;      // ‖g‖₂ at the weights each step starts from
    int shown = 0;                     // the step `weights` are at
    std::string stopped;               // why training ended early; "" when it ran every step
    TransformerConfig weights;         // the cell with the weights after `shown` steps
    TrainingSpec::Trainable trainable; // what moved
};

// Trains `cell` as `spec` says. Throws InvalidConfig (key "train", "train.data", …) for what
// cannot be trained (learned positions, a sentence word the cell does not score); a loss that
// overflows ends training at that step, said in `stopped`, never as NaN.
TrainingResult trainTransformer(const TransformerConfig& cell, const TrainingSpec& spec,
                                const TransformerLimits& limits = {});

// `trained` (the weights a training of some cell gave) with `cell`'s own prompt in place of
// that cell's: its tokens (their vectors the rows of the trained vocab), targets, temperature,
// generation, focus, knock-outs and padding. Training reads none of these (each sentence sets
// them for itself), so a cell that differs from the trained one only there would train to the
// same weights: the live page keeps a lesson's training across what-ifs of the prompt
// (docs/training.md). The reader's views too — the layers run, LayerNorm and FFN switches and
// each layer's mask — which the window switches on the trained cell without training again.
TransformerConfig withPromptOf(const TransformerConfig& trained, const TransformerConfig& cell);

// Multiply-adds of the whole training: S steps of the forward and backward passes of every
// sentence, and the held-out sentences' forward passes: what the limits charge before it runs.
double trainingWork(const TransformerConfig& cell, const TrainingSpec& spec);

// The weights `init` starts from (docs/training.md, "Random initial weights"): the vocab rows,
// then each layer's W_Q, W_K, W_V, W_O, W_1, W_2, then a separate unembedding, each row by row
// from scale · z; biases 0, every γ 1 and β 0.
void randomInitialWeights(TransformerConfig& cell, const TrainingSpec::Init& init);

} // namespace attnbook
