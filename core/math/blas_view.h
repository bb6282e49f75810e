#pragma once
// A window onto a column-major block of doubles, and one GEMM over such
// windows. Heads and causal row blocks are sub-blocks of larger matrices;
// handing BLAS the leading dimension multiplies them in place, where
// Armadillo's subviews would copy them out and back.

#include <armadillo>

namespace attnbook {

struct BlasView {
    double* data = nullptr;
    arma::uword rows = 0;
    arma::uword cols = 0;
    arma::uword ld = 0; // distance between columns, ≥ rows

    static BlasView of(arma::mat& m) { return {m.memptr(), m.n_rows, m.n_cols, m.n_rows}; }
    static BlasView of(const arma::mat& m) {
        return {const_cast<double*>(m.memptr()), m.n_rows, m.n_cols, m.n_rows};
    }
    // Rows [r0, r0+nr) and columns [c0, c0+nc).
    BlasView block(arma::uword r0, arma::uword c0, arma::uword nr, arma::uword nc) const {
        return {data + r0 + c0 * ld, nr, nc, ld};
    }
    BlasView columns(arma::uword c0, arma::uword nc) const { return block(0, c0, rows, nc); }
    BlasView rowRange(arma::uword r0, arma::uword nr) const { return block(r0, 0, nr, cols); }
    double& at(arma::uword r, arma::uword c) const { return data[r + c * ld]; }
};

enum class Op { None, Transpose };

// C = alpha · op(A) · op(B) + beta · C. Shapes must agree; an empty product
// scales C by beta (BLAS itself skips k = 0 only partly, so handle it here).
void gemm(Op opA, Op opB, double alpha, const BlasView& a, const BlasView& b, double beta,
          const BlasView& c);

} // namespace attnbook
