#pragma once
// The steps of the forward pass that a full computation (attention_engine.cpp) and an
// incremental one (attention_update.cpp) share, so that both follow one statement of the
// rules: the projection, the masked softmax of one query, the overflow refusals and the
// warning of a row that reads nothing. Internal to core/math.

#include "core/math/attention_config.h"
#include "core/math/attention_mask.h"
#include "core/math/attention_result.h"
#include "core/math/attention_shapes.h"

#include <armadillo>

#include <algorithm>
#include <string>
#include <vector>

namespace attnbook::kernels {

// The query rows go in blocks of this many. Under a causal mask each block multiplies only the
// keys its last row may read, which skips the blocked triangle (about half the work). With or
// without a mask, one block's slice of the m × n tables (m × 64 doubles) stays in cache from the
// product that writes it through the softmax to the product that reads it.
constexpr int kBlockRows = 64;

inline int blockRowsFor(int n) {
    return std::clamp(n, 1, kBlockRows);
}

// out (rows × outputs) = in (rows × inputs) · Wᵀ (inputs × outputs) + b
void project(const arma::mat& in, const Projection& proj, const arma::rowvec& bias, int outputs,
             arma::mat& out);

// Finite inputs can still overflow: 1e200 · 1e200 is ∞, and ∞ − ∞ is NaN. Such a cell is
// refused rather than shown with NaN in it. In direct mode the queries are at fault; with
// projections, X (and its weights).
[[noreturn]] void refuseOverflow(bool direct, const std::string& what, int row);
void requireFiniteValues(const arma::mat& m, bool direct, const char* what);

// Masks, then softmaxes one query's column of scores in place of its shares. Subtracting the
// column maximum keeps exp() finite for any finite scores. Returns false when the query may
// read no key (its shares are all 0).
bool softmaxColumn(double* scores, double* shares, int m, int readableEnd, const KeyMask& mask,
                   int row, bool direct);

// One head's forward pass from the result's Q, K and V (its scores and shares, key-major, and
// its context, into r.concat and the head's own copy); r.head and r.concat have their sizes.
// A query row that may read no key is reported to `blocked` when it is given.
void headForward(const AttentionShapes& s, const KeyMask& mask, bool direct, int i,
                 AttentionResult& r, std::vector<AttentionWarning>* blocked);

// Copies the settings a result reports (the mask, the padding, the identity projections) from
// the configuration: every pass, full or incremental, ends with the result's own.
void recordSettings(const AttentionConfig& config, AttentionInputs& r);

// The warning of a query row that may read no key, with its label when it has one.
std::string blockedRowMessage(int head, int row, const std::vector<std::string>& labels);

} // namespace attnbook::kernels
