#include "core/math/shares_shown.h"

#include <algorithm>
#include <numeric>

namespace attnbook {

std::vector<int> sharesShown(const AttentionResult& result, int row) {
    std::vector<int> keys(size_t(std::max(result.m, 0)));
    std::iota(keys.begin(), keys.end(), 0);
    if (result.m <= kMaxSharesShown) {
        return keys;
    }
    std::vector<double> largest(keys.size(), -1.0); // a blocked key: below every share
    for (const HeadResult& head : result.head) {
        for (size_t j = 0; j < keys.size(); ++j) {
            if (!head.blocked(arma::uword(row), arma::uword(j))) {
                largest[j] = std::max(largest[j], head.weight(arma::uword(row), arma::uword(j)));
            }
        }
    }
    std::stable_sort(keys.begin(), keys.end(),
                     [&](int a, int b) { return largest[size_t(a)] > largest[size_t(b)]; });
    keys.resize(size_t(kMaxSharesShown));
    std::sort(keys.begin(), keys.end());
    return keys;
}

double largestShareChange(const AttentionResult& now, const AttentionResult& was) {
    if (now.head.size() != was.head.size()) {
        return 0.0;
    }
    double range = 0.0;
    for (size_t h = 0; h < now.head.size(); ++h) {
        const arma::mat& a = now.head[h].weightsT; // (m × n)
        const arma::mat& b = was.head[h].weightsT; // (m × n)
        if (a.n_rows != b.n_rows || a.n_cols != b.n_cols) {
            return 0.0;
        }
        if (!a.is_empty()) {
            range = std::max(range, arma::abs(a - b).max());
        }
    }
    return range;
}

} // namespace attnbook
