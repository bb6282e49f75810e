// The keys a shares view shows, one rule for the window and the paper, and the range
// of Compare's colour scale, one for the legend and the heatmap (shares_shown.h).
#include "core/document/lesson.h"
#include "core/math/shares_shown.h"

#include "test_support.h"

#include <algorithm>
#include <cmath>
#include <string>

using namespace attnbook;

namespace {

double largestShare(const AttentionResult& r, int row, int key) {
    double largest = -1.0;
    for (const HeadResult& h : r.head) {
        if (!h.blocked(arma::uword(row), arma::uword(key))) {
            largest = std::max(largest, h.weight(arma::uword(row), arma::uword(key)));
        }
    }
    return largest;
}

} // namespace

TEST_CASE("a few keys: every one is shown, in order") {
    const auto r = test::attentionOfDistinctTokens(kMaxSharesShown);
    const std::vector<int> keys = sharesShown(*r, 3);
    REQUIRE(keys.size() == size_t(kMaxSharesShown));
    for (int j = 0; j < kMaxSharesShown; ++j) {
        CHECK(keys[size_t(j)] == j);
    }
}

TEST_CASE("many keys: the largest shares over the heads, in the keys' order") {
    const auto r = test::attentionOfDistinctTokens(40, "heads: 2\n");
    for (const int row : {0, 17, 39}) {
        CAPTURE(row);
        const std::vector<int> keys = sharesShown(*r, row);
        REQUIRE(keys.size() == size_t(kMaxSharesShown));
        CHECK(std::is_sorted(keys.begin(), keys.end()));
        CHECK(std::adjacent_find(keys.begin(), keys.end()) == keys.end());
        double smallestShown = 2.0;
        for (const int key : keys) {
            smallestShown = std::min(smallestShown, largestShare(*r, row, key));
        }
        for (int key = 0; key < r->m; ++key) {
            if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
                CHECK(largestShare(*r, row, key) <= smallestShown);
            }
        }
    }
}

TEST_CASE("a blocked key is shown only after every key with a share") {
    const auto r = test::attentionOfDistinctTokens(40, "mask: causal\n");
    // Row 5 reads keys 0..5 only: those six, then the first blocked ones to make sixteen.
    const std::vector<int> keys = sharesShown(*r, 5);
    REQUIRE(keys.size() == size_t(kMaxSharesShown));
    for (int key = 0; key <= 5; ++key) {
        CHECK(std::find(keys.begin(), keys.end(), key) != keys.end());
    }
    CHECK(keys.back() == kMaxSharesShown - 1); // ties keep the earlier keys
}

TEST_CASE("Compare's range: the largest change of any share, none across shapes") {
    const auto authored = test::attentionOfDistinctTokens(4);
    CHECK(largestShareChange(*authored, *authored) == 0.0);
    const auto twoHeads = test::attentionOfDistinctTokens(4, "heads: 2\n");
    CHECK(largestShareChange(*twoHeads, *authored) == 0.0); // not of one shape
    const auto causal = test::attentionOfDistinctTokens(4, "mask: causal\n");
    double expected = 0.0; // by hand, entry by entry
    for (int row = 0; row < 4; ++row) {
        for (int key = 0; key < 4; ++key) {
            expected = std::max(expected, std::abs(causal->head[0].weight(row, key) -
                                                   authored->head[0].weight(row, key)));
        }
    }
    CHECK(expected > 0.1);
    CHECK(largestShareChange(*causal, *authored) == doctest::Approx(expected).epsilon(1e-15));
}
