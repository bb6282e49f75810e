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

} // namespace attnbook
