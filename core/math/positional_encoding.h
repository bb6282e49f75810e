#pragma once

#include <armadillo>

namespace attnbook {

// The sinusoidal encoding of "Attention Is All You Need" (attention.md):
//   P[pos][2i] = sin(pos / 10000^(2i/d)),  P[pos][2i+1] = cos(pos / 10000^(2i/d)).
// Positions count from 0. Returns (n × d).
arma::mat sinusoidalEncoding(arma::uword n, arma::uword d);

} // namespace attnbook
