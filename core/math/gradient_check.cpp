#include "core/math/gradient_check.h"

#include "core/math/attention_engine.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace attnbook {
namespace {

constexpr double kStep = 1e-6;

// One parameter as the check sees it: the entries to perturb in a private copy
// of the configuration, and the analytic gradient to compare against.
struct CheckedParameter {
    arma::mat* values; // inside the copy of the configuration
    const arma::mat* analytic;
};

void explicitIdentity(Projection& proj, arma::uword size) {
    if (proj.identity) {
        proj.identity = false;
        proj.weights = arma::eye(size, size);
    }
}

} // namespace

double gradientCheck(const AttentionConfig& config, const AttentionResult& analytic,
                     const AttentionLimits& limits, size_t maxEntries) {
    AttentionConfig probe = config;
    const AttentionGradients& g = analytic.grad;
    probe.upstream = g.upstream;

    // Biases and identity weights become explicit, so they can be nudged.
    // Row vectors are checked through (1 × k) matrices that alias them.
    std::vector<CheckedParameter> params;
    arma::mat bQ, bK, bV, bO, gbQ, gbK, gbV, gbO;
    if (config.direct) {
        params = {{&probe.queries, &g.queries}, {&probe.keys, &g.keys}, {&probe.values, &g.values}};
    } else {
        explicitIdentity(probe.wQ, arma::uword(analytic.d));
        explicitIdentity(probe.wK, arma::uword(analytic.d));
        explicitIdentity(probe.wV, arma::uword(analytic.d));
        explicitIdentity(probe.wO, arma::uword(analytic.h * analytic.dV));
        const auto biasOr = [](const arma::rowvec& b, arma::uword n) -> arma::mat {
            return b.is_empty() ? arma::mat(1, n, arma::fill::zeros) : arma::mat(b);
        };
        bQ = biasOr(config.bQ, g.b_Q.n_elem);
        bK = biasOr(config.bK, g.b_K.n_elem);
        bV = biasOr(config.bV, g.b_V.n_elem);
        bO = biasOr(config.bO, g.b_O.n_elem);
        gbQ = g.b_Q, gbK = g.b_K, gbV = g.b_V, gbO = g.b_O;
        params = {{&probe.X0, &g.X},
                  {&probe.wQ.weights, &g.W_Q},
                  {&probe.wK.weights, &g.W_K},
                  {&probe.wV.weights, &g.W_V},
                  {&probe.wO.weights, &g.W_O},
                  {&bQ, &gbQ},
                  {&bK, &gbK},
                  {&bV, &gbV},
                  {&bO, &gbO}};
    }

    size_t total = 0;
    for (const CheckedParameter& p : params) {
        total += p.values->n_elem;
    }
    // Two forward passes per checked entry: keep the whole check to about a
    // billion multiply-adds (a second or two), so a 512-token cell is checked
    // on a sample instead of for minutes.
    const double n = analytic.n, m = analytic.m, h = analytic.h;
    const double forwardCost = n * m * h * (analytic.dK + analytic.dV) +
                               (n + 2 * m) * double(analytic.Q.n_cols) * std::max(1, analytic.d) +
                               n * double(analytic.dO) * double(analytic.concat.n_cols);
    const size_t affordable =
        size_t(std::clamp(1e9 / (2 * std::max(forwardCost, 1.0)), 8.0, double(maxEntries)));
    const size_t stride = std::max<size_t>(1, (total + affordable - 1) / affordable);

    AttentionEngine engine(limits);
    AttentionResult scratch;
    const auto loss = [&]() {
        probe.bQ = bQ, probe.bK = bK, probe.bV = bV, probe.bO = bO;
        if (config.direct) {
            probe.bQ.reset(), probe.bK.reset(), probe.bV.reset(), probe.bO.reset();
        }
        engine.forward(probe, scratch);
        return arma::accu(g.upstream % scratch.output); // L = Σ G_Y ⊙ Y
    };

    double worst = 0.0;
    size_t index = 0;
    for (const CheckedParameter& p : params) {
        for (arma::uword e = 0; e < p.values->n_elem; ++e, ++index) {
            if (index % stride != 0) {
                continue;
            }
            double& entry = (*p.values)(e);
            const double saved = entry;
            entry = saved + kStep;
            const double up = loss();
            entry = saved - kStep;
            const double down = loss();
            entry = saved;
            const double numeric = (up - down) / (2 * kStep);
            const double exact = (*p.analytic)(e);
            const double scale = std::max({1e-6, std::abs(exact), std::abs(numeric)});
            worst = std::max(worst, std::abs(exact - numeric) / scale);
        }
    }
    return worst;
}

} // namespace attnbook
