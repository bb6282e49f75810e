// The worked numbers of attention.md, pinned, and every rule of its "Details
// that settle edge cases": scale, blocked rows, extreme scores, overflow. Each way
// resolveShapes refuses a configuration is in test_attention_spec_refusals.cpp.
// One case per worked number and per rule of the spec, in the spec's order, so a reader can
// check them side by side.
#include "core/math/attention_engine.h"
#include "core/math/attention_shapes.h"
#include "core/math/positional_encoding.h"

#include "test_support.h"

#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>

using namespace attnbook;
using attnbook::test::fuzzy;

namespace {

// Tokens red, blue, red (attention.md, "Worked numbers"): n = 3, d = 4.
AttentionConfig colourExample() {
    AttentionConfig c;
    c.tokens = {"red", "blue", "red"};
    c.X0 = {{1, 0, 0, 0}, {0, 1, 0, 0}, {1, 0, 0, 0}};
    return c;
}

// The pronoun example: one query reads six keys, scaling off.
//   queries (1 × 2), keys (6 × 2), values (6 × 2)
AttentionConfig pronounExample() {
    AttentionConfig c;
    c.direct = true;
    c.scaleKind = ScaleKind::Off;
    c.queries = {{2, -1}};
    c.keys = {{0, 2}, {0.5, 0}, {2, 0}, {0, 0}, {1, 0}, {0.5, 0}};
    c.values = {{0, 1}, {0, 0}, {1, 0}, {0, 0}, {0.5, 0}, {0, 0}};
    return c;
}

// One query (1 × 1) against keys (m × 1) with scaling off: the scores are the
// keys themselves, so a test can place any score it likes.
AttentionConfig scoresExample(const std::vector<double>& scores) {
    AttentionConfig c;
    c.direct = true;
    c.scaleKind = ScaleKind::Off;
    c.queries = arma::mat(1, 1, arma::fill::ones);
    c.keys = arma::mat(scores);                     // (m × 1)
    c.values = arma::linspace(0, 1, scores.size()); // (m × 1)
    return c;
}

// All 17 digits, as %.17g.
std::string precise(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", value);
    return text;
}

bool expectNear(const arma::mat& actual, const arma::mat& expected, double tolerance) {
    if (actual.n_rows != expected.n_rows || actual.n_cols != expected.n_cols) {
        MESSAGE("shape " << actual.n_rows << " × " << actual.n_cols << ", expected "
                         << expected.n_rows << " × " << expected.n_cols);
        return false;
    }
    for (arma::uword r = 0; r < expected.n_rows; ++r) {
        for (arma::uword c = 0; c < expected.n_cols; ++c) {
            if (!(std::abs(actual(r, c) - expected(r, c)) <= tolerance)) {
                MESSAGE("(" << r << ", " << c << "): " << precise(actual(r, c)) << ", expected "
                            << precise(expected(r, c)));
                return false;
            }
        }
    }
    return true;
}

bool allFinite(const arma::mat& m) {
    return m.is_finite();
}

// Every number a cell reports except the scores (where blocked means -inf).
bool noNaNAnywhere(const AttentionResult& r) {
    const AttentionGradients& g = r.grad;
    const arma::mat* matrices[] = {&r.X0,     &r.P,      &r.X,        &r.Q,    &r.K,     &r.V,
                                   &r.concat, &r.output, &g.upstream, &g.X,    &g.W_Q,   &g.W_K,
                                   &g.W_V,    &g.W_O,    &g.queries,  &g.keys, &g.values};
    for (const arma::mat* m : matrices) {
        if (!allFinite(*m)) {
            return false;
        }
    }
    const arma::rowvec* biases[] = {&g.b_Q, &g.b_K, &g.b_V, &g.b_O};
    for (const arma::rowvec* b : biases) {
        if (!b->is_finite()) {
            return false;
        }
    }
    for (const HeadResult& head : r.head) {
        if (!allFinite(head.weightsT) || !allFinite(head.context) || head.scoresT.has_nan()) {
            return false;
        }
    }
    return std::isfinite(r.gradcheck.maxRelError);
}

// The norm-wise gradient check (attention.md) passes below 1e-6.
bool gradientCheckPasses(const AttentionResult& r) {
    if (!r.gradcheck.passed()) {
        MESSAGE("max_rel_error " << r.gradcheck.maxRelError);
        return false;
    }
    return true;
}

bool hasWarning(const AttentionResult& r, int head, int row) {
    for (const AttentionWarning& w : r.warnings) {
        if (w.code == "blocked-row" && w.head == head && w.row == row) {
            return true;
        }
    }
    return false;
}

// Checks a fully blocked row everywhere it shows: shares, context, warning.
bool rowIsBlocked(const AttentionResult& r, int head, int row) {
    const HeadResult& h = r.head[size_t(head)];
    for (arma::uword c = 0; c < arma::uword(r.m); ++c) {
        if (h.weight(arma::uword(row), c) != 0.0 || !h.blocked(arma::uword(row), c)) {
            return false;
        }
    }
    for (arma::uword c = 0; c < h.context.n_cols; ++c) {
        if (h.context(arma::uword(row), c) != 0.0) {
            return false;
        }
    }
    return hasWarning(r, head, row);
}

// The refusal of a cell whose numbers overflow, or a key of "<computed>"
// when it computes (then with no NaN anywhere, or a key of "<NaN>").
ConfigError overflowError(const AttentionConfig& config) {
    try {
        const AttentionResult r = AttentionEngine().compute(config);
        return ConfigError{noNaNAnywhere(r) ? "<computed>" : "<NaN>", "", -1, -1};
    } catch (const InvalidConfig& e) {
        return e.error();
    }
}

} // namespace

// --- Worked numbers -------------------------------------------------

TEST_CASE("oneHead") {
    const AttentionResult r = AttentionEngine().compute(colourExample());
    CHECK_EQ(r.scale, fuzzy(0.5));
    CHECK(expectNear(r.head[0].weights(),
                     {{0.3837, 0.2327, 0.3837}, {0.2741, 0.4519, 0.2741}, {0.3837, 0.2327, 0.3837}},
                     5e-5));
    CHECK(expectNear(
        r.output, {{0.7673, 0.2327, 0, 0}, {0.5481, 0.4519, 0, 0}, {0.7673, 0.2327, 0, 0}}, 5e-5));
    // Identity projections, no positional encoding: Q = K = V = X = X0, and
    // with W_O identity Y = C.
    CHECK(expectNear(r.P, arma::mat(3, 4, arma::fill::zeros), 0));
    CHECK(expectNear(r.Q, colourExample().X0, 0));
    CHECK(expectNear(r.output, r.concat, 0));
    CHECK(r.warnings.empty());
    CHECK(gradientCheckPasses(r));
}

TEST_CASE("oneHeadExactly") {
    // Scores 0.5·q·k: red·red = 1, red·blue = 0. So the red row's shares are
    // e^½ : 1 : e^½ and the blue row's 1 : e^½ : 1.
    const AttentionResult r = AttentionEngine().compute(colourExample());
    const double e = std::exp(0.5);
    const double red = e / (2 * e + 1), blue = 1 / (2 * e + 1);
    CHECK(expectNear(r.head[0].scores(), {{0.5, 0, 0.5}, {0, 0.5, 0}, {0.5, 0, 0.5}}, 0));
    CHECK(expectNear(r.head[0].weights(),
                     {{red, blue, red}, {1 / (e + 2), e / (e + 2), 1 / (e + 2)}, {red, blue, red}},
                     1e-15));
}

TEST_CASE("twoHeads") {
    AttentionConfig c = colourExample();
    c.heads = 2;
    const AttentionResult r = AttentionEngine().compute(c);
    CHECK_EQ(r.dK, 2);
    CHECK_EQ(r.dV, 2);
    CHECK_EQ(r.scale, fuzzy(1 / std::sqrt(2.0)));
    // Head one reads columns 0–1 (red vs blue); head two reads the zero columns 2–3.
    CHECK(expectNear(r.head[0].weights().row(0), {{0.4011, 0.1978, 0.4011}}, 5e-5));
    CHECK(expectNear(r.head[1].weights(), arma::mat(3, 3).fill(1.0 / 3), 1e-15));
    CHECK(expectNear(r.output.row(0), {{0.8022, 0.1978, 0, 0}}, 5e-5));
    CHECK(expectNear(r.output.row(2), {{0.8022, 0.1978, 0, 0}}, 5e-5));
    CHECK(expectNear(r.head[1].context, arma::mat(3, 2, arma::fill::zeros), 0));
    CHECK(gradientCheckPasses(r));
}

TEST_CASE("causal") {
    AttentionConfig c = colourExample();
    c.mask = MaskKind::Causal;
    const AttentionResult r = AttentionEngine().compute(c);
    CHECK(expectNear(r.head[0].weights(),
                     {{1, 0, 0}, {0.3775, 0.6225, 0}, {0.3837, 0.2327, 0.3837}}, 5e-5));
    // Row r reads columns c ≤ r: the rest are blocked (−∞, exactly 0 shares).
    for (arma::uword row = 0; row < 3; ++row) {
        for (arma::uword col = 0; col < 3; ++col) {
            CHECK_EQ(r.head[0].blocked(row, col), col > row);
        }
    }
    CHECK_EQ(r.head[0].weight(0, 1), 0.0); // exactly, as blocked
    CHECK_EQ(r.head[0].score(1, 2), -arma::datum::inf);
    CHECK(r.warnings.empty());
    CHECK(gradientCheckPasses(r));
}

TEST_CASE("positionalInputs") {
    AttentionConfig c = colourExample();
    c.positional = PositionalKind::Sinusoidal;
    const AttentionResult r = AttentionEngine().compute(c);
    CHECK(expectNear(r.X.row(0), {{1, 1, 0, 1}}, 0));
    CHECK(expectNear(r.X.row(2), {{1.9093, -0.4161, 0.0200, 0.9998}}, 5e-5));
    // The literal formula: P[2][2] = sin(2 / 10000^(2/4)) = sin(0.02).
    CHECK_EQ(r.P(2, 2), fuzzy(std::sin(0.02)));
    CHECK_EQ(r.P(2, 3), fuzzy(std::cos(0.02)));
    CHECK_EQ(r.P(1, 0), fuzzy(std::sin(1.0)));
    CHECK(expectNear(r.X, r.X0 + r.P, 0));
    // The red rows of A.
    CHECK(expectNear(r.head[0].weights().row(0), {{0.3349, 0.4053, 0.2599}}, 5e-5));
    CHECK(expectNear(r.head[0].weights().row(2), {{0.2013, 0.1547, 0.6440}}, 5e-5));
    CHECK(gradientCheckPasses(r));
}

TEST_CASE("sinusoidalOddWidth") {
    // With d = 5 the last column is the sine of pair i = 2: sin(pos / 10000^(4/5)).
    const arma::mat p = sinusoidalEncoding(4, 5);
    CHECK_EQ(p(3, 4), fuzzy(std::sin(3 / std::pow(10000.0, 0.8))));
    CHECK_EQ(p(3, 3), fuzzy(std::cos(3 / std::pow(10000.0, 0.4))));
    CHECK_EQ(p(0, 1), fuzzy(1.0));
}

TEST_CASE("learnedPositional") {
    AttentionConfig c = colourExample();
    c.positional = PositionalKind::Learned;
    c.learnedP = arma::mat(3, 4, arma::fill::zeros);
    c.learnedP(1, 3) = 2.5;
    const AttentionResult r = AttentionEngine().compute(c);
    CHECK(expectNear(r.P, c.learnedP, 0));
    CHECK_EQ(r.X(1, 3), fuzzy(2.5));
    CHECK(expectNear(r.X0, c.X0, 0));
}

TEST_CASE("pronoun") {
    const AttentionResult r = AttentionEngine().compute(pronounExample());
    CHECK(r.direct);
    CHECK_EQ(r.n, 1);
    CHECK_EQ(r.m, 6);
    CHECK_EQ(r.h, 1);
    CHECK_EQ(r.dO, 2);
    CHECK_EQ(r.scale, fuzzy(1.0));
    CHECK((r.X0.is_empty() && r.P.is_empty() && r.X.is_empty()));
    CHECK(expectNear(r.head[0].scores(), {{-2, 1, 4, 0, 2, 1}}, 0));
    double sum = 0;
    for (const double s : {-2, 1, 4, 0, 2, 1}) {
        sum += std::exp(s);
    }
    CHECK(std::abs(sum - 68.56) < 5e-3);
    CHECK(std::abs(r.head[0].weight(0, 2) - 0.80) < 5e-3); // "soup"
    CHECK_EQ(r.head[0].weight(0, 2), fuzzy(std::exp(4.0) / sum));
    CHECK(expectNear(r.output, {{0.85, 0.00}}, 5e-3));
    CHECK(expectNear(r.output, r.concat, 0));
    // grad covers queries, keys, values; projection gradients are absent.
    CHECK_EQ(r.grad.queries.n_rows, 1u);
    CHECK_EQ(r.grad.keys.n_rows, 6u);
    CHECK_EQ(r.grad.values.n_cols, 2u);
    CHECK((r.grad.X.is_empty() && r.grad.W_Q.is_empty() && r.grad.b_O.is_empty()));
    // L = ΣY: ∂L/∂V row c = share c in each column.
    CHECK(expectNear(r.grad.values.col(0), r.head[0].weights().t(), 1e-15));
    CHECK(r.gradcheck.passed());
}

// --- Scale ----------------------------------------------------------

TEST_CASE("scaleValues") {
    AttentionConfig c = colourExample();
    CHECK_EQ(resolveShapes(c, {}).scale, fuzzy(0.5)); // 1/√4
    c.heads = 4;
    CHECK_EQ(resolveShapes(c, {}).scale, fuzzy(1.0)); // 1/√1
    c.heads = 1;
    c.dK = 3;
    c.wQ = Projection{false, arma::mat(3, 4, arma::fill::ones)};
    c.wK = c.wQ;
    CHECK_EQ(resolveShapes(c, {}).scale, fuzzy(1 / std::sqrt(3.0)));
    c.scaleKind = ScaleKind::Off;
    CHECK_EQ(resolveShapes(c, {}).scale, fuzzy(1.0));
    c.scaleKind = ScaleKind::Divisor;
    c.scaleDivisor = 2.5;
    CHECK_EQ(resolveShapes(c, {}).scale, fuzzy(1 / 2.5));
    c.scaleDivisor = 1e-3; // any finite c > 0
    CHECK_EQ(resolveShapes(c, {}).scale, fuzzy(1000.0));
    // Direct mode: d_k from the query width over h.
    AttentionConfig p = pronounExample();
    p.scaleKind = ScaleKind::InverseSqrtDk;
    CHECK_EQ(resolveShapes(p, {}).scale, fuzzy(1 / std::sqrt(2.0)));
    p.heads = 2;
    CHECK_EQ(resolveShapes(p, {}).scale, fuzzy(1.0));
}

TEST_CASE("scaleMultipliesScores") {
    AttentionConfig c = colourExample();
    c.scaleKind = ScaleKind::Divisor;
    c.scaleDivisor = 4;
    AttentionResult r = AttentionEngine().compute(c);
    CHECK_EQ(r.scale, fuzzy(0.25));
    CHECK_EQ(r.head[0].score(0, 0), fuzzy(0.25));
    c.scaleKind = ScaleKind::Off;
    r = AttentionEngine().compute(c);
    CHECK_EQ(r.head[0].score(0, 2), fuzzy(1.0));
    CHECK_EQ(r.head[0].score(0, 1), fuzzy(0.0));
    CHECK(gradientCheckPasses(r));
}

// --- Fully blocked rows ----------------------------------------------

TEST_CASE("paddingEveryToken") {
    AttentionConfig c = colourExample();
    c.heads = 2;
    c.padding = {true, true, true};
    c.bO = {0.5, -1, 0, 2};
    const AttentionResult r = AttentionEngine().compute(c);
    REQUIRE_EQ(r.warnings.size(), size_t(6)); // every row of both heads
    for (int head = 0; head < 2; ++head) {
        for (int row = 0; row < 3; ++row) {
            CHECK_MESSAGE(rowIsBlocked(r, head, row), "head " << head << " row " << row);
        }
    }
    const AttentionWarning& w = r.warnings.back();
    CHECK_EQ(w.code, std::string("blocked-row"));
    CHECK(w.message.find("row 2") != std::string::npos);
    CHECK(w.message.find("red") != std::string::npos);
    // C = 0, so Y = b_O, and nothing upstream of C sees a gradient.
    CHECK(expectNear(r.concat, arma::mat(3, 4, arma::fill::zeros), 0));
    CHECK(expectNear(r.output, arma::repmat(arma::mat(c.bO), 3, 1), 0));
    CHECK(expectNear(r.grad.X, arma::mat(3, 4, arma::fill::zeros), 0));
    CHECK(expectNear(r.grad.W_Q, arma::mat(4, 4, arma::fill::zeros), 0));
    CHECK(noNaNAnywhere(r));
    CHECK(gradientCheckPasses(r));
}

TEST_CASE("paddingOneTokenBlocksItsColumn") {
    AttentionConfig c = colourExample();
    c.padding = {false, true, false};
    const AttentionResult r = AttentionEngine().compute(c);
    CHECK(r.warnings.empty());
    for (arma::uword row = 0; row < 3; ++row) {
        CHECK(r.head[0].blocked(row, 1));
        CHECK_EQ(r.head[0].weight(row, 1), fuzzy(0.0));
        // Its own row is still computed: red and red share equally.
        CHECK_EQ(r.head[0].weight(row, 0), fuzzy(0.5));
    }
    CHECK(gradientCheckPasses(r));
}

TEST_CASE("paddingWithCausal") {
    AttentionConfig c = colourExample();
    c.mask = MaskKind::Causal;
    c.padding = {true, false, false}; // row 0 may read only column 0, which is padding
    const AttentionResult r = AttentionEngine().compute(c);
    CHECK_EQ(r.warnings.size(), size_t(1));
    CHECK(rowIsBlocked(r, 0, 0));
    CHECK_EQ(r.head[0].weight(1, 1), fuzzy(1.0));
    CHECK(noNaNAnywhere(r));
    CHECK(gradientCheckPasses(r));
}

TEST_CASE("causalDirectWithFewerKeys") {
    // n = 4 queries, m = 2 keys: query r sits at position m − n + r = r − 2,
    // so rows 0 and 1 read nothing, row 2 reads key 0, row 3 reads keys 0–1.
    AttentionConfig c;
    c.direct = true;
    c.heads = 2;
    c.mask = MaskKind::Causal;
    c.queries = {{1, 2, 0, 1}, {0, 1, 1, 0}, {2, 0, 1, 1}, {1, 1, -1, 0}};
    c.keys = {{1, 0, 0, 1}, {0, 1, 2, 0}};
    c.values = {{1, 2}, {3, 4}};
    c.upstream = arma::mat{{1, -2}, {0.5, 3}, {2, 1}, {-1, 0.25}};
    const AttentionResult r = AttentionEngine().compute(c);
    CHECK_EQ(r.warnings.size(), size_t(4));
    for (int head = 0; head < 2; ++head) {
        CHECK(rowIsBlocked(r, head, 0));
        CHECK(rowIsBlocked(r, head, 1));
        CHECK_EQ(r.head[size_t(head)].weight(2, 0), fuzzy(1.0));
        CHECK(r.head[size_t(head)].blocked(2, 1));
        CHECK(!r.head[size_t(head)].blocked(3, 1));
    }
    CHECK(expectNear(r.grad.queries.rows(0, 1), arma::mat(2, 4, arma::fill::zeros), 0));
    CHECK(noNaNAnywhere(r));
    CHECK(r.gradcheck.passed());
}

TEST_CASE("causalDirectWithMoreKeys") {
    // n = 2 queries over m = 5 keys: row 0 sits at position 3 and reads keys 0–3.
    AttentionConfig c = scoresExample({0, 0, 0, 0, 0});
    c.queries = arma::mat(2, 1, arma::fill::ones);
    c.mask = MaskKind::Causal;
    const AttentionResult r = AttentionEngine().compute(c);
    CHECK(r.warnings.empty());
    CHECK_EQ(r.head[0].weight(0, 3), fuzzy(0.25));
    CHECK(r.head[0].blocked(0, 4));
    CHECK_EQ(r.head[0].weight(1, 4), fuzzy(0.2));
}

TEST_CASE("blockedRowsRecomputedInPlace") {
    // A result reused after a blocked computation carries nothing stale over.
    AttentionEngine engine;
    AttentionResult r;
    AttentionConfig c = colourExample();
    c.padding = {true, true, true};
    engine.compute(c, r);
    CHECK_EQ(r.warnings.size(), size_t(3));
    c.padding.clear();
    engine.compute(c, r);
    CHECK(r.warnings.empty());
    CHECK(expectNear(r.output.row(0), {{0.7673, 0.2327, 0, 0}}, 5e-5));
}

// --- Extreme scores ----------------------------------------------------

TEST_CASE("extremeScores") {
    const std::vector<std::vector<double>> cases = {
        {1e4, -1e4, 0},
        {-1e4, -1e4, -1e4},
        {1e4, 1e4 - 1, 1e4 - 700},
        {0, -740, -744.5, -745.2, -1e4}, // shares fall into subnormals and to 0
        {-1e4, 1e4},
        {1e300, 1e300 - 1e290, -1e300},
    };
    for (const std::vector<double>& scores : cases) {
        const AttentionResult r = AttentionEngine().compute(scoresExample(scores));
        const arma::mat a = r.head[0].weights();
        CHECK(a.is_finite());
        CHECK(std::abs(arma::accu(a) - 1.0) <= 1e-12);
        CHECK(a.min() >= 0.0);
        CHECK(noNaNAnywhere(r));
        CHECK(r.warnings.empty());
    }
    // A subnormal share is kept, not flushed: exp(−740) ≈ 4.2e−322.
    const AttentionResult r = AttentionEngine().compute(scoresExample({0, -740}));
    CHECK(r.head[0].weight(0, 1) > 0.0);
    CHECK(r.head[0].weight(0, 1) < std::numeric_limits<double>::min());
    CHECK_EQ(r.head[0].weight(0, 0), fuzzy(1.0));
}

TEST_CASE("extremeScoresThroughProjections") {
    // Large token vectors make scores of ±1e4 after the projections.
    AttentionConfig c = colourExample();
    c.X0 *= 200; // red·red / 2 = 2e4
    c.X0(1, 1) = -200;
    c.upstream = arma::mat(3, 4, arma::fill::randu);
    const AttentionResult r = AttentionEngine().compute(c);
    for (arma::uword row = 0; row < 3; ++row) {
        CHECK(std::abs(arma::accu(r.head[0].weights().row(row)) - 1.0) <= 1e-12);
    }
    CHECK(noNaNAnywhere(r));
}

TEST_CASE("overflowIsRefusedNotNaN") {
    // Finite inputs whose products overflow: q·k = 1e200·1e200 − 1e200·1e200
    // is ∞ − ∞ in doubles. The cell must refuse, not show NaN shares.
    AttentionConfig c;
    c.direct = true;
    c.queries = {{1e200, 1e200}};
    c.keys = {{1e200, -1e200}, {0, 0}};
    c.values = {{1, 0}, {0, 1}};
    const ConfigError nan = overflowError(c);
    CHECK_EQ(nan.key, std::string("queries"));
    CHECK_EQ(nan.row, 0);
    // All scores +∞; one score −∞ among finite ones.
    c.keys = {{1e200, 1e200}, {0, 0}};
    CHECK_EQ(overflowError(c).key, std::string("queries"));
    c.keys = {{-1e200, -1e200}, {0, 0}};
    CHECK_EQ(overflowError(c).key, std::string("queries"));
    // Finite scores, but the values times the upstream overflow in G_A.
    c.keys = {{1, 0}, {0, 1}};
    c.values = {{1e300, -1e300}, {1e300, 1e300}};
    c.upstream = arma::mat{{1e300, 1e300}};
    CHECK_EQ(overflowError(c).key, std::string("queries"));
    // With projections: V = X W_Vᵀ overflows, and 0 · ∞ would be NaN in
    // the context of a blocked key.
    AttentionConfig p = colourExample();
    p.X0 *= 1e200;
    p.wV = Projection{false, arma::mat(4, 4, arma::fill::ones) * 1e200};
    p.scaleKind = ScaleKind::Divisor;
    p.scaleDivisor = 1e300; // keeps the scores finite
    CHECK_EQ(overflowError(p).key, std::string("X"));
}
