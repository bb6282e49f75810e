#pragma once
// One step of training by hand (docs/worksheets.md, "One step of training"): the guess at a
// cell's last position, its loss, the gradient of that loss on each word's score, and the
// right word's output row after one SGD step. A pencil follows that one row; the real step
// (docs/training.md, "One step") moves every trainable number at once.
//
// When the cell trains on its own tokens and target alone (one guess, M = 1) under the causal
// mask, and the right word t is not one of its tokens, t's row moves only as an output row: u_t'
// below is then exactly the row training.weights shows after one step.

#include "core/document/cell_specs.h"
#include "core/math/transformer_result.h"

#include <armadillo>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace attnbook {

struct TrainingStepExercise {
    // Givens, as printed on the sheet.
    std::vector<std::string> words; // the V words scored, in the cell's order
    int target = 0;                 // the right next word, into `words`
    arma::rowvec z;                 // (d) the vector the model ends the last position with
    arma::mat rows;                 // (V × d) each word's output row u_w
    arma::rowvec bias;              // (V) b_U: zeros when the cell has none
    bool biasGiven = false;         // the cell has a nonzero b_U
    double lr = 0;

    // Answers, from the givens as printed.
    arma::rowvec scores;     // (V) ℓ_w = u_w · z + b_w
    arma::rowvec exps;       // (V) e^(ℓ_w − max ℓ)
    arma::rowvec probs;      // (V) p_w = softmax(ℓ)_w (temperature 1, as training)
    double loss = 0;         // −ln p_t
    arma::rowvec gradScores; // (V) ∂loss/∂ℓ_w = p_w − [w = t]
    arma::rowvec gradRow;    // (d) ∂loss/∂u_t = g_t · z
    arma::rowvec newRow;     // (d) u_t' = u_t − lr · g_t · z
    double newScore = 0;     // u_t' · z + b_t: t's score with z as it was
};

// The most words whose chances a student works out by hand.
constexpr int kMostWordsByHand = 5;

// The exercise for `spec`'s cell as `result` shows it, with every given passed through
// `printed` (the sheet's rounding), or nullopt when the cell does not offer one: it must
// train by SGD, its last token must have a target, and it must score at most
// kMostWordsByHand words.
std::optional<TrainingStepExercise>
trainingStepExercise(const TransformerCellSpec& spec, const TransformerResult& result,
                     const std::function<double(double)>& printed);

} // namespace attnbook
