#include "core/math/layer_norm.h"

#include <cmath>
#include <numbers>

namespace attnbook {

void layerNormForward(const arma::mat& in, const LayerNormParams& ln, double eps,
                      LayerNormResult& out) {
    if (ln.identity) {
        out.out = in;
        out.xhat.reset();
        out.invStd.reset();
        return;
    }
    const arma::uword n = in.n_rows, d = in.n_cols;
    out.xhat.set_size(n, d);
    out.invStd.set_size(n);
    for (arma::uword r = 0; r < n; ++r) {
        double mean = 0.0;
        for (arma::uword c = 0; c < d; ++c) {
            mean += in(r, c);
        }
        mean /= double(d);
        double variance = 0.0; // population variance: divide by d
        for (arma::uword c = 0; c < d; ++c) {
            const double centred = in(r, c) - mean;
            variance += centred * centred;
        }
        variance /= double(d);
        const double invStd = 1.0 / std::sqrt(variance + eps);
        out.invStd(r) = invStd;
        for (arma::uword c = 0; c < d; ++c) {
            out.xhat(r, c) = (in(r, c) - mean) * invStd;
        }
    }
    out.out = out.xhat; // (n × d) γ ⊙ x̂ + β, row by row
    if (!ln.gamma.is_empty()) {
        out.out.each_row() %= ln.gamma;
    }
    if (!ln.beta.is_empty()) {
        out.out.each_row() += ln.beta;
    }
}

arma::mat layerNormBackward(const arma::mat& gradOut, const LayerNormParams& ln,
                            const LayerNormResult& forward, arma::rowvec& gradGamma,
                            arma::rowvec& gradBeta) {
    if (ln.identity) {
        gradGamma.reset();
        gradBeta.reset();
        return gradOut;
    }
    gradGamma = arma::sum(gradOut % forward.xhat, 0); // (d) column sums of g ⊙ x̂
    gradBeta = arma::sum(gradOut, 0);                 // (d) column sums of g
    arma::mat gradXhat = gradOut;                     // (n × d) g ⊙ γ
    if (!ln.gamma.is_empty()) {
        gradXhat.each_row() %= ln.gamma;
    }
    const arma::uword n = gradOut.n_rows, d = gradOut.n_cols;
    arma::mat gradIn(n, d);
    for (arma::uword r = 0; r < n; ++r) {
        double meanGrad = 0.0, meanGradXhat = 0.0;
        for (arma::uword c = 0; c < d; ++c) {
            meanGrad += gradXhat(r, c);
            meanGradXhat += gradXhat(r, c) * forward.xhat(r, c);
        }
        meanGrad /= double(d);
        meanGradXhat /= double(d);
        for (arma::uword c = 0; c < d; ++c) {
            gradIn(r, c) =
                forward.invStd(r) * (gradXhat(r, c) - meanGrad - forward.xhat(r, c) * meanGradXhat);
        }
    }
    return gradIn;
}

namespace {
constexpr double kTanhScale = 0.7978845608028654; // √(2/π)
constexpr double kCubic = 0.044715;
} // namespace

namespace {
struct ActivationName {
    Activation kind;
    const char* key;
    const char* label;
};
constexpr ActivationName kActivations[] = {{Activation::Gelu, "gelu", "GELU"},
                                           {Activation::GeluTanh, "gelu_tanh", "GELU (tanh)"},
                                           {Activation::Relu, "relu", "ReLU"}};
const ActivationName& named(Activation kind) {
    for (const ActivationName& a : kActivations) {
        if (a.kind == kind) {
            return a;
        }
    }
    return kActivations[0];
}
} // namespace

const char* activationKey(Activation kind) {
    return named(kind).key;
}
const char* activationLabel(Activation kind) {
    return named(kind).label;
}

std::optional<Activation> activationFromKey(std::string_view key) {
    for (const ActivationName& a : kActivations) {
        if (key == a.key) {
            return a.kind;
        }
    }
    return std::nullopt;
}

double activate(Activation kind, double x) {
    switch (kind) {
    case Activation::Gelu:
        return 0.5 * x * (1.0 + std::erf(x / std::numbers::sqrt2));
    case Activation::GeluTanh:
        return 0.5 * x * (1.0 + std::tanh(kTanhScale * (x + kCubic * x * x * x)));
    case Activation::Relu:
        return x > 0.0 ? x : 0.0;
    }
    return x;
}

double activationSlope(Activation kind, double x) {
    switch (kind) {
    case Activation::Gelu: {
        // Φ(x) + x φ(x)
        const double cdf = 0.5 * (1.0 + std::erf(x / std::numbers::sqrt2));
        const double pdf = std::exp(-0.5 * x * x) / std::sqrt(2.0 * std::numbers::pi);
        return cdf + x * pdf;
    }
    case Activation::GeluTanh: {
        const double t = std::tanh(kTanhScale * (x + kCubic * x * x * x));
        return 0.5 * (1.0 + t) +
               0.5 * x * (1.0 - t * t) * kTanhScale * (1.0 + 3.0 * kCubic * x * x);
    }
    case Activation::Relu:
        return x > 0.0 ? 1.0 : 0.0;
    }
    return 1.0;
}

} // namespace attnbook
