// The vectorised column loops of the softmax (core/math/vector_kernels.h)
// and gemm()'s own loops for small products (core/math/blas_view.h)
// against plain loops over std::exp and Armadillo's products, at every
// length whose tail the vector width leaves over, with blocked (−∞) entries.
#include "core/math/blas_view.h"
#include "core/math/vector_kernels.h"

#include "test_support.h"

#include <cmath>
#include <limits>
#include <vector>

using namespace attnbook;

namespace {

constexpr double kMinusInfinity = -std::numeric_limits<double>::infinity();

// Scores from −30 to 30 in uneven steps, every fifth one blocked.
std::vector<double> column(int count) {
    std::vector<double> x(static_cast<size_t>(count));
    for (int i = 0; i < count; ++i) {
        x[size_t(i)] = i % 5 == 3 ? kMinusInfinity : std::sin(1.7 * i) * 30.0;
    }
    return x;
}

} // namespace

TEST_CASE("expShifted is exp(x − shift) within 1 ULP-ish, blocked entries exactly 0") {
    for (int count = 0; count < 20; ++count) {
        CAPTURE(count);
        const std::vector<double> in = column(count);
        std::vector<double> out(static_cast<size_t>(count), -1.0);
        const double total = vec::expShifted(in.data(), out.data(), count, 2.5);
        double expected = 0.0;
        for (int i = 0; i < count; ++i) {
            const double e = std::exp(in[size_t(i)] - 2.5);
            expected += e;
            if (in[size_t(i)] == kMinusInfinity) {
                CHECK(out[size_t(i)] == 0.0);
            } else {
                CHECK(std::abs(out[size_t(i)] - e) <= 4e-16 * e);
            }
        }
        CHECK(std::abs(total - expected) <= 1e-15 * expected);
    }
    double zero = 0.0, one = 0.0;
    vec::expShifted(&zero, &one, 1, 0.0);
    CHECK(one == 1.0); // the column maximum's own share is exp(0) = 1 exactly
}

TEST_CASE("maximum finds the largest value and flags any infinity or NaN") {
    for (int count = 0; count < 20; ++count) {
        CAPTURE(count);
        std::vector<double> x(static_cast<size_t>(count));
        for (int i = 0; i < count; ++i) {
            x[size_t(i)] = std::cos(2.3 * i) * 10.0;
        }
        double largest = kMinusInfinity;
        for (double v : x) {
            largest = std::max(largest, v);
        }
        const vec::ColumnMaximum found = vec::maximum(x.data(), count);
        CHECK(found.value == largest);
        CHECK(found.finite);
        for (int bad = 0; bad < count; ++bad) {
            for (double value : {kMinusInfinity, -kMinusInfinity, std::nan("")}) {
                std::vector<double> y = x;
                y[size_t(bad)] = value;
                CHECK_FALSE(vec::maximum(y.data(), count).finite);
            }
        }
    }
}

TEST_CASE("softmaxBackward is A ⊙ (G_A − Σ G_A ⊙ A), and scale multiplies") {
    for (int count = 0; count < 20; ++count) {
        CAPTURE(count);
        std::vector<double> a(static_cast<size_t>(count)), g(static_cast<size_t>(count));
        double dot = 0.0;
        for (int i = 0; i < count; ++i) {
            a[size_t(i)] = (i % 4 == 1) ? 0.0 : 0.05 + 0.01 * i; // some blocked (A = 0)
            g[size_t(i)] = std::sin(0.9 * i) - 0.3;
            dot += a[size_t(i)] * g[size_t(i)];
        }
        std::vector<double> gs = g;
        vec::softmaxBackward(a.data(), gs.data(), count);
        for (int i = 0; i < count; ++i) {
            const double expected = a[size_t(i)] * (g[size_t(i)] - dot);
            CHECK(std::abs(gs[size_t(i)] - expected) <= 1e-15);
            if (a[size_t(i)] == 0.0) {
                CHECK(gs[size_t(i)] == 0.0);
            }
        }
        std::vector<double> scaled = g;
        vec::scale(scaled.data(), count, 0.25);
        for (int i = 0; i < count; ++i) {
            CHECK(scaled[size_t(i)] == g[size_t(i)] * 0.25);
        }
    }
}

TEST_CASE("gemm's loops for small products agree with Armadillo for every op, view and beta") {
    arma::arma_rng::set_seed(7);
    // Sizes below and above the small-product bound, with row and column tails.
    for (const arma::uword m : {1u, 3u, 8u, 13u, 16u, 40u}) {
        for (const arma::uword n : {1u, 4u, 7u, 16u}) {
            for (const arma::uword k : {1u, 5u, 16u, 33u}) {
                for (const Op opA : {Op::None, Op::Transpose}) {
                    for (const Op opB : {Op::None, Op::Transpose}) {
                        const bool transposeA = opA == Op::Transpose;
                        const bool transposeB = opB == Op::Transpose;
                        CAPTURE(m);
                        CAPTURE(n);
                        CAPTURE(k);
                        CAPTURE(transposeA);
                        CAPTURE(transposeB);
                        // Each operand a block inside a larger matrix: ld > rows.
                        const arma::mat a =
                            arma::randn(opA == Op::None ? m + 2 : k + 2, opA == Op::None ? k : m);
                        const arma::mat b =
                            arma::randn(opB == Op::None ? k + 3 : n + 3, opB == Op::None ? n : k);
                        const arma::mat opAm = opA == Op::None ? arma::mat(a.rows(0, m - 1))
                                                               : arma::mat(a.rows(0, k - 1).t());
                        const arma::mat opBm = opB == Op::None ? arma::mat(b.rows(0, k - 1))
                                                               : arma::mat(b.rows(0, n - 1).t());
                        arma::mat c = arma::randn(m + 1, n);
                        const arma::mat before = c;
                        const BlasView aView = BlasView::of(a).rowRange(0, opA == Op::None ? m : k);
                        const BlasView bView = BlasView::of(b).rowRange(0, opB == Op::None ? k : n);
                        gemm(opA, opB, 0.5, aView, bView, 1.0, BlasView::of(c).rowRange(0, m));
                        const arma::mat expected = 0.5 * opAm * opBm + before.rows(0, m - 1);
                        CHECK(arma::approx_equal(c.rows(0, m - 1), expected, "absdiff", 1e-12));
                        CHECK(c(m, 0) == before(m, 0)); // the row below the view untouched
                        gemm(opA, opB, 2.0, aView, bView, 0.0, BlasView::of(c).rowRange(0, m));
                        CHECK(arma::approx_equal(c.rows(0, m - 1), 2.0 * opAm * opBm, "absdiff",
                                                 1e-12));
                    }
                }
            }
        }
    }
}
