#include "core/math/positional_encoding.h"

#include <cmath>

namespace attnbook {

arma::mat sinusoidalEncoding(arma::uword n, arma::uword d) {
    arma::mat p(n, d);
    for (arma::uword col = 0; col < d; ++col) {
        const arma::uword pairStart = col - col % 2; // 2i for both sin and cos of pair i
        const double frequency = std::pow(10000.0, -double(pairStart) / double(d));
        for (arma::uword pos = 0; pos < n; ++pos) {
            const double angle = double(pos) * frequency;
            p(pos, col) = col % 2 == 0 ? std::sin(angle) : std::cos(angle);
        }
    }
    return p;
}

} // namespace attnbook
