// The engine's gradient check (attention.md) on named cells and on random ones drawn as in
// attention_reference_cells.h: it passes where the gradients are right, reports its definition,
// samples and skips as it says, and catches gradients that are wrong.
#include "core/math/attention_engine.h"
#include "core/math/gradient_check.h"

#include "attention_reference.h"
#include "attention_reference_cells.h"
#include "attention_reference_compare.h"
#include "test_support.h"

#include <cstdio>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <utility>

using namespace attnbook;
using namespace ref::cells;
using attnbook::test::fuzzy;
using ref::Cell;
using ref::Matrix;

namespace {

// The gradient check is norm-wise (attention.md): the largest difference
// over the largest magnitude. Rounding in a central difference of L is about
// ε · |L| / step ≈ 1e-10 of the loss, so a correct pass lands near 1e-9 even
// where a gradient is zero by construction (∂L/∂b_K), and 1e-6 is the pass mark.
constexpr double kGradientTolerance = GradientCheckReport::kPassBelow;

// A named cell for the gradient check, drawn from a fixed seed.
struct GradientCase {
    const char* name;
    std::function<AttentionConfig(Generator&)> make;
};

// Projections with random weights and biases: n tokens, width d, h heads.
AttentionConfig randomProjected(Generator& gen, int n, int d, int h) {
    AttentionConfig c;
    c.X0 = toArma(gen.matrix(n, d));
    c.heads = h;
    c.wQ = {false, toArma(gen.matrix(d, d))};
    c.wK = {false, toArma(gen.matrix(d, d))};
    c.wV = {false, toArma(gen.matrix(d, d))};
    c.wO = {false, toArma(gen.matrix(d, d))};
    c.bQ = toArma(gen.vector(d));
    c.bK = toArma(gen.vector(d));
    c.bV = toArma(gen.vector(d));
    c.bO = toArma(gen.vector(d));
    return c;
}

// Direct mode: n queries over m keys, h heads of widths d_k and d_v.
AttentionConfig randomDirect(Generator& gen, int n, int m, int h, int dK, int dV) {
    AttentionConfig c;
    c.direct = true;
    c.heads = h;
    c.queries = toArma(gen.matrix(n, h * dK, 2.0));
    c.keys = toArma(gen.matrix(m, h * dK, 2.0));
    c.values = toArma(gen.matrix(m, h * dV));
    return c;
}

std::vector<GradientCase> gradientCases() {
    return {
        {"one head", [](Generator& g) { return randomProjected(g, 5, 4, 1); }},
        {"two heads", [](Generator& g) { return randomProjected(g, 5, 4, 2); }},
        {"four heads", [](Generator& g) { return randomProjected(g, 6, 8, 4); }},
        {"causal",
         [](Generator& g) {
             AttentionConfig c = randomProjected(g, 6, 4, 2);
             c.mask = MaskKind::Causal;
             return c;
         }},
        {"padding",
         [](Generator& g) {
             AttentionConfig c = randomProjected(g, 5, 4, 2);
             c.padding = {false, true, false, false, true};
             return c;
         }},
        {"causal and padding, a blocked row",
         [](Generator& g) {
             AttentionConfig c = randomProjected(g, 5, 4, 1);
             c.mask = MaskKind::Causal;
             c.padding = {true, false, true, false, false};
             return c;
         }},
        {"every token padding",
         [](Generator& g) {
             AttentionConfig c = randomProjected(g, 3, 4, 2);
             c.padding = {true, true, true};
             return c;
         }},
        {"sinusoidal",
         [](Generator& g) {
             AttentionConfig c = randomProjected(g, 6, 4, 2);
             c.positional = PositionalKind::Sinusoidal;
             return c;
         }},
        {"learned",
         [](Generator& g) {
             AttentionConfig c = randomProjected(g, 4, 6, 3);
             c.positional = PositionalKind::Learned;
             c.learnedP = toArma(g.matrix(4, 6));
             return c;
         }},
        {"d_k 3, d_v 2, d_o 5, custom scale",
         [](Generator& g) {
             AttentionConfig c = randomProjected(g, 5, 4, 2);
             c.dK = 3;
             c.wQ = {false, toArma(g.matrix(6, 4))};
             c.wK = {false, toArma(g.matrix(6, 4))};
             c.bQ = toArma(g.vector(6));
             c.bK = toArma(g.vector(6));
             c.wV = {false, toArma(g.matrix(4, 4))};
             c.wO = {false, toArma(g.matrix(5, 4))};
             c.bO = toArma(g.vector(5));
             c.scaleKind = ScaleKind::Divisor;
             c.scaleDivisor = 0.7;
             return c;
         }},
        {"identity projections, scaling off",
         [](Generator& g) {
             AttentionConfig c;
             c.X0 = toArma(g.matrix(4, 4));
             c.heads = 2;
             c.scaleKind = ScaleKind::Off;
             return c;
         }},
        {"larger causal cell, sampled entries",
         [](Generator& g) {
             AttentionConfig c = randomProjected(g, 80, 16, 4);
             c.mask = MaskKind::Causal;
             return c;
         }},
        {"direct", [](Generator& g) { return randomDirect(g, 4, 4, 2, 3, 2); }},
        {"direct, one query and six keys",
         [](Generator& g) { return randomDirect(g, 1, 6, 1, 2, 2); }},
        {"direct causal, fewer keys than queries",
         [](Generator& g) {
             AttentionConfig c = randomDirect(g, 5, 3, 2, 2, 2);
             c.mask = MaskKind::Causal;
             return c;
         }},
        {"direct causal and padding, more keys",
         [](Generator& g) {
             AttentionConfig c = randomDirect(g, 3, 6, 3, 1, 2);
             c.mask = MaskKind::Causal;
             c.padding = {false, true, false, false, false, true};
             return c;
         }},
    };
}

} // namespace

TEST_CASE("gradientCheck") {
    const std::vector<GradientCase> cases = gradientCases();
    for (size_t index = 0; index < cases.size(); ++index) {
        test::dataRow(cases[index].name, [&] {
            Generator gen(uint64_t(100 + index));
            const AttentionConfig config = cases[index].make(gen);
            const AttentionResult r = AttentionEngine().compute(config);
            MESSAGE("max_rel_error " << r.gradcheck.maxRelError);
            CHECK(r.gradcheck.ran);
            // Small cells check every entry; larger ones an even sample of at least the minimum.
            CHECK((r.gradcheck.checked == r.gradcheck.total ||
                   r.gradcheck.checked >= GradientCheckPolicy::kMinEntries));
            CHECK_MESSAGE(r.gradcheck.passed(), r.gradcheck.maxRelError);
        });
    }
}

// The same cells with a large loss (G_Y · 1e4): the error is relative to the
// gradients' size, so scaling the loss does not change the verdict.
TEST_CASE("gradientCheckLargeLoss") {
    const std::vector<GradientCase> cases = gradientCases();
    for (size_t index = 0; index < cases.size(); ++index) {
        test::dataRow(cases[index].name, [&] {
            Generator gen(uint64_t(100 + index));
            AttentionConfig config = cases[index].make(gen);
            const AttentionResult ones = AttentionEngine().compute(config, GradientCheck::Skip);
            config.upstream = ones.grad.upstream * 1e4;
            const AttentionResult r = AttentionEngine().compute(config);
            MESSAGE("max_rel_error " << r.gradcheck.maxRelError);
            CHECK_MESSAGE(r.gradcheck.passed(), r.gradcheck.maxRelError);
        });
    }
}

// Random small cells of every kind, both ways; prints what it sees.
TEST_CASE("gradientCheckRandomCells") {
    Generator gen(7);
    std::vector<double> errors;
    for (int i = 0; i < 150; ++i) {
        Draw draw = gen.draw(false);
        const AttentionResult r = AttentionEngine().compute(draw.config);
        CHECK_MESSAGE(r.gradcheck.passed(), r.gradcheck.maxRelError << " " << draw.label);
        errors.push_back(r.gradcheck.maxRelError);
    }
    std::sort(errors.begin(), errors.end());
    MESSAGE("max_rel_error over " << errors.size() << " cells: median " << errors[errors.size() / 2]
                                  << ", max " << errors.back());
}

// The report against an independent recomputation of its definition: the
// worst entry is the one with the largest |analytic − numeric| among all
// entries, and the error is that difference over the largest magnitude.
TEST_CASE("gradientCheckReportsItsDefinition") {
    Generator gen(23);
    const AttentionConfig config = randomProjected(gen, 3, 4, 2);
    const AttentionResult r = AttentionEngine().compute(config);
    const GradientCheckReport& check = r.gradcheck;
    // X (3×4), W_Q, W_K, W_V, W_O (4×4 each), four biases of 4.
    CHECK_EQ(check.total, size_t(12 + 4 * 16 + 4 * 4));
    CHECK_EQ(check.checked, check.total);
    const std::map<std::string, const arma::mat*> gradients = {{"X", &r.grad.X},
                                                               {"W_Q", &r.grad.W_Q},
                                                               {"W_K", &r.grad.W_K},
                                                               {"W_V", &r.grad.W_V},
                                                               {"W_O", &r.grad.W_O}};
    const std::map<std::string, const arma::rowvec*> biases = {
        {"b_Q", &r.grad.b_Q}, {"b_K", &r.grad.b_K}, {"b_V", &r.grad.b_V}, {"b_O", &r.grad.b_O}};
    const double analytic = gradients.count(check.worst.gradient)
                                ? (*gradients.at(check.worst.gradient))(
                                      arma::uword(check.worst.row), arma::uword(check.worst.col))
                                : (*biases.at(check.worst.gradient))(arma::uword(check.worst.col));
    CHECK_EQ(check.worst.analytic, fuzzy(analytic));
    // ∂L/∂b_K is zero by construction: the spec's reason for a norm-wise error.
    CHECK(arma::abs(r.grad.b_K).max() < 1e-12);
    double largest = 0;
    for (const auto& [name, g] : gradients) {
        largest = std::max(largest, arma::abs(*g).max());
    }
    for (const auto& [name, b] : biases) {
        largest = std::max(largest, arma::abs(*b).max());
    }
    const double difference = std::abs(check.worst.analytic - check.worst.numeric);
    CHECK(std::abs(check.maxRelError - difference / largest) <= 1e-6 * check.maxRelError + 1e-15);
    CHECK(check.maxRelError < 1e-8);
}

// A cell too large to afford the minimum sample is skipped, with a reason;
// a mid-sized one is sampled evenly, the same entries every time.
TEST_CASE("gradientCheckSamplesAndSkips") {
    Generator gen(5);
    const AttentionResult mid = AttentionEngine().compute(randomProjected(gen, 48, 64, 4));
    CHECK(mid.gradcheck.ran);
    CHECK(mid.gradcheck.checked < mid.gradcheck.total);
    CHECK(mid.gradcheck.checked >= GradientCheckPolicy::kMinEntries);
    CHECK(mid.gradcheck.passed());
    AttentionConfig big;
    big.tokens.assign(1024, "t");
    big.X0 = arma::randu(1024, 512);
    big.heads = 8;
    const AttentionResult skipped = AttentionEngine().compute(big);
    CHECK(!skipped.gradcheck.ran);
    CHECK_EQ(skipped.gradcheck.checked, size_t(0));
    CHECK(skipped.gradcheck.skipped.find("too large") != std::string::npos);
}

// The check is not vacuous: a gradient off by 1e-3 of itself shows.
TEST_CASE("gradientCheckCatchesWrongGradients") {
    Generator gen(11);
    for (const bool direct : {false, true}) {
        const AttentionConfig config =
            direct ? randomDirect(gen, 4, 5, 2, 2, 2) : randomProjected(gen, 4, 4, 2);
        AttentionResult r = AttentionEngine().compute(config, GradientCheck::Skip);
        arma::mat& g = direct ? r.grad.keys : r.grad.W_Q;
        // The error is relative to the largest gradient entry of all.
        double largest = 0;
        for (const arma::mat* m : {&r.grad.X, &r.grad.W_Q, &r.grad.W_K, &r.grad.W_V, &r.grad.W_O,
                                   &r.grad.queries, &r.grad.keys, &r.grad.values}) {
            largest = m->is_empty() ? largest : std::max(largest, arma::abs(*m).max());
        }
        for (const arma::rowvec* b : {&r.grad.b_Q, &r.grad.b_K, &r.grad.b_V, &r.grad.b_O}) {
            largest = b->is_empty() ? largest : std::max(largest, arma::abs(*b).max());
        }
        const double nudge = 1e-3 * largest;
        g(1, 1) += nudge;
        CHECK(attnbook::gradientCheck(config, r, AttentionLimits{}).maxRelError > 1e-4);
        g(1, 1) -= nudge;
        (direct ? r.grad.values : r.grad.X)(0, 0) += 1e-4 * largest;
        CHECK(attnbook::gradientCheck(config, r, AttentionLimits{}).maxRelError > 9e-5);
    }
}
