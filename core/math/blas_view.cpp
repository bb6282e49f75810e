#include "core/math/blas_view.h"

#include <cassert>

namespace attnbook {

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
}

} // namespace attnbook
