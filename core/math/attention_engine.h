#pragma once
// Computes an attention cell: forward, backward and the gradient check
// (attention.md). One engine keeps its scratch memory and one result keeps its
// matrices between calls, so recomputing a cell of the same size allocates
// nothing: the window recomputes on every edit, and fresh pages are slow.
//
// The same arithmetic as plain loops, a few lines per step and nothing shared with this
// engine, is `ref::forward` and `ref::backward` in tests/core/test_attention_reference.cpp:
// read it first; hundreds of random cells must agree with it to 1e-12. It lives with the tests
// so that it stays an independent check, not a second engine the first could drift with.

#include "core/math/attention_config.h"
#include "core/math/attention_result.h"
#include "core/math/attention_shapes.h"

namespace attnbook {

class KeyMask;

enum class GradientCheck { Skip, Run };

class AttentionEngine {
  public:
    explicit AttentionEngine(AttentionLimits limits = {}) : limits_(limits) {}

    // Throws InvalidConfig when the configuration cannot be computed; then
    // `result` is left unspecified. Never produces NaN.
    void compute(const AttentionConfig& config, AttentionResult& result,
                 GradientCheck check = GradientCheck::Run);
    AttentionResult compute(const AttentionConfig& config,
                            GradientCheck check = GradientCheck::Run);

    // Only the forward pass: what the gradient check perturbs.
    void forward(const AttentionConfig& config, AttentionResult& result);

    // The forward pass after an edit of the token vectors of `rows` alone (rows of X0; every
    // other input and every shape as when `result` was computed, labels and focus may differ):
    // recomputes only what those rows reach (attention_update.cpp). The same numbers as
    // forward() to rounding; a result whose shapes do not match is computed in full. Throws
    // InvalidConfig as forward() does, and then `result` is left unspecified.
    void updateRows(const AttentionConfig& config, const std::vector<int>& rows,
                    AttentionResult& result);

    // Which projection an edit of one weight row (or one bias entry) changed.
    enum class Projected { Q, K, V, Output };
    // The forward pass after an edit of row `column` of W_Q, W_K, W_V or W_O, or of entry
    // `column` of its bias (every other input and every shape as when `result` was computed):
    // that column of Q, K, V or Y changes, and with Q, K or V the one head that reads it and
    // the output. Recomputed from the inputs, not by differences, so that edit after edit
    // cannot drift. A result whose shapes do not match is computed in full. Throws
    // InvalidConfig as forward() does, and then `result` is left unspecified.
    void updateProjectedColumn(const AttentionConfig& config, Projected which, int column,
                               AttentionResult& result);

    // The forward pass after an edit of the heads, the mask, the padding or the scale alone
    // (every input and Q, K, V as when `result` was computed): the heads' scores, shares and
    // contexts and the output, without projecting again. A result whose Q, K or V would
    // differ is computed in full.
    void updateAttention(const AttentionConfig& config, AttentionResult& result);

    // The backward pass and the gradient check of a result whose forward pass is current.
    void backward(const AttentionConfig& config, AttentionResult& result,
                  GradientCheck check = GradientCheck::Run);

    const AttentionLimits& limits() const { return limits_; }

  private:
    void forwardPass(const AttentionConfig& config, const AttentionShapes& shapes,
                     const KeyMask& mask, AttentionResult& result);
    // The heads (scores, shares, contexts, their warnings) and the output, from r's Q, K, V.
    void attentionPass(const AttentionConfig& config, const AttentionShapes& shapes,
                       const KeyMask& mask, AttentionResult& result);
    void backwardPass(const AttentionConfig& config, const AttentionShapes& shapes,
                      const KeyMask& mask, AttentionResult& result);

    AttentionLimits limits_;
    // Backward scratch, key-major like the heads' tables: one row block's G_A and
    // then, in place, its G_S (m × block rows).
    arma::mat gradScoresT_;
    // (n × h·d_v), (n × h·d_k), (m × h·d_k), (m × h·d_v)
    arma::mat gradConcat_, gradQ_, gradK_, gradV_;
};

} // namespace attnbook
