// The edits of an attention cell's controls (core/document/editable_attention): a refused edit
// leaves the cell as it was, weights included, and an accepted one changes only what it says,
// both for the edits that move the weight matrices aside instead of copying them and for an
// entry edited in place.
#include "core/document/editable_attention.h"

#include "test_support.h"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

using namespace attnbook;

namespace {

EditableAttention cellWithWeights() {
    EditableAttention s;
    AttentionConfig& c = s.config;
    c.tokens = {"a", "b", "c"};
    c.X0 = {{1, 0, 2, 1}, {0, 1, 1, 0}, {1, 1, 0, 2}};
    c.wQ.identity = false;
    c.wQ.weights = arma::reshape(arma::regspace(1, 16), 4, 4);
    c.wV.identity = false;
    c.wV.weights = arma::reshape(arma::regspace(-8, 7), 4, 4) * 0.5;
    c.heads = 2;
    return s;
}

bool same(const arma::mat& a, const arma::mat& b) {
    return a.n_rows == b.n_rows && a.n_cols == b.n_cols && arma::all(arma::vectorise(a == b));
}

bool sameWeights(const EditableAttention& a, const EditableAttention& b) {
    return a.config.wQ.identity == b.config.wQ.identity &&
           same(a.config.wQ.weights, b.config.wQ.weights) &&
           a.config.wV.identity == b.config.wV.identity &&
           same(a.config.wV.weights, b.config.wV.weights) &&
           a.config.wK.identity == b.config.wK.identity && same(a.config.X0, b.config.X0);
}

} // namespace

TEST_CASE("refused edits leave the weights") {
    EditableAttention s = cellWithWeights();
    const EditableAttention before = s;
    CHECK(setHeads(s, 3).has_value()); // 4 does not split into 3 heads
    CHECK_EQ(s.config.heads, 2);
    CHECK(sameWeights(s, before));
    CHECK(removeToken(s, 7).has_value());
    CHECK(sameWeights(s, before));
    CHECK_EQ(s.config.tokens.size(), size_t(3));
}

TEST_CASE("accepted edits keep the weights") {
    EditableAttention s = cellWithWeights();
    const EditableAttention before = s;
    CHECK_EQ(setMask(s, MaskKind::Causal), EditRefusal());
    CHECK_EQ(setHeads(s, 4), EditRefusal());
    CHECK_EQ(addToken(s, "d"), EditRefusal());
    CHECK_EQ(moveToken(s, 3, 0), EditRefusal());
    CHECK(s.config.mask == MaskKind::Causal);
    CHECK_EQ(s.config.heads, 4);
    CHECK(same(s.config.wQ.weights, before.config.wQ.weights));
    CHECK(same(s.config.wV.weights, before.config.wV.weights));
    CHECK_EQ(s.config.tokens, (std::vector<std::string>{"d", "a", "b", "c"}));
}

TEST_CASE("entries change in place") {
    EditableAttention s = cellWithWeights();
    // An identity projection is written out, then one entry changes.
    CHECK_EQ(setMatrixEntry(s, "W_K", 1, 2, 0.5), EditRefusal());
    CHECK(!s.config.wK.identity);
    arma::mat expected = arma::eye(4, 4);
    expected(1, 2) = 0.5;
    CHECK(same(s.config.wK.weights, expected));
    // A missing bias is written out as zeros.
    CHECK_EQ(setMatrixEntry(s, "b_V", 0, 3, -1.0), EditRefusal());
    CHECK(same(arma::mat(s.config.bV), arma::mat{{0, 0, 0, -1}}));
    CHECK_EQ(setMatrixEntry(s, "W_Q", 3, 0, 9.0), EditRefusal());
    CHECK_EQ(s.config.wQ.weights(3, 0), 9.0);
    // Refusals name the entry and change nothing.
    const EditableAttention before = s;
    CHECK_EQ(setMatrixEntry(s, "W_Q", 4, 0, 1.0),
             EditRefusal("W_Q has no entry at row 5, column 1"));
    CHECK_EQ(setMatrixEntry(s, "b_Q", 0, 4, 1.0),
             EditRefusal("b_Q has no entry at row 1, column 5"));
    CHECK_EQ(setMatrixEntry(s, "X0", 0, 0, std::nan("")), EditRefusal("the number must be finite"));
    CHECK(sameWeights(s, before));
    CHECK_EQ(editableShape(s, "b_Q"), (std::pair<arma::uword, arma::uword>(1, 4)));
    CHECK_EQ(editableShape(s, "W_O"), (std::pair<arma::uword, arma::uword>(4, 4)));
}

TEST_CASE("projectedBy: the product an entry of each weight and bias feeds") {
    using Projected = AttentionEngine::Projected;
    CHECK(projectedBy("W_Q") == Projected::Q);
    CHECK(projectedBy("b_Q") == Projected::Q);
    CHECK(projectedBy("W_K") == Projected::K);
    CHECK(projectedBy("b_K") == Projected::K);
    CHECK(projectedBy("W_V") == Projected::V);
    CHECK(projectedBy("b_V") == Projected::V);
    CHECK(projectedBy("W_O") == Projected::Output);
    CHECK(projectedBy("b_O") == Projected::Output);
    for (const char* other : {"X0", "P", "W_X", "w_Q", "W_QK", "b_", "", "queries", "b-Q"}) {
        CHECK_FALSE(projectedBy(other));
    }
}
