#pragma once
// LayerNorm and the FFN's activations (transformer.md), forward and backward, row by row.

#include "core/math/transformer_config.h"
#include "core/math/transformer_result.h"

#include <armadillo>

#include <optional>
#include <string_view>

namespace attnbook {

// LN(x) = γ ⊙ (x − μ) / √(σ² + ε) + β for each row x of `in` (n × d); μ and σ² are the row's
// mean and population variance. An identity LN copies `in`.
void layerNormForward(const arma::mat& in, const LayerNormParams& ln, double eps,
                      LayerNormResult& out);

// ∂L/∂x (n × d) from ∂L/∂LN(x) (n × d); fills ∂L/∂γ and ∂L/∂β (d) unless the LN is the identity.
//   x̂ = (x − μ)·r,  ∂L/∂x̂ = g ⊙ γ,  ∂L/∂x = r · (∂L/∂x̂ − mean(∂L/∂x̂) − x̂ · mean(∂L/∂x̂ ⊙ x̂))
arma::mat layerNormBackward(const arma::mat& gradOut, const LayerNormParams& ln,
                            const LayerNormResult& forward, arma::rowvec& gradGamma,
                            arma::rowvec& gradBeta);

// The name a cell writes (`activation: gelu_tanh`), the one a reader sees ("GELU (tanh)"),
// and the activation a written name means (nullopt: none).
const char* activationKey(Activation kind);
const char* activationLabel(Activation kind);
std::optional<Activation> activationFromKey(std::string_view key);

double activate(Activation kind, double x);
// d act / dx at x.
double activationSlope(Activation kind, double x);

} // namespace attnbook
