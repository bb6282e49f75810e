#include "core/math/gradient_check.h"

#include "core/math/attention_engine.h"
#include "core/math/attention_result.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace attnbook {
namespace {

constexpr double kStep = 1e-6;

// One parameter as the check sees it: the entries to perturb in a private copy
// of the configuration, and the analytic gradient to compare against.
struct CheckedParameter {
    const char* name;
    arma::mat* values; // inside the copy of the configuration
    const arma::mat* analytic;
};

void explicitIdentity(Projection& proj, arma::uword size) {
    if (proj.identity) {
        proj.identity = false;
        proj.weights = arma::eye(size, size);
    }
}

std::string scientific(double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1e", value);
    return buffer;
}

} // namespace

double forwardCost(double n, double m, double d, double h, double dK, double dV, double dO) {
    // Q (n × h·d_k), K (m × h·d_k) and V (m × h·d_v) from X (· × d); in direct mode (d = 0)
    // one pass over each as it is copied in.
    const double projections = ((n + m) * (h * dK) + m * (h * dV)) * std::max(1.0, d);
    const double heads = n * m * h * (dK + dV); // scores and contexts
    const double readout = n * dO * (h * dV);   // Y from the concat
    return projections + heads + readout;
}

double forwardCost(const AttentionResult& r) {
    return forwardCost(r.n, r.m, r.d, r.h, r.dK, r.dV, r.dO);
}

size_t gradientCheckSample(double forwardWork, size_t total) {
    const double perEntry = 2 * std::max(forwardWork, 1.0);
    const double affordable =
        std::min(GradientCheckPolicy::kBudget / perEntry, double(GradientCheckPolicy::kMaxEntries));
    if (affordable < double(std::min(total, GradientCheckPolicy::kMinEntries))) {
        return 0;
    }
    return std::min(total, size_t(affordable));
}

double gradientCheckWork(double forwardWork, size_t total) {
    return double(gradientCheckSample(forwardWork, total)) * 2 * std::max(forwardWork, 1.0);
}

double gradientCheckEntries(double n, double m, double d, double h, double dK, double dV,
                            double dO) {
    if (d <= 0) {
        return (n + m) * h * dK + m * h * dV; // Q (n × h·d_k), K (m × h·d_k), V (m × h·d_v)
    }
    const double weights = d * h * (2 * dK + dV) + dO * h * dV; // W_Q, W_K, W_V, W_O
    const double biases = h * (2 * dK + dV) + dO;               // b_Q, b_K, b_V, b_O
    return n * d + weights + biases;                            // and X (n × d)
}

double attentionGradientsWork(double n, double m, double d, double h, double dK, double dV,
                              double dO) {
    const double forward = forwardCost(n, m, d, h, dK, dV, dO);
    const double entries = gradientCheckEntries(n, m, d, h, dK, dV, dO);
    return 3 * forward + gradientCheckWork(forward, size_t(std::min(entries, 1e18)));
}

double attentionGradientsWork(const AttentionResult& r) {
    return attentionGradientsWork(r.n, r.m, r.direct ? 0 : r.d, r.h, r.dK, r.dV, r.dO);
}

bool gradientCheckSampled(size_t flat, size_t sample, size_t total) {
    const size_t k = (flat * sample + total - 1) / total;
    return k < sample && k * total / sample == flat;
}

void GradientComparison::add(const std::string& name, arma::uword rows, arma::uword e,
                             double analytic, double numeric) {
    ++checked_;
    if (!std::isfinite(analytic) || !std::isfinite(numeric)) {
        notFinite_ = true;
        worst_ = {name, int(e % rows), int(e / rows), analytic, numeric};
        return;
    }
    largestMagnitude_ = std::max({largestMagnitude_, std::abs(analytic), std::abs(numeric)});
    const double difference = std::abs(analytic - numeric);
    if (difference > largestDifference_) {
        largestDifference_ = difference;
        worst_ = {name, int(e % rows), int(e / rows), analytic, numeric};
    }
}

GradientCheckReport GradientComparison::finish(GradientCheckReport report) const {
    report.checked = checked_;
    if (notFinite_) {
        report.ran = false;
        report.skipped = "the gradients are not finite numbers here (" + worst_.gradient +
                         " overflows), so they cannot be compared";
        return report;
    }
    report.ran = true;
    if (checked_ > 0) {
        report.worst = worst_;
    }
    report.maxRelError = largestMagnitude_ > 0 ? largestDifference_ / largestMagnitude_ : 0.0;
    return report;
}

GradientCheckReport gradientCheck(const AttentionConfig& config, const AttentionResult& analytic,
                                  const AttentionLimits& limits) {
    GradientCheckReport report;
    AttentionConfig probe = config;
    const AttentionGradients& g = analytic.grad;
    probe.upstream = g.upstream;

    // Biases and identity weights become explicit, so they can be nudged.
    // Row vectors are checked through (1 × k) matrices that alias them.
    std::vector<CheckedParameter> params;
    arma::mat bQ, bK, bV, bO, gbQ, gbK, gbV, gbO;
    if (config.direct) {
        params = {{"queries", &probe.queries, &g.queries},
                  {"keys", &probe.keys, &g.keys},
                  {"values", &probe.values, &g.values}};
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
        params = {{"X", &probe.X0, &g.X},
                  {"W_Q", &probe.wQ.weights, &g.W_Q},
                  {"W_K", &probe.wK.weights, &g.W_K},
                  {"W_V", &probe.wV.weights, &g.W_V},
                  {"W_O", &probe.wO.weights, &g.W_O},
                  {"b_Q", &bQ, &gbQ},
                  {"b_K", &bK, &gbK},
                  {"b_V", &bV, &gbV},
                  {"b_O", &bO, &gbO}};
    }

    for (const CheckedParameter& p : params) {
        report.total += p.values->n_elem;
    }
    const double perEntry = 2 * std::max(forwardCost(analytic), 1.0);
    const size_t sample = gradientCheckSample(forwardCost(analytic), report.total);
    if (sample == 0 && report.total > 0) {
        report.skipped = "this cell is too large to check: one entry costs " +
                         scientific(perEntry) + " multiply-adds";
        return report;
    }

    AttentionEngine engine(limits);
    AttentionResult scratch;
    const auto loss = [&]() {
        probe.bQ = bQ, probe.bK = bK, probe.bV = bV, probe.bO = bO;
        if (config.direct) {
            probe.bQ.reset(), probe.bK.reset(), probe.bV.reset(), probe.bO.reset();
        }
        engine.forward(probe, scratch);
        ++report.forwardPasses;
        return arma::accu(g.upstream % scratch.output); // L = Σ G_Y ⊙ Y
    };

    GradientComparison comparison;
    size_t flat = 0;
    for (const CheckedParameter& p : params) {
        for (arma::uword e = 0; e < p.values->n_elem; ++e, ++flat) {
            if (!gradientCheckSampled(flat, sample, report.total)) {
                continue;
            }
            double& entry = (*p.values)(e);
            const double saved = entry;
            entry = saved + kStep;
            const double up = loss();
            entry = saved - kStep;
            const double down = loss();
            entry = saved;
            comparison.add(p.name, p.values->n_rows, e, (*p.analytic)(e),
                           (up - down) / (2 * kStep));
        }
    }
    return comparison.finish(report);
}

std::vector<std::string> gradientCheckSentences(const GradientCheckReport& check, bool withSlopes) {
    if (!check.ran) {
        return {check.skipped.empty() ? "The gradient check did not run."
                                      : "Gradient check skipped: " + check.skipped + "."};
    }
    char error[32];
    std::snprintf(error, sizeof error, "%.1e", check.maxRelError);
    const GradientCheckEntry& worst = check.worst;
    // A bias is one row: its entry is named by its index alone ("b_Q[2]", "layers[0].b_1[5]").
    const std::string last = worst.gradient.substr(worst.gradient.rfind('.') + 1);
    const std::string entry =
        worst.gradient + (last.rfind("b_", 0) == 0 ? "[" + std::to_string(worst.col) + "]"
                                                   : "[" + std::to_string(worst.row) + "][" +
                                                         std::to_string(worst.col) + "]");
    std::vector<std::string> lines = {
        std::string("Gradient check against central differences: relative error ") + error + ", " +
            (check.passed() ? "passed" : "failed") + " (below 1e-6 passes).",
        std::to_string(check.checked) + " of " + std::to_string(check.total) +
            " entries checked; the largest difference is at ∂L/∂" + entry + "."};
    if (withSlopes) {
        char slopes[96];
        std::snprintf(slopes, sizeof slopes,
                      "There the analytic slope is %.10g and the measured one %.10g.",
                      worst.analytic, worst.numeric);
        lines.emplace_back(slopes);
    }
    return lines;
}

} // namespace attnbook
