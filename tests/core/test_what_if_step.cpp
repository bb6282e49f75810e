// The window's Undo of one what-if (core/document/what_if_step): taking a step back gives the
// cell exactly as it was, for every kind of step, and a step holds no weight matrix unless
// its edit replaced them.
#include "core/document/what_if_step.h"

#include "test_support.h"

#include <string>
#include <utility>

using namespace attnbook;

namespace {

// Three tokens of width 8, W_Q and W_V matrices, W_K and W_O identities.
EditableAttention cellWithWeights() {
    EditableAttention s;
    AttentionConfig& c = s.config;
    c.tokens = {"a", "b", "c"};
    c.X0 = arma::reshape(arma::regspace(1, 24), 3, 8) * 0.25;
    c.wQ.identity = false;
    c.wQ.weights = arma::reshape(arma::regspace(1, 64), 8, 8) * 0.125;
    c.wV.identity = false;
    c.wV.weights = arma::reshape(arma::regspace(-32, 31), 8, 8) * 0.5;
    c.bQ = arma::rowvec(8, arma::fill::ones);
    c.heads = 2;
    return s;
}

bool same(const arma::mat& a, const arma::mat& b) {
    return a.n_rows == b.n_rows && a.n_cols == b.n_cols && arma::all(arma::vectorise(a == b));
}

// Every input the edits can change, weights included, compared exactly.
void requireSameCell(const EditableAttention& a, const EditableAttention& b) {
    CHECK_FALSE(hasChanges(a, b));
    for (const auto& [x, y] :
         {std::pair{&a.config.wQ, &b.config.wQ}, std::pair{&a.config.wK, &b.config.wK},
          std::pair{&a.config.wV, &b.config.wV}, std::pair{&a.config.wO, &b.config.wO}}) {
        CHECK(x->identity == y->identity);
        CHECK(same(x->weights, y->weights));
    }
    CHECK(same(a.config.X0, b.config.X0));
    CHECK(a.config.tokens == b.config.tokens);
}

constexpr std::size_t kWeightBytes = 2 * 64 * sizeof(double);

} // namespace

TEST_CASE("a step back from an edit that leaves the weights alone holds none") {
    const EditableAttention original = cellWithWeights();
    EditableAttention state = original;
    WhatIfStep step = WhatIfStep::beforeEditKeepingWeights(state);
    requireSameCell(state, original); // the weights came back after the copy
    CHECK(step.heldBytes() < kWeightBytes);
    REQUIRE_FALSE(addToken(state, "d"));
    REQUIRE_FALSE(setHeads(state, 4));
    REQUIRE_FALSE(setMatrixEntry(state, "X0", 1, 2, 9.0));
    std::move(step).takeBack(state);
    requireSameCell(state, original);
}

TEST_CASE("a step back from one weight entry holds that entry only") {
    const EditableAttention original = cellWithWeights();
    EditableAttention state = original;
    WhatIfStep step = WhatIfStep::beforeEntryEdit(state, "W_V", 3, 5);
    CHECK(step.heldBytes() < kWeightBytes);
    REQUIRE_FALSE(setMatrixEntry(state, "W_V", 3, 5, 100.0));
    CHECK(state.config.wV.weights(3, 5) == 100.0);
    std::move(step).takeBack(state);
    requireSameCell(state, original);
}

TEST_CASE("a step back from an entry of an identity makes it the identity again") {
    const EditableAttention original = cellWithWeights();
    EditableAttention state = original;
    WhatIfStep step = WhatIfStep::beforeEntryEdit(state, "W_K", 0, 1);
    REQUIRE_FALSE(setMatrixEntry(state, "W_K", 0, 1, -0.5));
    CHECK_FALSE(state.config.wK.identity);
    std::move(step).takeBack(state);
    requireSameCell(state, original);
    CHECK(state.config.wK.identity);
}

TEST_CASE("a step back from an entry of a bias or of X0 holds no weights") {
    const EditableAttention original = cellWithWeights();
    for (const std::string name : {"b_Q", "X0"}) {
        EditableAttention state = original;
        WhatIfStep step = WhatIfStep::beforeEntryEdit(state, name, 0, 2);
        CHECK(step.heldBytes() < kWeightBytes);
        REQUIRE_FALSE(setMatrixEntry(state, name, 0, 2, 7.0));
        std::move(step).takeBack(state);
        requireSameCell(state, original);
    }
}

TEST_CASE("a step back from replacing a weight matrix holds the whole cell") {
    const EditableAttention original = cellWithWeights();
    EditableAttention state = original;
    WhatIfStep step = WhatIfStep::beforeAnyEdit(state);
    CHECK(step.heldBytes() >= kWeightBytes);
    REQUIRE_FALSE(setZero(state, "W_Q"));
    REQUIRE_FALSE(setIdentity(state, "W_V"));
    std::move(step).takeBack(state);
    requireSameCell(state, original);
}

TEST_CASE("steps taken back in reverse order undo a sequence of edits") {
    const EditableAttention original = cellWithWeights();
    EditableAttention state = original;
    WhatIfStep first = WhatIfStep::beforeEntryEdit(state, "W_Q", 2, 2);
    REQUIRE_FALSE(setMatrixEntry(state, "W_Q", 2, 2, -3.0));
    const EditableAttention afterFirst = state;
    WhatIfStep second = WhatIfStep::beforeEditKeepingWeights(state);
    REQUIRE_FALSE(removeToken(state, 0));
    WhatIfStep third = WhatIfStep::beforeEntryEdit(state, "W_Q", 2, 2);
    REQUIRE_FALSE(setMatrixEntry(state, "W_Q", 2, 2, 4.0));
    std::move(third).takeBack(state);
    std::move(second).takeBack(state);
    requireSameCell(state, afterFirst);
    std::move(first).takeBack(state);
    requireSameCell(state, original);
}
