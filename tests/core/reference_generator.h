// The seeded random numbers both slow references draw their cells from
// (attention_reference_cells.h, transformer_reference_cells.h): whole numbers, coins, uniform
// doubles, a pick among options and a matrix of uniform entries, in the reference's own Matrix.
// One std::mt19937_64 and the standard distributions: the same seed gives the same cells on
// every run.
#pragma once

#include <cstdint>

#include <initializer_list>
#include <random>

namespace attnbook::test {

template <typename Matrix> class ReferenceGenerator {
  public:
    explicit ReferenceGenerator(uint64_t seed) : rng_(seed) {}

    int integer(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
    bool coin(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
    double uniform(double lo, double hi) {
        return std::uniform_real_distribution<double>(lo, hi)(rng_);
    }
    template <typename T> T pick(std::initializer_list<T> options) {
        return *(options.begin() + integer(0, int(options.size()) - 1));
    }
    // Entries drawn as doubles (then stored in the Matrix's own type), so that the engine and
    // the reference read the same numbers.
    Matrix matrix(int rows, int cols, double amplitude = 1.0) {
        Matrix m(rows, cols);
        for (auto& x : m.v) {
            x = uniform(-amplitude, amplitude);
        }
        return m;
    }

  private:
    std::mt19937_64 rng_;
};

} // namespace attnbook::test
