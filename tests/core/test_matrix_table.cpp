// One matrix of an attention cell as a table (core/present/matrix_table.h), without Qt: the
// key-major head tables read transposed with the mask's blocked entries, delta owned and
// surviving a move, inputs from the editable state, labels, and entries written one way.
#include "core/document/cell_specs.h"
#include "core/live/attention_live_cell.h"
#include "core/math/attention_engine.h"
#include "core/present/matrix_table.h"

#include <doctest/doctest.h>

using namespace attnbook;

namespace {

AttentionCellSpec causalCell() {
    AttentionCellSpec spec;
    AttentionConfig& c = spec.config;
    c.tokens = {"the", "red", "cat"};
    // (3 × 2) token rows
    c.X0 = arma::mat{{1.0, 0.5}, {-0.5, 2.0}, {0.25, -1.0}};
    c.wQ.identity = false;
    c.wQ.weights = arma::mat{{1.0, 0.5}, {0.0, 2.0}}; // (2 × 2)
    c.mask = MaskKind::Causal;
    spec.controls = {"projections"};
    return spec;
}

} // namespace

TEST_CASE("a head's weights table is read key-major, with the mask's blocked entries") {
    const AttentionLiveCell cell(causalCell());
    const AttentionResult r = AttentionEngine().compute(cell.state().config, GradientCheck::Skip);
    const ShownMatrix weights("weights", 0, r, nullptr, cell.state());
    REQUIRE(weights.rows() == r.n);
    REQUIRE(weights.columns() == r.m);
    CHECK(weights.rowLabels() == MatrixRowLabels::Queries);
    CHECK(weights.columnLabels() == MatrixRowLabels::Keys);
    // row 1 (query "red") reading key 0 is column 0 of the key-major (m × n) weights
    CHECK(weights.entry(1, 0) == r.head[0].weightsT(0, 1));
    CHECK(weights.blocked(0, 2)); // causal: "the" cannot read "cat"
    CHECK_FALSE(weights.blocked(2, 0));
    CHECK(weights.entry(0, 2) == 0.0);
    CHECK(weights.entry(9, 9) == 0.0); // outside

    const ShownMatrix scores("scores", 0, r, nullptr, cell.state());
    CHECK(scores.entryText(0, 2, 3) == "−∞");
    CHECK(scores.widestEntry(3) >= 2);

    CHECK(ShownMatrix("weights", 1, r, nullptr, cell.state()).rows() == 0); // no head 1
    CHECK(ShownMatrix("nonsense", 0, r, nullptr, cell.state()).rows() == 0);
    CHECK(isPerHeadMatrix("delta"));
    CHECK_FALSE(isPerHeadMatrix("Q"));
}

TEST_CASE("delta is owned, needs the authored result, and survives a move") {
    AttentionLiveCell cell(causalCell());
    const AttentionResult authored =
        AttentionEngine().compute(cell.state().config, GradientCheck::Skip);
    AttentionConfig changed = cell.state().config;
    changed.wQ.weights(0, 0) = 3.0;
    const AttentionResult now = AttentionEngine().compute(changed, GradientCheck::Skip);
    CHECK(ShownMatrix("delta", 0, now, nullptr, cell.state()).rows() == 0);
    ShownMatrix delta("delta", 0, now, &authored, cell.state());
    const ShownMatrix moved = std::move(delta);
    REQUIRE(moved.rows() == now.n);
    CHECK(moved.entry(2, 1) ==
          doctest::Approx(now.head[0].weightsT(1, 2) - authored.head[0].weightsT(1, 2)));
}

TEST_CASE("an input table comes from the editable state, labelled, written one way") {
    const AttentionLiveCell cell(causalCell());
    const AttentionResult r = AttentionEngine().compute(cell.state().config, GradientCheck::Skip);
    const ShownMatrix wq("W_Q", 0, r, nullptr, cell.state());
    REQUIRE(wq.rows() == 2);
    CHECK(wq.entry(0, 1) == 0.5);
    // One entry is not whole: every entry is written with the digits.
    CHECK(wq.entryText(0, 0, 2) == "1.00");
    CHECK(wq.widestEntry(2) == 4);

    const ShownMatrix x0("X0", 0, r, nullptr, cell.state());
    CHECK(matrixLabels(x0.rowLabels(), 3, r) == std::vector<std::string>{"the", "red", "cat"});
    CHECK(matrixLabels(MatrixRowLabels::Index, 2, r) == std::vector<std::string>{"1", "2"});
    CHECK(matrixLabels(MatrixRowLabels::Bias, 1, r) == std::vector<std::string>{"b"});
}
