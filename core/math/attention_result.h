#pragma once
// Every intermediate of one attention computation, by name, as the views,
// the exports, `compute` and the tests read them (attention.md).

#include "core/math/attention_config.h"
#include "core/math/gradient_check.h"

#include <armadillo>

#include <array>
#include <cmath>

#include <string>
#include <vector>

namespace attnbook {

// One head's n × m tables. They are stored key-major (transposed, m × n), so
// that one query's scores are one contiguous column: the softmax, the mask and
// the backward pass then walk memory in order. Use the accessors for (r, c).
struct HeadResult {
    arma::mat scoresT;  // (m × n) scaled scores; blocked entries hold -inf
    arma::mat weightsT; // (m × n) softmax shares; blocked entries are exactly 0
    arma::mat context;  // (n × d_v) H_i = A_i V_i

    double score(arma::uword row, arma::uword col) const { return scoresT(col, row); }
    double weight(arma::uword row, arma::uword col) const { return weightsT(col, row); }
    bool blocked(arma::uword row, arma::uword col) const {
        return scoresT(col, row) == -arma::datum::inf;
    }
    arma::mat scores() const { return scoresT.t(); }   // n × m
    arma::mat weights() const { return weightsT.t(); } // n × m
};

struct AttentionGradients {
    arma::mat upstream; // (n × d_o) ∂L/∂Y
    // Projection mode.
    arma::mat X;                  // (n × d)
    arma::mat W_Q, W_K, W_V, W_O; // same shapes as the weights
    arma::rowvec b_Q, b_K, b_V, b_O;
    // Direct mode.
    arma::mat queries, keys, values; // same shapes as Q, K, V
};

struct AttentionWarning {
    std::string code; // "blocked-row"
    int head = 0;
    int row = 0;
    std::string message;
};

// What the attention pass reads (the shapes, the labels, X and Q, K, V): an edit of the heads,
// the mask, the padding or the scale recomputes from a copy of these alone.
struct AttentionInputs {
    bool direct = false;
    int n = 0, m = 0, d = 0, h = 1, dK = 0, dV = 0, dO = 0;
    double scale = 1.0; // the multiplier s
    int focus = 0;
    std::vector<std::string> tokens;      // labels of the m key rows
    std::vector<std::string> queryTokens; // labels of the n query rows
    // The settings that prose may state and claims test (docs/lesson-format.md, "Expressions and
    // claims"), as the configuration had them: the mask, the padded keys (m flags, all false
    // without padding) and which of W_Q, W_K, W_V, W_O are the identity (none in direct mode).
    MaskKind mask = MaskKind::None;
    std::vector<bool> padding;
    std::array<bool, 4> identity{};

    arma::mat X0, P, X; // (n × d); empty in direct mode
    arma::mat Q;        // (n × h·d_k)
    arma::mat K;        // (m × h·d_k)
    arma::mat V;        // (m × h·d_v)

    // Whether the scores are divided by √d_k: the scale in use is 1/√d_k (to 1e-12, relative),
    // whatever the cell wrote (`scale: 2` at d_k = 4 counts), and at d_k = 1 a division by √1
    // rather than "no scaling". The one test the claim `divides_by_sqrt_dk`, the worked steps,
    // the cell's header, its captions and the worksheet all use.
    bool dividesBySqrtDk() const {
        if (dK <= 0) {
            return false;
        }
        const double inverseRoot = 1.0 / std::sqrt(double(dK));
        return std::abs(scale - inverseRoot) <= 1e-12 * inverseRoot;
    }
};

// What the forward pass computes: every table but the gradients. Any other incremental
// recompute starts from a copy of the last forward pass alone (the 21 MB of gradients at
// GPT-2 small's shape are computed again or dropped, never copied).
struct AttentionForward : AttentionInputs {
    std::vector<HeadResult> head;
    arma::mat concat; // (n × h·d_v) C = [H_1 … H_h]
    arma::mat output; // (n × d_o) Y = C W_Oᵀ + b_O; equals C in direct mode
    std::vector<AttentionWarning> warnings;
};

struct AttentionResult : AttentionForward {
    // Empty until a backward pass; AttentionEngine::forward leaves them as they were.
    AttentionGradients grad;
    GradientCheckReport gradcheck; // attention.md; not run when computed with GradientCheck::Skip
};

} // namespace attnbook
