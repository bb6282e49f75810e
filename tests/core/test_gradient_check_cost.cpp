// The gradient check's cost is one formula (attentionGradientsWork in
// core/math/gradient_check.h). What `check` and `compute` charge (attentionCost) and what the
// window charges when it picks a thread (recomputeWork) must equal what the check does: the
// forward passes it ran, each costing the multiply-adds of its matrix products, counted here
// from the matrices' sizes rather than from the formula under test.
#include "core/document/cell_cost.h"
#include "core/live/attention_recompute.h"
#include "core/math/attention_engine.h"
#include "core/math/attention_shapes.h"
#include "core/math/gradient_check.h"

#include <doctest/doctest.h>

#include <string>

using namespace attnbook;

namespace {

struct CellSize {
    int n, d, h, dK, dV, dO;
};

// A projection-mode cell with explicit weights of every width (so d_k, d_v and d_o differ).
AttentionConfig cellOf(const CellSize& s) {
    arma::arma_rng::set_seed(7);
    AttentionConfig c;
    for (int i = 0; i < s.n; ++i) {
        c.tokens.push_back("t" + std::to_string(i));
    }
    c.X0 = arma::randu(s.n, s.d);
    c.heads = s.h;
    c.dK = s.dK;
    c.dV = s.dV;
    const auto weights = [](int rows, int cols) {
        return Projection{false, arma::randu(rows, cols) - 0.5};
    };
    c.wQ = weights(s.h * s.dK, s.d);
    c.wK = weights(s.h * s.dK, s.d);
    c.wV = weights(s.h * s.dV, s.d);
    c.wO = weights(s.dO, s.h * s.dV);
    return c;
}

// The multiply-adds of one forward pass, product by product: Q = X W_Qᵀ, K, V, each head's
// scores Q_i K_iᵀ and context A_i V_i, and Y = concat W_Oᵀ.
double forwardProducts(const AttentionConfig& c) {
    const double n = double(c.X0.n_rows), d = double(c.X0.n_cols);
    const double q = n * d * double(c.wQ.weights.n_rows);
    const double k = n * d * double(c.wK.weights.n_rows);
    const double v = n * d * double(c.wV.weights.n_rows);
    const double scores = n * n * double(c.wQ.weights.n_rows);   // h heads × (n × d_k)(d_k × n)
    const double contexts = n * n * double(c.wV.weights.n_rows); // h heads × (n × n)(n × d_v)
    const double output = n * double(c.wO.weights.n_cols) * double(c.wO.weights.n_rows);
    return q + k + v + scores + contexts + output;
}

// The forward and backward passes (three forward passes' worth) and what the check ran.
double spentByTheCheck(const AttentionConfig& c, const AttentionResult& r) {
    return 3 * forwardProducts(c) + double(r.gradcheck.forwardPasses) * forwardProducts(c);
}

} // namespace

TEST_CASE("the gradient check's cost charged by check and by the window is what it spends") {
    const CellSize sizes[] = {
        {4, 6, 2, 2, 3, 5},       // every entry compared
        {32, 32, 2, 16, 8, 24},   // an evenly spaced sample
        {200, 64, 1, 64, 64, 64}, // too large for even the smallest sample: skipped
    };
    for (const CellSize& size : sizes) {
        CAPTURE(size.n);
        const AttentionConfig config = cellOf(size);
        const AttentionResult result = AttentionEngine().compute(config, GradientCheck::Run);
        const GradientCheckReport& check = result.gradcheck;
        CHECK_EQ(check.forwardPasses, 2 * check.checked);
        const double spent = spentByTheCheck(config, result);
        CHECK(forwardCost(result) == doctest::Approx(forwardProducts(config)));
        CHECK(attentionCost(resolveShapes(config, AttentionLimits{})).multiplyAdds ==
              doctest::Approx(spent));
        CHECK(recomputeWork(result, true) == doctest::Approx(spent));
        CHECK(recomputeWork(result, false) == doctest::Approx(forwardProducts(config)));
        if (size.n == 4) {
            CHECK_EQ(check.checked, check.total);
        } else if (size.n == 32) {
            CHECK(check.ran);
            CHECK(check.checked < check.total);
        } else {
            CHECK_FALSE(check.ran);
            CHECK_EQ(check.forwardPasses, size_t(0));
        }
    }
}

TEST_CASE("the entries the check may compare are the entries it perturbs") {
    const AttentionConfig config = cellOf({4, 6, 2, 2, 3, 5});
    const AttentionResult result = AttentionEngine().compute(config, GradientCheck::Run);
    // X (4 × 6), W_Q and W_K (4 × 6), W_V (6 × 6), W_O (5 × 6), the four biases (4, 4, 6, 5).
    const double perturbed = 24 + 24 + 24 + 36 + 30 + 4 + 4 + 6 + 5;
    CHECK_EQ(double(result.gradcheck.total), perturbed);
    CHECK_EQ(gradientCheckEntries(result.n, result.m, result.d, result.h, result.dK, result.dV,
                                  result.dO),
             perturbed);
}
