#pragma once
// One head's output computed the way optimised kernels do (transformer.md, "Attention in
// blocks"): keys B at a time, each query row keeping a running maximum m, a running total ℓ
// and a running output o, never a whole row of scores. The final rows equal the plain
// softmax path's.

#include "core/math/attention_config.h"

#include <armadillo>

#include <vector>

namespace attnbook {

struct BlockwiseStep {
    int firstKey = 0; // the block's keys: [firstKey, endKey)
    int endKey = 0;
    arma::vec runningMax;   // (n) m after this block; −∞ while a row has read nothing
    arma::vec runningTotal; // (n) ℓ
    arma::mat runningOut;   // (n × d_v) o (not yet divided by ℓ)
};

struct BlockwiseHead {
    std::vector<BlockwiseStep> steps;
    arma::mat output; // (n × d_v) o / ℓ; a row that may read nothing is 0
};

// Q_i (n × d_k), K_i (m × d_k), V_i (m × d_v) of one head; `scale` the multiplier s; the mask
// as attention.md states it. Throws std::invalid_argument for a block size below 1.
BlockwiseHead blockwiseHead(const arma::mat& Qi, const arma::mat& Ki, const arma::mat& Vi,
                            double scale, MaskKind mask, const std::vector<bool>& padding,
                            int blockSize);

} // namespace attnbook
