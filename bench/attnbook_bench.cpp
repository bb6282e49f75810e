// attnbook-bench: how fast is one forward + backward pass of the attention
// core, against what BLAS itself reaches on a plain matrix product?
//
// For each size (n tokens, width d, h heads) and mask it prints
//
//     n=1024 d=512 h=8 mask=causal seconds=0.123 gemm_ratio=1.31
//
// seconds:    the median time of forward + backward (no gradient check), one
//             engine and one result reused so the workspace is allocated once.
// gemm_ratio: seconds / (FLOPs / gemm_rate). FLOPs counts the dense matrix
//             products of forward + backward (below); gemm_rate is what dgemm
//             reaches on a 1024×512 by 512×512 product, timed in turn with
//             the configuration in the same run (medians of each). 1.0
//             would be "as fast as its products at BLAS speed"; causal uses
//             the dense count too, so skipping the blocked half shows as < 1.
//
// Usage: attnbook-bench [--quick]   (--quick: only the two smallest sizes)
#include "core/math/attention_engine.h"

#include <armadillo>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <vector>

using namespace attnbook;

namespace {

struct BenchSize {
    int n; // tokens
    int d; // model width
    int h; // heads
};

using Clock = std::chrono::steady_clock;

double secondsOf(const std::function<void()>& work) {
    const auto start = Clock::now();
    work();
    return std::chrono::duration<double>(Clock::now() - start).count();
}

double median(std::vector<double> values) {
    std::nth_element(values.begin(), values.begin() + long(values.size() / 2), values.end());
    return values[values.size() / 2];
}

// dgemm on C (1024 × 512) = A (1024 × 512) · B (512 × 512): the yardstick.
class GemmYardstick {
  public:
    GemmYardstick() : a_(1024, 512, arma::fill::randn), b_(512, 512, arma::fill::randn) {}
    void run() { c_ = a_ * b_; }
    static double flops() { return 2.0 * 1024 * 512 * 512; }

  private:
    arma::mat a_, b_, c_;
};

struct Timing {
    double seconds;  // median of the work
    double gemmRate; // median FLOP/s of the yardstick
};

// Times `work` and the yardstick in turns, after one untimed warm-up of each
// (first-touch pages, BLAS threads, caches). Taking turns keeps the ratio
// fair when the machine's load changes during the run. A turn repeats small
// work for about 50 ms, so its median is not the one cold call after the
// yardstick, nor one scheduler hiccup.
Timing timeAgainstGemm(const std::function<void()>& work, GemmYardstick& gemm) {
    gemm.run();
    const double once = secondsOf(work);
    const int perTurn = std::clamp(int(0.05 / std::max(once, 1e-9)), 1, 10000);
    std::vector<double> times, rates;
    double spent = 0.0;
    for (int turn = 0; turn < 5 || (turn < 25 && spent < 2.0); ++turn) {
        for (int i = 0; i < perTurn; ++i) {
            times.push_back(secondsOf(work));
            spent += times.back();
        }
        for (int i = 0; i < 2; ++i) {
            rates.push_back(GemmYardstick::flops() / secondsOf([&] { gemm.run(); }));
        }
    }
    return {median(times), median(rates)};
}

// The dense matrix-product FLOPs of one forward + backward, counted from
// attention_engine.cpp with every weight a matrix, d_k = d_v = d / h and
// d_o = d. A product (a × b) · (b × c) costs 2·a·b·c.
double denseFlops(const BenchSize& s) {
    const double n = s.n, d = s.d, h = s.h, dK = d / h, dV = d / h;
    const double projection = 2 * n * d * d;     // (n × d) · (d × d)
    const double forward = 3 * projection        // Q, K, V
                           + h * 2 * n * n * dK  // S_i = Q_i K_iᵀ
                           + h * 2 * n * n * dV  // H_i = A_i V_i
                           + projection;         // Y = C W_Oᵀ
    const double backward = projection           // G_C = G_Y W_O
                            + projection         // ∂W_O = G_Yᵀ C
                            + h * 2 * n * n * dV // G_A = G_H V_iᵀ
                            + h * 2 * n * n * dV // G_V = Aᵀ G_H
                            + h * 2 * n * n * dK // G_Q = G_S K_i
                            + h * 2 * n * n * dK // G_K = G_Sᵀ Q_i
                            + 3 * projection     // ∂W_Q, ∂W_K, ∂W_V = Gᵀ X
                            + 3 * projection;    // ∂X = Σ G W
    return forward + backward;
}

// Random tokens and random (not identity) projections, scaled by 1/√d so
// the scores stay of order 1; a random upstream gradient.
AttentionConfig randomCell(const BenchSize& s, MaskKind mask) {
    const arma::uword n = arma::uword(s.n), d = arma::uword(s.d);
    const double weightScale = 1.0 / std::sqrt(double(s.d));
    const auto weights = [&] {
        return Projection{false, arma::mat(d, d, arma::fill::randn) * weightScale};
    };
    AttentionConfig c;
    c.X0 = arma::mat(n, d, arma::fill::randn); // (n × d)
    c.heads = s.h;
    c.mask = mask;
    c.wQ = weights(); // (d × d) each
    c.wK = weights();
    c.wV = weights();
    c.wO = weights();
    c.bQ = arma::rowvec(d, arma::fill::randn);
    c.bK = arma::rowvec(d, arma::fill::randn);
    c.bV = arma::rowvec(d, arma::fill::randn);
    c.bO = arma::rowvec(d, arma::fill::randn);
    c.upstream = arma::mat(n, d, arma::fill::randn); // G_Y (n × d_o)
    return c;
}

// Fixed decimals with at least three significant digits: 0.123, 0.0000213.
void printSeconds(double seconds) {
    const int decimals = seconds > 0 ? std::max(3, 2 - int(std::floor(std::log10(seconds)))) : 3;
    std::printf("seconds=%.*f", decimals, seconds);
}

void benchOne(const BenchSize& s, MaskKind mask, GemmYardstick& gemm) {
    const AttentionConfig config = randomCell(s, mask);
    AttentionEngine engine;
    AttentionResult result;
    const Timing t =
        timeAgainstGemm([&] { engine.compute(config, result, GradientCheck::Skip); }, gemm);
    std::printf("n=%d d=%d h=%d mask=%s ", s.n, s.d, s.h,
                mask == MaskKind::Causal ? "causal" : "none");
    printSeconds(t.seconds);
    std::printf(" gemm_ratio=%.2f\n", t.seconds / (denseFlops(s) / t.gemmRate));
    std::fflush(stdout);
    std::fprintf(stderr, "  (dgemm 1024x512 by 512x512 alongside: %.2f GFLOP/s)\n",
                 t.gemmRate / 1e9);
}

} // namespace

int main(int argc, char** argv) {
    bool quick = false;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--quick") == 0) {
            quick = true;
        } else {
            std::fprintf(stderr, "usage: %s [--quick]\n", argv[0]);
            return 2;
        }
    }
    arma::arma_rng::set_seed(20240607);
    GemmYardstick gemm;

    std::vector<BenchSize> sizes = {{16, 16, 2}, {512, 256, 8}, {1024, 512, 8}, {2048, 512, 8}};
    if (quick) {
        sizes.resize(2);
    }
    for (const BenchSize& s : sizes) {
        for (const MaskKind mask : {MaskKind::None, MaskKind::Causal}) {
            benchOne(s, mask, gemm);
        }
    }
    return 0;
}
