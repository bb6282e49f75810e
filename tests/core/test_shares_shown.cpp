// Issue 24: the keys a shares view shows, one rule for the window and the paper (shares_shown.h).
#include "core/document/lesson.h"
#include "core/math/shares_shown.h"

#include "test_support.h"

#include <algorithm>
#include <string>

using namespace attnbook;

namespace {

// A cell of `n` tokens whose vectors differ, so that the shares of a row differ too.
std::shared_ptr<const AttentionResult> cellOf(int n, const std::string& extra = "") {
    std::string tokens, vocab;
    for (int i = 0; i < n; ++i) {
        tokens += (i ? ", w" : "w") + std::to_string(i);
        vocab += "  w" + std::to_string(i) + ": [" + std::to_string(i % 7) + ", " +
                 std::to_string((i * 3) % 5) + "]\n";
    }
    const Lesson lesson = parseLesson("# Shares\n\n```attention c\ntokens: [" + tokens +
                                          "]\nvocab:\n" + vocab + extra + "```\n",
                                      "shares.md");
    AttentionEngine engine;
    const LessonResults results = computeLesson(lesson, engine);
    const ComputedCell* cell = results.cell("c");
    REQUIRE(cell);
    REQUIRE(cell->ok);
    return cell->attention;
}

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
    const auto r = cellOf(kMaxSharesShown);
    const std::vector<int> keys = sharesShown(*r, 3);
    REQUIRE(keys.size() == size_t(kMaxSharesShown));
    for (int j = 0; j < kMaxSharesShown; ++j) {
        CHECK(keys[size_t(j)] == j);
    }
}

TEST_CASE("many keys: the largest shares over the heads, in the keys' order") {
    const auto r = cellOf(40, "heads: 2\n");
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
    const auto r = cellOf(40, "mask: causal\n");
    // Row 5 reads keys 0..5 only: those six, then the first blocked ones to make sixteen.
    const std::vector<int> keys = sharesShown(*r, 5);
    REQUIRE(keys.size() == size_t(kMaxSharesShown));
    for (int key = 0; key <= 5; ++key) {
        CHECK(std::find(keys.begin(), keys.end(), key) != keys.end());
    }
    CHECK(keys.back() == kMaxSharesShown - 1); // ties keep the earlier keys
}
