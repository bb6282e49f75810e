#include "core/math/vector_kernels.h"

#include <algorithm>
#include <cmath>
#include <limits>

#if defined(__x86_64__)
#include <immintrin.h>
#include <sleef.h>
// sleef.h declares its AVX2 functions only where the file is compiled with
// -mavx. This one is not (it must run on any x86-64), so the one it needs is
// declared here; only functions compiled for AVX2 call it.
// (clang, unlike GCC, refuses an AVX2 vector argument to a function not itself marked AVX2.)
extern "C" __attribute__((const, target("avx2,fma"))) __m256d Sleef_expd4_u10avx2(__m256d);
#endif

namespace attnbook::vec {
namespace {

constexpr double kMinusInfinity = -std::numeric_limits<double>::infinity();

// The portable loops: the tail of every vector kernel, and the whole work on
// a CPU other than x86-64.
ColumnMaximum maximumScalar(const double* x, int count) {
    double largest = kMinusInfinity;
    bool finite = true;
    for (int i = 0; i < count; ++i) {
        finite = finite && std::isfinite(x[i]); // NaN would slip past std::max
        largest = std::max(largest, x[i]);
    }
    return {largest, finite};
}

void scaleScalar(double* x, int count, double factor) {
    for (int i = 0; i < count; ++i) {
        x[i] *= factor;
    }
}

void softmaxBackwardScalar(const double* a, double* g, int count) {
    double dot = 0.0;
    for (int i = 0; i < count; ++i) {
        dot += g[i] * a[i];
    }
    for (int i = 0; i < count; ++i) {
        g[i] = a[i] * (g[i] - dot);
    }
}

#if defined(__x86_64__)

// SSE2 is part of x86-64: this is the floor every such CPU has.
double expShiftedSse2(const double* in, double* out, int count, double shift) {
    const __m128d s = _mm_set1_pd(shift);
    __m128d sum = _mm_setzero_pd();
    int i = 0;
    for (; i + 2 <= count; i += 2) {
        const __m128d e = Sleef_expd2_u10sse2(_mm_sub_pd(_mm_loadu_pd(in + i), s));
        _mm_storeu_pd(out + i, e);
        sum = _mm_add_pd(sum, e);
    }
    double lanes[2];
    _mm_storeu_pd(lanes, sum);
    double total = lanes[0] + lanes[1];
    if (i < count) { // one left: the other lane computes exp(−∞) = 0
        const __m128d e = Sleef_expd2_u10sse2(_mm_set_pd(kMinusInfinity, in[i] - shift));
        out[i] = _mm_cvtsd_f64(e);
        total += out[i];
    }
    return total;
}

__attribute__((target("avx2,fma"))) double horizontalSum(__m256d v) {
    double lanes[4];
    _mm256_storeu_pd(lanes, v);
    return (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
}

__attribute__((target("avx2,fma"))) ColumnMaximum maximumAvx2(const double* x, int count) {
    __m256d largest = _mm256_set1_pd(kMinusInfinity);
    __m256d nonFinite = _mm256_setzero_pd(); // x − x is 0 when finite, NaN otherwise
    int i = 0;
    for (; i + 4 <= count; i += 4) {
        const __m256d v = _mm256_loadu_pd(x + i);
        largest = _mm256_max_pd(largest, v);
        nonFinite = _mm256_add_pd(nonFinite, _mm256_sub_pd(v, v));
    }
    double lanes[4], flags[4];
    _mm256_storeu_pd(lanes, largest);
    _mm256_storeu_pd(flags, nonFinite);
    const ColumnMaximum tail = maximumScalar(x + i, count - i);
    const bool finite =
        tail.finite && flags[0] == 0.0 && flags[1] == 0.0 && flags[2] == 0.0 && flags[3] == 0.0;
    return {std::max({tail.value, lanes[0], lanes[1], lanes[2], lanes[3]}), finite};
}

__attribute__((target("avx2,fma"))) double expShiftedAvx2(const double* in, double* out, int count,
                                                          double shift) {
    const __m256d s = _mm256_set1_pd(shift);
    __m256d sum = _mm256_setzero_pd();
    int i = 0;
    for (; i + 4 <= count; i += 4) {
        const __m256d e = Sleef_expd4_u10avx2(_mm256_sub_pd(_mm256_loadu_pd(in + i), s));
        _mm256_storeu_pd(out + i, e);
        sum = _mm256_add_pd(sum, e);
    }
    if (i < count) { // the last one to three: the unused lanes compute exp(−∞) = 0
        double last[4] = {kMinusInfinity, kMinusInfinity, kMinusInfinity, kMinusInfinity};
        std::copy(in + i, in + count, last);
        const __m256d e = Sleef_expd4_u10avx2(_mm256_sub_pd(_mm256_loadu_pd(last), s));
        _mm256_storeu_pd(last, e);
        std::copy(last, last + (count - i), out + i);
        sum = _mm256_add_pd(sum, e);
    }
    return horizontalSum(sum);
}

__attribute__((target("avx2,fma"))) void scaleAvx2(double* x, int count, double factor) {
    const __m256d f = _mm256_set1_pd(factor);
    int i = 0;
    for (; i + 4 <= count; i += 4) {
        _mm256_storeu_pd(x + i, _mm256_mul_pd(_mm256_loadu_pd(x + i), f));
    }
    scaleScalar(x + i, count - i, factor);
}

__attribute__((target("avx2,fma"))) void softmaxBackwardAvx2(const double* a, double* g,
                                                             int count) {
    __m256d dot0 = _mm256_setzero_pd(), dot1 = _mm256_setzero_pd();
    int i = 0;
    for (; i + 8 <= count; i += 8) {
        dot0 = _mm256_fmadd_pd(_mm256_loadu_pd(g + i), _mm256_loadu_pd(a + i), dot0);
        dot1 = _mm256_fmadd_pd(_mm256_loadu_pd(g + i + 4), _mm256_loadu_pd(a + i + 4), dot1);
    }
    double dot = horizontalSum(_mm256_add_pd(dot0, dot1));
    for (; i < count; ++i) {
        dot += g[i] * a[i];
    }
    const __m256d d = _mm256_set1_pd(dot);
    i = 0;
    for (; i + 4 <= count; i += 4) {
        const __m256d v = _mm256_sub_pd(_mm256_loadu_pd(g + i), d);
        _mm256_storeu_pd(g + i, _mm256_mul_pd(_mm256_loadu_pd(a + i), v));
    }
    for (; i < count; ++i) {
        g[i] = a[i] * (g[i] - dot);
    }
}

bool cpuHasAvx2() {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

#else

double expShiftedPortable(const double* in, double* out, int count, double shift) {
    double total = 0.0;
    for (int i = 0; i < count; ++i) {
        out[i] = std::exp(in[i] - shift);
        total += out[i];
    }
    return total;
}

[[maybe_unused]] bool cpuHasAvx2() {
    return false;
}

#endif

struct Kernels {
    ColumnMaximum (*maximum)(const double*, int);
    double (*expShifted)(const double*, double*, int, double);
    void (*scale)(double*, int, double);
    void (*softmaxBackward)(const double*, double*, int);
};

const Kernels& kernels() {
    static const Kernels chosen = [] {
#if defined(__x86_64__)
        if (cpuHasAvx2()) {
            return Kernels{maximumAvx2, expShiftedAvx2, scaleAvx2, softmaxBackwardAvx2};
        }
        return Kernels{maximumScalar, expShiftedSse2, scaleScalar, softmaxBackwardScalar};
#else
        return Kernels{maximumScalar, expShiftedPortable, scaleScalar, softmaxBackwardScalar};
#endif
    }();
    return chosen;
}

} // namespace

ColumnMaximum maximum(const double* x, int count) {
    return kernels().maximum(x, count);
}

bool allFinite(const double* x, std::size_t count) {
    constexpr std::size_t kChunk = std::size_t(1) << 30; // counts are ints below
    for (std::size_t start = 0; start < count; start += kChunk) {
        if (!kernels().maximum(x + start, int(std::min(kChunk, count - start))).finite) {
            return false;
        }
    }
    return true;
}

double expShifted(const double* in, double* out, int count, double shift) {
    return kernels().expShifted(in, out, count, shift);
}

void scale(double* x, int count, double factor) {
    kernels().scale(x, count, factor);
}

void softmaxBackward(const double* a, double* g, int count) {
    kernels().softmaxBackward(a, g, count);
}

bool usesAvx2() {
    return kernels().maximum != maximumScalar;
}

} // namespace attnbook::vec
