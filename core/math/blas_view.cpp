#include "core/math/blas_view.h"

#include "core/math/vector_kernels.h"

#include <algorithm>
#include <cassert>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace attnbook {
namespace {

// Products up to this many multiply-adds (a 16-token cell's are 1 024 to
// 4 096) take the AVX2 loops below when the CPU has AVX2 + FMA: a BLAS call
// costs more than such a product itself (its dispatch, buffers and thread
// hand-off). The bounds keep the packed copy of op(A) on the stack.
constexpr arma::uword kSmallProduct = 32 * 32 * 32;
constexpr arma::uword kSmallPacked = 4096; // doubles of op(A), rows padded to 8

#if defined(__x86_64__)
bool isSmall(arma::uword m, arma::uword n, arma::uword k) {
    static const bool avx2 = vec::usesAvx2();
    return avx2 && m * n * k <= kSmallProduct && ((m + 7) & ~arma::uword(7)) * k <= kSmallPacked;
}

// Stores 8 rows of one column of C from two registers of sums:
// C = alpha · sum + beta · C, rows [0, rows) only.
[[gnu::always_inline]] __attribute__((target("avx2,fma"))) inline void
storeColumn(__m256d lo, __m256d hi, double alpha, double beta, double* out, arma::uword rows) {
    double sum[8];
    _mm256_storeu_pd(sum, lo);
    _mm256_storeu_pd(sum + 4, hi);
    for (arma::uword r = 0; r < rows; ++r) { // beta = 0: C may be uninitialised
        out[r] = beta == 0.0 ? alpha * sum[r] : alpha * sum[r] + beta * out[r];
    }
}

// Four (or one) columns of C, rows [i0, i0 + rows) with rows ≤ 8, summed
// over p in registers: C(:, j) = alpha · Σ_p op(A)(:, p) · op(B)(p, j) +
// beta · C(:, j), each entry summed in the order p = 0, 1, … .
//   a: op(A) packed, column p at a + p·lda (8 rows from i0, zero-padded)
//   b: &op(B)(0, j); op(B)(p, j + jj) at b[p·bRow + jj·bCol]
//   c: &C(i0, j)
struct SmallTile {
    const double* a;
    arma::uword lda;
    const double* b;
    arma::uword bRow, bCol;
    arma::uword k;
    double alpha, beta;
    double* c;
    arma::uword ldc, rows;
};

__attribute__((target("avx2,fma"))) inline void smallTile4(const SmallTile& t) {
    __m256d lo0 = _mm256_setzero_pd(), hi0 = lo0, lo1 = lo0, hi1 = lo0;
    __m256d lo2 = lo0, hi2 = lo0, lo3 = lo0, hi3 = lo0;
    const double* b = t.b;
    const arma::uword bCol = t.bCol;
    for (arma::uword p = 0; p < t.k; ++p, b += t.bRow) {
        const __m256d a0 = _mm256_loadu_pd(t.a + p * t.lda);
        const __m256d a1 = _mm256_loadu_pd(t.a + p * t.lda + 4);
        const __m256d f0 = _mm256_broadcast_sd(b);
        const __m256d f1 = _mm256_broadcast_sd(b + bCol);
        const __m256d f2 = _mm256_broadcast_sd(b + 2 * bCol);
        const __m256d f3 = _mm256_broadcast_sd(b + 3 * bCol);
        lo0 = _mm256_fmadd_pd(a0, f0, lo0), hi0 = _mm256_fmadd_pd(a1, f0, hi0);
        lo1 = _mm256_fmadd_pd(a0, f1, lo1), hi1 = _mm256_fmadd_pd(a1, f1, hi1);
        lo2 = _mm256_fmadd_pd(a0, f2, lo2), hi2 = _mm256_fmadd_pd(a1, f2, hi2);
        lo3 = _mm256_fmadd_pd(a0, f3, lo3), hi3 = _mm256_fmadd_pd(a1, f3, hi3);
    }
    storeColumn(lo0, hi0, t.alpha, t.beta, t.c, t.rows);
    storeColumn(lo1, hi1, t.alpha, t.beta, t.c + t.ldc, t.rows);
    storeColumn(lo2, hi2, t.alpha, t.beta, t.c + 2 * t.ldc, t.rows);
    storeColumn(lo3, hi3, t.alpha, t.beta, t.c + 3 * t.ldc, t.rows);
}

__attribute__((target("avx2,fma"))) inline void smallTile1(const SmallTile& t) {
    __m256d lo = _mm256_setzero_pd(), hi = lo;
    const double* b = t.b;
    for (arma::uword p = 0; p < t.k; ++p, b += t.bRow) {
        const __m256d f = _mm256_broadcast_sd(b);
        lo = _mm256_fmadd_pd(_mm256_loadu_pd(t.a + p * t.lda), f, lo);
        hi = _mm256_fmadd_pd(_mm256_loadu_pd(t.a + p * t.lda + 4), f, hi);
    }
    storeColumn(lo, hi, t.alpha, t.beta, t.c, t.rows);
}

__attribute__((target("avx2,fma"))) void smallGemm(Op opA, Op opB, double alpha, const BlasView& a,
                                                   const BlasView& b, double beta,
                                                   const BlasView& c, arma::uword k) {
    const arma::uword m = c.rows;
    const arma::uword lda = (m + 7) & ~arma::uword(7);
    double packed[kSmallPacked]; // op(A) (lda × k), zero below row m
    for (arma::uword p = 0; p < k; ++p) {
        double* column = packed + p * lda;
        for (arma::uword i = 0; i < m; ++i) {
            column[i] = opA == Op::None ? a.at(i, p) : a.at(p, i);
        }
        std::fill(column + m, column + lda, 0.0);
    }
    const arma::uword bRow = opB == Op::None ? 1 : b.ld; // op(B)(p, j) → op(B)(p + 1, j)
    const arma::uword bCol = opB == Op::None ? b.ld : 1; // op(B)(p, j) → op(B)(p, j + 1)
    for (arma::uword i0 = 0; i0 < m; i0 += 8) {
        SmallTile tile{packed + i0,
                       lda,
                       b.data,
                       bRow,
                       bCol,
                       k,
                       alpha,
                       beta,
                       &c.at(i0, 0),
                       c.ld,
                       std::min<arma::uword>(8, m - i0)};
        arma::uword j = 0;
        for (; j + 4 <= c.cols; j += 4, tile.b += 4 * bCol, tile.c += 4 * c.ld) {
            smallTile4(tile);
        }
        for (; j < c.cols; ++j, tile.b += bCol, tile.c += c.ld) {
            smallTile1(tile);
        }
    }
}
#else
bool isSmall(arma::uword, arma::uword, arma::uword) {
    return false;
}
void smallGemm(Op, Op, double, const BlasView&, const BlasView&, double, const BlasView&,
               arma::uword) {}
#endif

#if !defined(ARMA_USE_BLAS)
// Armadillo without a BLAS (configured with ARMA_DONT_USE_BLAS, as the WebAssembly build is):
// plain loops, op(A) copied row by row first so that each entry of C is one contiguous dot
// product, summed in the order p = 0, 1, … as smallGemm sums it.
void loopGemm(Op opA, Op opB, double alpha, const BlasView& a, const BlasView& b, double beta,
              const BlasView& c, arma::uword k) {
    const arma::uword m = c.rows;
    std::vector<double> rows(m * k); // op(A)(i, p) at rows[i * k + p]
    for (arma::uword i = 0; i < m; ++i) {
        for (arma::uword p = 0; p < k; ++p) {
            rows[i * k + p] = opA == Op::None ? a.at(i, p) : a.at(p, i);
        }
    }
    std::vector<double> column(k); // op(B)(:, j)
    for (arma::uword j = 0; j < c.cols; ++j) {
        for (arma::uword p = 0; p < k; ++p) {
            column[p] = opB == Op::None ? b.at(p, j) : b.at(j, p);
        }
        for (arma::uword i = 0; i < m; ++i) {
            const double* row = rows.data() + i * k;
            double sum = 0.0;
            for (arma::uword p = 0; p < k; ++p) {
                sum += row[p] * column[p];
            }
            c.at(i, j) = beta == 0.0 ? alpha * sum : alpha * sum + beta * c.at(i, j);
        }
    }
}
#endif

} // namespace

void gemm(Op opA, Op opB, double alpha, const BlasView& a, const BlasView& b, double beta,
          const BlasView& c) {
    const arma::uword m = c.rows;
    const arma::uword n = c.cols;
    const arma::uword k = opA == Op::None ? a.cols : a.rows;
    assert((opA == Op::None ? a.rows : a.cols) == m);
    assert((opB == Op::None ? b.cols : b.rows) == n);
    assert((opB == Op::None ? b.rows : b.cols) == k);
    if (m == 0 || n == 0) {
        return;
    }
    if (k == 0) {
        for (arma::uword j = 0; j < n; ++j) {
            for (arma::uword i = 0; i < m; ++i) {
                c.at(i, j) = beta == 0.0 ? 0.0 : beta * c.at(i, j);
            }
        }
        return;
    }
    if (isSmall(m, n, k)) {
        smallGemm(opA, opB, alpha, a, b, beta, c, k);
        return;
    }
#if defined(ARMA_USE_BLAS)
    const char ta = opA == Op::None ? 'N' : 'T';
    const char tb = opB == Op::None ? 'N' : 'T';
    const arma::blas_int bm = static_cast<arma::blas_int>(m);
    const arma::blas_int bn = static_cast<arma::blas_int>(n);
    const arma::blas_int bk = static_cast<arma::blas_int>(k);
    const arma::blas_int lda = static_cast<arma::blas_int>(std::max<arma::uword>(1, a.ld));
    const arma::blas_int ldb = static_cast<arma::blas_int>(std::max<arma::uword>(1, b.ld));
    const arma::blas_int ldc = static_cast<arma::blas_int>(std::max<arma::uword>(1, c.ld));
    arma::blas::gemm<double>(&ta, &tb, &bm, &bn, &bk, &alpha, a.data, &lda, b.data, &ldb, &beta,
                             c.data, &ldc);
#else
    loopGemm(opA, opB, alpha, a, b, beta, c, k);
#endif
}

} // namespace attnbook
