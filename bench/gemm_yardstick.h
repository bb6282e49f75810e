#pragma once
// The yardstick every benchmark measures against: OpenBLAS dgemm, timed in the same run and in
// turns with the work, so that a figure is a ratio that holds on any machine and under load.

#include <armadillo>

#include <algorithm>
#include <chrono>
#include <functional>
#include <vector>

namespace attnbook::bench {

using Clock = std::chrono::steady_clock;

inline double secondsOf(const std::function<void()>& work) {
    const auto start = Clock::now();
    work();
    return std::chrono::duration<double>(Clock::now() - start).count();
}

inline double median(std::vector<double> values) {
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
inline Timing timeAgainstGemm(const std::function<void()>& work, GemmYardstick& gemm) {
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

} // namespace attnbook::bench
