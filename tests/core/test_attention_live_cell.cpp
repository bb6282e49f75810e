// An attention cell's what-ifs without Qt (core/live/attention_live_cell): each edit
// says what it changed, and the incremental recompute from that change (CellComputer::run from
// the previous result) equals a full forward pass; Undo gives the cell back exactly; a refused
// edit changes nothing and leaves no undo step.
#include "core/live/attention_live_cell.h"

#include "core/document/cell_specs.h"
#include "core/live/attention_recompute.h"
#include "core/math/attention_engine.h"

#include "test_support.h"

#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace attnbook;

namespace {

// A cell with a vocab of four words of width d = 4 (so equal tokens share one vector), the
// tokens "the red green red", projections W_Q … W_O (4 × 4) and biases, every control.
AttentionCellSpec vocabCell(std::vector<std::string> controls = {"tokens", "vectors", "heads",
                                                                 "mask", "positional", "scale",
                                                                 "projections"}) {
    AttentionCellSpec spec;
    spec.vocabOrder = {"the", "red", "green", "blue"};
    spec.vocab["the"] = {0.5, -1.0, 0.25, 2.0};
    spec.vocab["red"] = {1.0, 0.0, -0.5, 0.75};
    spec.vocab["green"] = {-0.25, 1.5, 1.0, 0.0};
    spec.vocab["blue"] = {0.0, 0.5, -1.25, 1.0};
    AttentionConfig& c = spec.config;
    c.tokens = {"the", "red", "green", "red"};
    // (n × d) = (4 × 4) the tokens' rows of the vocab
    c.X0.set_size(4, 4);
    for (arma::uword r = 0; r < 4; ++r) {
        c.X0.row(r) = spec.vocab.at(c.tokens[r]);
    }
    // (4 × 4) each W; (1 × 4) each b
    int seed = 1;
    for (Projection* w : {&c.wQ, &c.wK, &c.wV, &c.wO}) {
        w->identity = false;
        w->weights = arma::reshape(arma::regspace(1, 16), 4, 4) * (0.05 * seed) - 0.3;
        w->weights.diag() += 0.5;
        ++seed;
    }
    c.bQ = {0.1, -0.2, 0.0, 0.3};
    c.bK = {0.0, 0.4, -0.1, 0.2};
    c.bV = {-0.3, 0.1, 0.2, 0.0};
    c.bO = {0.05, 0.0, -0.05, 0.1};
    spec.controls = std::move(controls);
    return spec;
}

bool same(const arma::mat& a, const arma::mat& b) {
    return a.n_rows == b.n_rows && a.n_cols == b.n_cols && arma::all(arma::vectorise(a == b));
}

// Every input an edit can change, compared exactly.
void requireSameState(const EditableAttention& a, const EditableAttention& b) {
    CHECK_FALSE(hasChanges(a, b));
    const AttentionConfig& x = a.config;
    const AttentionConfig& y = b.config;
    CHECK(x.tokens == y.tokens);
    CHECK(same(x.X0, y.X0));
    for (const auto& [p, q] : {std::pair{&x.wQ, &y.wQ}, std::pair{&x.wK, &y.wK},
                               std::pair{&x.wV, &y.wV}, std::pair{&x.wO, &y.wO}}) {
        CHECK(p->identity == q->identity);
        CHECK(same(p->weights, q->weights));
    }
    for (const auto& [p, q] : {std::pair{&x.bQ, &y.bQ}, std::pair{&x.bK, &y.bK},
                               std::pair{&x.bV, &y.bV}, std::pair{&x.bO, &y.bO}}) {
        CHECK(same(*p, *q));
    }
    CHECK(x.heads == y.heads);
    CHECK(x.mask == y.mask);
    CHECK(x.padding == y.padding);
    CHECK(x.positional == y.positional);
    CHECK(x.scaleKind == y.scaleKind);
    CHECK(x.scaleDivisor == y.scaleDivisor);
    CHECK(x.focus == y.focus);
    CHECK(a.vocabOrder == b.vocabOrder);
    REQUIRE(a.vocab.size() == b.vocab.size());
    for (const auto& [word, vector] : a.vocab) {
        REQUIRE(b.vocab.count(word) == 1);
        CHECK(same(vector, b.vocab.at(word)));
    }
}

// |a − b| ≤ 1e-12 · max(1, |b|) everywhere, and −∞ exactly where the other has −∞; "" when so.
std::string differs(const arma::mat& a, const arma::mat& b, const std::string& name) {
    if (a.n_rows != b.n_rows || a.n_cols != b.n_cols) {
        return name + ": shapes differ";
    }
    for (arma::uword i = 0; i < a.n_elem; ++i) {
        const double p = a(i), q = b(i);
        if ((std::isinf(p) || std::isinf(q))
                ? p != q
                : !(std::abs(p - q) <= 1e-12 * std::max(1.0, std::abs(q)))) {
            return name + "[" + std::to_string(i) + "]: " + std::to_string(p) + " against " +
                   std::to_string(q);
        }
    }
    return "";
}

// Every table the views read, of the incremental result against a full forward pass; the focus
// too unless the numbers were not recomputed (the views read it from the state).
std::string compareResults(const AttentionResult& a, const AttentionResult& b,
                           bool compareFocus = true) {
    const std::pair<const char*, const arma::mat AttentionResult::*> tables[] = {
        {"X0", &AttentionResult::X0}, {"X", &AttentionResult::X},
        {"Q", &AttentionResult::Q},   {"K", &AttentionResult::K},
        {"V", &AttentionResult::V},   {"output", &AttentionResult::output}};
    for (const auto& [name, member] : tables) {
        if (std::string why = differs(a.*member, b.*member, name); !why.empty()) {
            return why;
        }
    }
    if (a.head.size() != b.head.size()) {
        return std::to_string(a.head.size()) + " heads against " + std::to_string(b.head.size());
    }
    for (size_t h = 0; h < a.head.size(); ++h) {
        for (const auto& [name, member] : {std::pair{"scores", &HeadResult::scoresT},
                                           std::pair{"weights", &HeadResult::weightsT},
                                           std::pair{"context", &HeadResult::context}}) {
            if (std::string why = differs(a.head[h].*member, b.head[h].*member, name);
                !why.empty()) {
                return "head " + std::to_string(h) + ": " + why;
            }
        }
    }
    if (a.tokens != b.tokens || (compareFocus && a.focus != b.focus) || a.scale != b.scale) {
        return "labels, focus or scale differ";
    }
    return "";
}

// A live cell with its recompute, as the window runs it inline.
struct LiveHarness {
    explicit LiveHarness(const AttentionCellSpec& spec) : cell(spec) {
        recompute(CellChange::everything());
    }

    // The recompute of `change` from the previous result; the outcome is the new result. As in
    // the window, a change of nothing the numbers depend on computes nothing.
    void recompute(const CellChange& change) {
        if (change.kind == CellChange::Kind::Nothing) {
            return;
        }
        RecomputeJob job;
        job.state = std::make_shared<const EditableAttention>(cell.state());
        job.authored = cell.authored();
        job.base = result;
        job.change = change;
        RecomputeOutcome outcome = computer.run(job, std::make_shared<AttentionResult>());
        REQUIRE_FALSE(outcome.error.has_value());
        result = outcome.result;
    }

    // Applies `edit`, expects it applied with a change of `kind`, recomputes from that change
    // and compares with a full forward pass of the state.
    void check(const std::string& name, const LiveEdit& edit, CellChange::Kind kind) {
        INFO("edit: " << name);
        REQUIRE_MESSAGE(edit.applied(), edit.refused);
        CHECK(int(edit.change.kind) == int(kind));
        recompute(edit.change);
        const AttentionResult full =
            AttentionEngine().compute(cell.state().config, GradientCheck::Skip);
        CHECK_EQ(compareResults(*result, full, kind != CellChange::Kind::Nothing), "");
    }

    AttentionLiveCell cell;
    CellComputer computer;
    std::shared_ptr<const AttentionResult> result;
};

using Kind = CellChange::Kind;

} // namespace

TEST_CASE("after every kind of edit the incremental recompute equals a full forward pass") {
    LiveHarness live(vocabCell());
    // "red" is tokens 1 and 3: its vector is both rows.
    const LiveEdit red = live.cell.setMatrixEntry("X0", 1, 2, 0.7);
    CHECK(red.change.rows == std::vector<int>{1, 3});
    live.check("X0 of a shared word", red, Kind::Rows);
    const LiveEdit wQ = live.cell.setMatrixEntry("W_Q", 2, 1, -0.3);
    CHECK(wQ.change.projected == AttentionEngine::Projected::Q);
    CHECK(wQ.change.column == 2); // row 2 of W_Q is column 2 of Q
    live.check("W_Q entry", wQ, Kind::Column);
    const LiveEdit bV = live.cell.setMatrixEntry("b_V", 0, 3, 0.25);
    CHECK(bV.change.projected == AttentionEngine::Projected::V);
    CHECK(bV.change.column == 3);
    live.check("b_V entry", bV, Kind::Column);
    live.check("W_O entry", live.cell.setMatrixEntry("W_O", 1, 0, 0.9), Kind::Column);
    live.check("W_K entry", live.cell.setMatrixEntry("W_K", 3, 3, -1.1), Kind::Column);
    live.check("heads", live.cell.setHeads(2), Kind::Attention);
    live.check("mask", live.cell.setMask(MaskKind::Causal), Kind::Attention);
    live.check("padding", live.cell.setPadding(2, true), Kind::Attention);
    live.check("scale", live.cell.setScale(ScaleKind::Divisor, 3.0), Kind::Attention);
    live.check("positional", live.cell.setPositional(PositionalKind::Sinusoidal), Kind::Everything);
    const LiveEdit rename = live.cell.renameToken(0, "blue");
    CHECK(rename.change.rows == std::vector<int>{0});
    live.check("rename", rename, Kind::Rows);
    live.check("add token", live.cell.addToken("green"), Kind::Everything);
    live.check("move token", live.cell.moveToken(0, 2), Kind::Everything);
    live.check("remove token", live.cell.removeToken(1), Kind::Everything);
    live.check("identity", live.cell.setIdentity("W_K"), Kind::Everything);
    live.check("zero", live.cell.setZero("b_Q"), Kind::Everything);
    live.check("focus", live.cell.setFocus(1), Kind::Nothing);
    CHECK(live.cell.undoDepth() == 17);
}

TEST_CASE("without a vocab an edit of X0 changes its own row only") {
    AttentionCellSpec spec = vocabCell();
    spec.vocab.clear();
    spec.vocabOrder.clear();
    LiveHarness live(spec);
    const LiveEdit edit = live.cell.setMatrixEntry("X0", 1, 0, -2.0);
    CHECK(edit.change.rows == std::vector<int>{1}); // token 3 is "red" too, but its own row
    live.check("X0 row", edit, Kind::Rows);
}

TEST_CASE("undo after a chain of edits restores the authored cell exactly") {
    LiveHarness live(vocabCell());
    const std::shared_ptr<const AttentionResult> authoredResult = live.result;
    AttentionLiveCell& cell = live.cell;
    REQUIRE(cell.setMatrixEntry("X0", 1, 2, 0.7).applied());
    REQUIRE(cell.setMatrixEntry("W_V", 0, 3, 5.0).applied());
    REQUIRE(cell.setHeads(2).applied());
    const EditableAttention afterThree = cell.state();
    REQUIRE(cell.setMask(MaskKind::Causal).applied());
    REQUIRE(cell.setPadding(0, true).applied());
    REQUIRE(cell.addToken("orange").applied()); // joins the vocab as a zero vector
    REQUIRE(cell.setIdentity("W_Q").applied());
    REQUIRE(cell.setZero("W_O").applied());
    REQUIRE(cell.setPositional(PositionalKind::Sinusoidal).applied());
    REQUIRE(cell.setFocus(2).applied());
    REQUIRE(cell.undoDepth() == 10);

    // The stamps grow with every edit: the latest is the one Undo takes back.
    const std::int64_t latest = cell.latestStamp();
    for (int i = 0; i < 7; ++i) {
        const std::optional<CellChange> change = cell.undo();
        REQUIRE(change.has_value());
        live.recompute(*change);
        CHECK(cell.latestStamp() < latest);
    }
    requireSameState(cell.state(), afterThree);
    while (const std::optional<CellChange> change = cell.undo()) {
        live.recompute(*change);
    }
    CHECK_FALSE(cell.canUndo());
    CHECK(cell.latestStamp() == 0);
    requireSameState(cell.state(), *cell.authored());
    CHECK(cell.state().vocab.count("orange") == 0);
    CHECK_EQ(compareResults(*live.result, *authoredResult), "");
    CHECK(live.result->output(0, 0) == authoredResult->output(0, 0)); // bit for bit
}

TEST_CASE("a refused edit changes nothing and is not on the undo stack") {
    LiveHarness live(vocabCell({"tokens", "vectors", "heads"}));
    AttentionLiveCell& cell = live.cell;
    REQUIRE(cell.setHeads(2).applied());
    const EditableAttention before = cell.state();
    const std::int64_t stamp = cell.latestStamp();
    const std::uint64_t weights = cell.weightsVersion();

    const auto refused = [&](const std::string& name, const LiveEdit& edit,
                             const std::string& reason) {
        INFO("edit: " << name);
        CHECK_FALSE(edit.applied());
        if (!reason.empty()) {
            CHECK_EQ(edit.refused, reason);
        }
        CHECK(int(edit.change.kind) == int(Kind::Nothing));
        requireSameState(cell.state(), before);
        CHECK(cell.undoDepth() == 1);
        CHECK(cell.latestStamp() == stamp);
        CHECK(cell.weightsVersion() == weights);
    };
    refused("projection without the control", cell.setMatrixEntry("W_Q", 0, 0, 1.0),
            "this lesson keeps W_Q fixed in this cell");
    refused("identity without the control", cell.setIdentity("W_K"),
            "this lesson keeps the projections fixed in this cell");
    refused("zero without the control", cell.setZero("W_V"),
            "this lesson keeps the projections fixed in this cell");
    // Refused by the edits of editable_attention.h, with their own words.
    refused("heads", cell.setHeads(3), ""); // 4 does not split into 3
    refused("remove", cell.removeToken(9), "");
    refused("focus", cell.setFocus(7), "");
    refused("entry outside the matrix", cell.setMatrixEntry("X0", 9, 0, 1.0), "");

    // Undo takes back the one applied edit, not a refused one.
    REQUIRE(cell.undo().has_value());
    requireSameState(cell.state(), *cell.authored());
    CHECK_FALSE(cell.undo().has_value());
}

TEST_CASE("an edit whose numbers cannot be computed is taken back off the undo steps") {
    LiveHarness live(vocabCell());
    AttentionLiveCell& cell = live.cell;
    const EditableAttention before = cell.state();
    REQUIRE(cell.setMatrixEntry("W_Q", 0, 0, 1e300).applied());
    REQUIRE(cell.undoDepth() == 1);
    cell.refuseLatest();
    CHECK_FALSE(cell.canUndo());
    requireSameState(cell.state(), before);
}

TEST_CASE("undo keeps the latest steps only") {
    LiveHarness live(vocabCell());
    AttentionLiveCell& cell = live.cell;
    for (size_t i = 0; i <= AttentionLiveCell::kUndoSteps; ++i) {
        REQUIRE(cell.setFocus(int((i + 1) % 4)).applied());
    }
    CHECK(cell.undoDepth() == AttentionLiveCell::kUndoSteps);
}
