#pragma once
// The loops over one query's column of an n × m table (the softmax and its
// backward), vectorised. exp comes from SLEEF (within 1 ULP); the widest
// instruction set the CPU has (AVX2 + FMA, else SSE2) is picked once at run
// time, so the build itself assumes nothing beyond x86-64. Internal to
// core/math.

#include <cstddef>

namespace attnbook::vec {

struct ColumnMaximum {
    double value; // −∞ when count is 0
    bool finite;  // every value is finite (no ±∞, no NaN)
};

// The largest of x[0, count) and whether all of them are finite.
ColumnMaximum maximum(const double* x, int count);

// Whether every one of x[0, count) is finite.
bool allFinite(const double* x, std::size_t count);

// out[i] = exp(in[i] − shift) for i < count; returns the sum of the out[i].
// in[i] = −∞ gives exactly 0.
double expShifted(const double* in, double* out, int count, double shift);

// x[i] *= factor for i < count.
void scale(double* x, int count, double factor);

// The softmax backward of one query, G_S = A ⊙ (G_A − Σ G_A ⊙ A), in place:
// g holds G_A on entry and G_S on return.
void softmaxBackward(const double* a, double* g, int count);

// Whether this CPU runs the AVX2 + FMA kernels (for the benchmark's record).
bool usesAvx2();

} // namespace attnbook::vec
