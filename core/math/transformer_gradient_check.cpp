#include "core/math/gradient_check.h"
#include "core/math/transformer_engine.h"
#include "core/math/transformer_stages.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>

namespace attnbook {
namespace {

using namespace transformer;

constexpr double kStep = 1e-6; // attention.md's step

// One parameter as the check sees it: its entries inside a private copy of the configuration
// (`values`), the analytic gradient, and what else moves with an entry (a tied vocabulary row
// is also the token vectors of that word).
struct CheckedParameter {
    std::string name;
    arma::Mat<double>* values;
    const arma::Mat<double>* analytic;
    std::function<void(arma::uword entry, double delta)> alsoMoves;
    int firstLayer = 0; // the first layer a nudge changes (the layers run: the output alone)
};

void explicitIdentity(Projection& proj, arma::uword rows, arma::uword cols) {
    if (proj.identity) {
        proj.identity = false;
        proj.weights = arma::eye(rows, cols);
    }
}

void explicitBias(arma::rowvec& bias, arma::uword length) {
    if (bias.is_empty()) {
        bias.zeros(length);
    }
}

void explicitNorm(LayerNormParams& ln, arma::uword d) {
    if (ln.gamma.is_empty()) {
        ln.gamma.ones(d);
    }
    if (ln.beta.is_empty()) {
        ln.beta.zeros(d);
    }
}

std::string scientific(double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1e", value);
    return buffer;
}

std::string tooLarge(double work) {
    return "this cell is too large to check: one entry costs " +
           scientific(2 * std::max(work, 1.0)) + " multiply-adds";
}

// How many entries the check would list, counted from the analytic gradients, which exist for
// exactly the parameters the switches leave on (an identity LayerNorm, an FFN that does not
// run: none). A tied vocabulary is checked as `vocab`, not as the unembedding.
size_t checkedEntries(const TransformerConfig& config, const TransformerGradients& g) {
    size_t total = g.X0.n_elem + g.finalGamma.n_elem + g.finalBeta.n_elem + g.unembedBias.n_elem;
    total += config.tiedUnembed ? g.vocab.n_elem : g.unembed.n_elem;
    for (const TransformerLayerGradients& lg : g.layers) {
        const AttentionGradients& a = lg.attention;
        for (const arma::mat* m : {&a.W_Q, &a.W_K, &a.W_V, &a.W_O, &lg.W1, &lg.W2}) {
            total += m->n_elem;
        }
        for (const arma::rowvec* v : {&a.b_Q, &a.b_K, &a.b_V, &a.b_O, &lg.ln1Gamma, &lg.ln1Beta,
                                      &lg.ln2Gamma, &lg.ln2Beta, &lg.b1, &lg.b2}) {
            total += v->n_elem;
        }
    }
    return total;
}

// The parameters of layer `l` (`a`: its attention in the analytic result), written out in
// full (identities and absent biases made explicit) so that each entry can be nudged.
void addLayerParameters(int l, TransformerLayer& layer, const TransformerLayerGradients& lg,
                        const AttentionResult& a, const TransformerConfig& config, arma::uword d,
                        std::vector<CheckedParameter>& params) {
    const arma::uword qk = arma::uword(a.h * a.dK), vv = arma::uword(a.h * a.dV);
    AttentionConfig& att = layer.attention;
    explicitIdentity(att.wQ, qk, d);
    explicitIdentity(att.wK, qk, d);
    explicitIdentity(att.wV, vv, d);
    explicitIdentity(att.wO, d, vv);
    explicitBias(att.bQ, qk);
    explicitBias(att.bK, qk);
    explicitBias(att.bV, vv);
    explicitBias(att.bO, d);
    const std::string at = "layers[" + std::to_string(l) + "].";
    params.push_back({at + "attention.W_Q", &att.wQ.weights, &lg.attention.W_Q, {}});
    params.push_back({at + "attention.W_K", &att.wK.weights, &lg.attention.W_K, {}});
    params.push_back({at + "attention.W_V", &att.wV.weights, &lg.attention.W_V, {}});
    params.push_back({at + "attention.W_O", &att.wO.weights, &lg.attention.W_O, {}});
    params.push_back({at + "attention.b_Q", &att.bQ, &lg.attention.b_Q, {}});
    params.push_back({at + "attention.b_K", &att.bK, &lg.attention.b_K, {}});
    params.push_back({at + "attention.b_V", &att.bV, &lg.attention.b_V, {}});
    params.push_back({at + "attention.b_O", &att.bO, &lg.attention.b_O, {}});
    if (!effective(layer.ln1, config).identity) {
        explicitNorm(layer.ln1, d);
        params.push_back({at + "ln1.gamma", &layer.ln1.gamma, &lg.ln1Gamma, {}});
        params.push_back({at + "ln1.beta", &layer.ln1.beta, &lg.ln1Beta, {}});
    }
    if (ffnRuns(layer, config)) {
        FeedForwardParams& ffn = layer.ffn;
        explicitBias(ffn.b1, ffn.W1.n_rows);
        explicitBias(ffn.b2, d);
        params.push_back({at + "ffn.W_1", &ffn.W1, &lg.W1, {}});
        params.push_back({at + "ffn.b_1", &ffn.b1, &lg.b1, {}});
        params.push_back({at + "ffn.W_2", &ffn.W2, &lg.W2, {}});
        params.push_back({at + "ffn.b_2", &ffn.b2, &lg.b2, {}});
        if (!effective(layer.ln2, config).identity) {
            explicitNorm(layer.ln2, d);
            params.push_back({at + "ln2.gamma", &layer.ln2.gamma, &lg.ln2Gamma, {}});
            params.push_back({at + "ln2.beta", &layer.ln2.beta, &lg.ln2Beta, {}});
        }
    }
}

// The parameters after the last layer: the final LayerNorm, the unembedding (or the tied
// vocabulary) and its bias.
void addOutputParameters(TransformerConfig& probe, const TransformerConfig& config,
                         const TransformerGradients& g, arma::uword d,
                         std::vector<CheckedParameter>& params) {
    if (!effective(config.finalLn, config).identity) {
        explicitNorm(probe.finalLn, d);
        params.push_back({"final_ln.gamma", &probe.finalLn.gamma, &g.finalGamma, {}});
        params.push_back({"final_ln.beta", &probe.finalLn.beta, &g.finalBeta, {}});
    }
    if (config.tiedUnembed) {
        // A vocab entry is also that entry of every token vector of its word.
        std::vector<std::vector<arma::uword>> rowsOfWord(probe.vocab.n_rows);
        for (size_t row = 0; row < probe.tokens.size() && row < probe.X0.n_rows; ++row) {
            const auto word =
                std::find(probe.vocabLabels.begin(), probe.vocabLabels.end(), probe.tokens[row]);
            if (word != probe.vocabLabels.end()) {
                rowsOfWord[size_t(word - probe.vocabLabels.begin())].push_back(arma::uword(row));
            }
        }
        const arma::uword words = probe.vocab.n_rows;
        params.push_back({"vocab", &probe.vocab, &g.vocab,
                          [&probe, rowsOfWord, words](arma::uword entry, double delta) {
                              const arma::uword word = entry % words, col = entry / words;
                              for (arma::uword row : rowsOfWord[word]) {
                                  probe.X0(row, col) += delta;
                              }
                          }});
    } else {
        params.push_back({"unembed", &probe.unembed, &g.unembed, {}});
    }
    explicitBias(probe.unembedBias, probe.unembedding().n_rows);
    params.push_back({"b_U", &probe.unembedBias, &g.unembedBias, {}});
}

} // namespace

double transformerObjective(const TransformerConfig& config, const TransformerResult& forward) {
    if (!config.targets.empty()) {
        return forward.loss.value_or(0.0);
    }
    if (config.upstream) {
        return arma::accu(*config.upstream % forward.logits); // Σ upstream ⊙ logits
    }
    return arma::accu(forward.logits);
}

GradientCheckReport transformerGradientCheck(const TransformerConfig& config,
                                             const TransformerResult& analytic,
                                             const TransformerLimits& limits) {
    GradientCheckReport report;
    const double work = transformerForwardCost(config);
    if (gradientCheckSample(work, 1) == 0) {
        // Not one entry is affordable: say so before copying the weights into the probe (at
        // GPT-2's size the copy alone took 30–50 ms of every what-if).
        report.total = checkedEntries(config, analytic.grad);
        report.skipped = tooLarge(work);
        return report;
    }
    TransformerConfig probe = config;
    probe.generate.reset();
    probe.knockouts = false; // each probe reads the objective alone, not L·h + 3L passes more
    probe.upstream = analytic.grad.logits; // the objective's seed, targets or not
    if (!config.targets.empty()) {
        probe.upstream.reset();
    }
    const TransformerGradients& g = analytic.grad;
    const arma::uword d = arma::uword(analytic.d);

    std::vector<CheckedParameter> params;
    params.push_back({"X0", &probe.X0, &g.X0, {}});
    for (int l = 0; l < analytic.layersRun; ++l) {
        const size_t before = params.size();
        addLayerParameters(l, probe.layers[size_t(l)], g.layers[size_t(l)],
                           analytic.layers[size_t(l)].attention, config, d, params);
        for (size_t k = before; k < params.size(); ++k) {
            params[k].firstLayer = l;
        }
    }
    const size_t output = params.size();
    addOutputParameters(probe, config, g, d, params);
    for (size_t k = output; k < params.size(); ++k) {
        // a tied vocab entry also moves the token vectors: from the first layer
        params[k].firstLayer = params[k].alsoMoves ? 0 : analytic.layersRun;
    }
    // Switches already applied: the probe computes what the analytic result did.

    for (const CheckedParameter& p : params) {
        report.total += p.values->n_elem;
    }
    const size_t sample = gradientCheckSample(work, report.total);
    if (sample == 0 && report.total > 0) {
        report.skipped = tooLarge(work);
        return report;
    }

    // Each nudge computes the forward pass again from the nudged weight's layer on
    // (forwardFrom): the layers before it give the same numbers, bit for bit, as the pass of the
    // unnudged probe. `cleanBelow`: the layers of `scratch` that hold that pass.
    TransformerEngine engine(limits);
    TransformerResult scratch;
    engine.forward(probe, scratch);
    int cleanBelow = scratch.layersRun;
    int firstLayer = 0;
    const auto objective = [&] {
        engine.forwardFrom(probe, scratch, firstLayer);
        return transformerObjective(probe, scratch);
    };
    GradientComparison comparison;
    size_t flat = 0;
    for (const CheckedParameter& p : params) {
        for (arma::uword e = 0; e < p.values->n_elem; ++e, ++flat) {
            if (!gradientCheckSampled(flat, sample, report.total)) {
                continue;
            }
            if (cleanBelow < p.firstLayer) {
                engine.forwardFrom(probe, scratch, cleanBelow); // the unnudged layers again
            }
            firstLayer = p.firstLayer;
            cleanBelow = p.firstLayer;
            const auto nudge = [&](double delta) {
                (*p.values)(e) += delta;
                if (p.alsoMoves) {
                    p.alsoMoves(e, delta);
                }
            };
            const double saved = (*p.values)(e);
            const arma::mat savedX0 = p.alsoMoves ? probe.X0 : arma::mat();
            nudge(kStep);
            const double up = objective();
            nudge(-2 * kStep);
            const double down = objective();
            (*p.values)(e) = saved; // exactly, not by a third nudge
            if (p.alsoMoves) {
                probe.X0 = savedX0;
            }
            comparison.add(p.name, p.values->n_rows, e, (*p.analytic)(e),
                           (up - down) / (2 * kStep));
        }
    }
    return comparison.finish(report);
}

} // namespace attnbook
