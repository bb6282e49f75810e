#include "core/math/blockwise_attention.h"

#include "core/math/attention_mask.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace attnbook {

BlockwiseHead blockwiseHead(const arma::mat& Qi, const arma::mat& Ki, const arma::mat& Vi,
                            double scale, MaskKind mask, const std::vector<bool>& padding,
                            int blockSize) {
    if (blockSize < 1) {
        throw std::invalid_argument("the block size must be at least 1");
    }
    const int n = int(Qi.n_rows), m = int(Ki.n_rows);
    const arma::uword dV = Vi.n_cols;
    const KeyMask keyMask(n, m, mask, padding);
    const double minusInf = -std::numeric_limits<double>::infinity();

    arma::vec running(arma::uword(n), arma::fill::value(minusInf)); // m: the largest score so far
    arma::vec total(arma::uword(n), arma::fill::zeros);             // ℓ: Σ e^(s − m)
    arma::mat out(arma::uword(n), dV, arma::fill::zeros);           // o: Σ e^(s − m) v

    BlockwiseHead head;
    for (int first = 0; first < m; first += blockSize) {
        const int end = std::min(m, first + blockSize);
        for (int r = 0; r < n; ++r) {
            // s (block) = scores of row r against the block's keys, scaled and masked
            double blockMax = minusInf;
            std::vector<double> s(size_t(end - first), minusInf);
            for (int c = first; c < end; ++c) {
                if (!keyMask.blocks(r, c)) {
                    s[size_t(c - first)] =
                        scale * arma::dot(Qi.row(arma::uword(r)), Ki.row(arma::uword(c)));
                    blockMax = std::max(blockMax, s[size_t(c - first)]);
                }
            }
            if (blockMax == minusInf) {
                continue; // nothing readable in this block: m, ℓ and o stay
            }
            const double before = running(arma::uword(r));
            const double after = std::max(before, blockMax);                         // m'
            const double keep = before == minusInf ? 0.0 : std::exp(before - after); // e^(m − m')
            total(arma::uword(r)) *= keep;
            out.row(arma::uword(r)) *= keep;
            for (int c = first; c < end; ++c) {
                const double score = s[size_t(c - first)];
                if (score != minusInf) {
                    const double weight = std::exp(score - after);
                    total(arma::uword(r)) += weight;
                    out.row(arma::uword(r)) += weight * Vi.row(arma::uword(c));
                }
            }
            running(arma::uword(r)) = after;
        }
        head.steps.push_back({first, end, running, total, out});
    }
    head.output = out; // (n × d_v) o / ℓ, row by row; a row that read nothing stays 0
    for (int r = 0; r < n; ++r) {
        if (total(arma::uword(r)) > 0.0) {
            head.output.row(arma::uword(r)) /= total(arma::uword(r));
        }
    }
    return head;
}

} // namespace attnbook
