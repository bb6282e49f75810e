// Training (docs/training.md) against the slow reference of transformer_reference.h: random
// tied cells trained by SGD and by Adam, and the edges of a training run.
#include "core/math/blockwise_attention.h"
#include "core/math/transformer_engine.h"
#include "core/math/transformer_knockouts.h"
#include "core/math/transformer_training.h"

#include "test_support.h"
#include "transformer_reference.h"
#include "transformer_reference_cells.h"
#include "transformer_reference_compare.h"

#include <cstdint>
#include <cstdio>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace attnbook;
using namespace tref::cells;
using tref::Matrix;
using tref::Real;

// ---------------------------------------------------------------------------
// Training (docs/training.md) by the reference: each sentence run on its own through the slow
// forward and the hand-derived backward, the gradients summed with weights m_s / M, and SGD or
// Adam written out again here, all in long double.

namespace {

struct RefTraining {
    std::vector<Real> loss;
    std::vector<Real> gradNorm;
};

// `draw`'s cell running `words` (rows of its tied vocab) with each next word as its target.
tref::Cell sentenceCell(const Draw& draw, const tref::Cell& weights,
                        const std::vector<int>& words) {
    tref::Cell cell = withWords(draw, weights, words);
    cell.T = 1;
    cell.targets.assign(words.begin() + 1, words.end());
    cell.targets.push_back(-1);
    cell.upstream = Matrix();
    for (tref::Layer& layer : cell.layers) {
        layer.att.padding.clear();
    }
    return cell;
}

// The trainable tensors of a tied cell and their gradients, in the `grad` listing's order.
std::vector<std::pair<Matrix*, const Matrix*>> trainable(tref::Cell& cell, const tref::Grads& g) {
    std::vector<std::pair<Matrix*, const Matrix*>> out;
    for (size_t l = 0; l < cell.layers.size(); ++l) {
        tref::Layer& layer = cell.layers[l];
        const tref::LayerGrads& lg = g.layers[l];
        for (auto [value, grad] : {std::pair{&layer.att.WQ, &lg.WQ},
                                   {&layer.att.bQ, &lg.bQ},
                                   {&layer.att.WK, &lg.WK},
                                   {&layer.att.bK, &lg.bK},
                                   {&layer.att.WV, &lg.WV},
                                   {&layer.att.bV, &lg.bV},
                                   {&layer.att.WO, &lg.WO},
                                   {&layer.att.bO, &lg.bO}}) {
            out.emplace_back(value, grad);
        }
        if (!layer.ln1.identity) {
            out.emplace_back(&layer.ln1.gamma, &lg.ln1Gamma);
            out.emplace_back(&layer.ln1.beta, &lg.ln1Beta);
        }
        if (!layer.ln2.identity) {
            out.emplace_back(&layer.ln2.gamma, &lg.ln2Gamma);
            out.emplace_back(&layer.ln2.beta, &lg.ln2Beta);
        }
        if (layer.ffn.present) {
            out.emplace_back(&layer.ffn.W1, &lg.W1);
            out.emplace_back(&layer.ffn.b1, &lg.b1);
            out.emplace_back(&layer.ffn.W2, &lg.W2);
            out.emplace_back(&layer.ffn.b2, &lg.b2);
        }
    }
    if (!cell.finalLn.identity) {
        out.emplace_back(&cell.finalLn.gamma, &g.finalGamma);
        out.emplace_back(&cell.finalLn.beta, &g.finalBeta);
    }
    out.emplace_back(&cell.U, &g.vocab); // tied: the vocab, its X0 rows' gradients added
    out.emplace_back(&cell.bU, &g.bU);
    return out;
}

RefTraining referenceTraining(const Draw& draw, const std::vector<std::vector<int>>& data,
                              int steps, bool adam, Real lr) {
    tref::Cell w = draw.cell;
    RefTraining out;
    int M = 0;
    for (const std::vector<int>& s : data) {
        M += int(s.size()) - 1;
    }
    std::vector<Matrix> m1, m2;
    for (int step = 0; step <= steps; ++step) {
        Real loss = 0;
        std::vector<Matrix> total;
        for (const std::vector<int>& words : data) {
            const tref::Cell cell = sentenceCell(draw, w, words);
            const tref::Forward f = tref::forward(cell);
            const Real share = Real(int(words.size()) - 1) / M;
            loss += share * f.loss;
            const tref::Grads g = tref::backward(cell, f);
            tref::Cell scratch = w;
            const auto pairs = trainable(scratch, g);
            if (total.empty()) {
                for (const auto& [value, grad] : pairs) {
                    total.emplace_back(value->rows, value->cols);
                }
            }
            for (size_t i = 0; i < pairs.size(); ++i) {
                for (size_t e = 0; e < total[i].v.size(); ++e) {
                    total[i].v[e] += share * pairs[i].second->v[e];
                }
            }
        }
        out.loss.push_back(loss);
        if (step == steps) {
            break;
        }
        Real squares = 0;
        for (const Matrix& g : total) {
            for (Real x : g.v) {
                squares += x * x;
            }
        }
        out.gradNorm.push_back(std::sqrt(squares));
        const auto params = trainable(w, tref::Grads{});
        if (m1.empty()) {
            for (const Matrix& g : total) {
                m1.emplace_back(g.rows, g.cols);
                m2.emplace_back(g.rows, g.cols);
            }
        }
        for (size_t i = 0; i < params.size(); ++i) {
            Matrix& theta = *params[i].first;
            for (size_t e = 0; e < theta.v.size(); ++e) {
                const Real g = total[i].v[e];
                if (!adam) {
                    theta.v[e] -= lr * g;
                    continue;
                }
                m1[i].v[e] = 0.9L * m1[i].v[e] + 0.1L * g;
                m2[i].v[e] = 0.999L * m2[i].v[e] + 0.001L * g * g;
                const Real mHat = m1[i].v[e] / (1 - std::pow(0.9L, Real(step + 1)));
                const Real vHat = m2[i].v[e] / (1 - std::pow(0.999L, Real(step + 1)));
                theta.v[e] -= lr * mHat / (std::sqrt(vHat) + 1e-8L);
            }
        }
    }
    return out;
}

} // namespace

// Twenty tied random cells trained 15 steps, by SGD and by Adam, on four random sentences: the
// engine's loss and gradient norm at every step against the reference's to 1e-9 relative.
TEST_CASE("trainingMatchesTheReference") {
    int cells = 0;
    for (const Draw& draw : randomCells()) {
        if (!draw.cell.tied || !(draw.config.run == TransformerSwitches{}) ||
            draw.config.positional == PositionalKind::Learned) {
            continue;
        }
        INFO(draw.label);
        std::mt19937_64 rng(uint64_t(cells) + 5);
        std::vector<std::vector<int>> data;
        for (int s = 0; s < 4; ++s) {
            std::vector<int> words(size_t(2 + rng() % 4));
            for (int& word : words) {
                word = int(rng() % uint64_t(draw.cell.V));
            }
            data.push_back(words);
        }
        for (const bool adam : {false, true}) {
            TrainingSpec spec;
            spec.data = data;
            spec.steps = 15;
            spec.optimizer = adam ? TrainingSpec::Optimizer::Adam : TrainingSpec::Optimizer::Sgd;
            spec.lr = adam ? 0.01 : 0.05;
            const TrainingResult got = trainTransformer(draw.config, spec);
            const RefTraining expected = referenceTraining(draw, data, spec.steps, adam, spec.lr);
            REQUIRE_MESSAGE(got.stopped.empty(), got.stopped);
            REQUIRE(got.loss.size() == expected.loss.size());
            REQUIRE(got.gradNorm.size() == expected.gradNorm.size());
            for (size_t t = 0; t < got.loss.size(); ++t) {
                CHECK_MESSAGE(close(got.loss[t], expected.loss[t], 1e-9),
                              (adam ? "adam" : "sgd")
                                  << " loss[" << t << "] " << precise(got.loss[t]) << ", expected "
                                  << precise(double(expected.loss[t])));
            }
            for (size_t t = 0; t < got.gradNorm.size(); ++t) {
                CHECK(close(got.gradNorm[t], expected.gradNorm[t], 1e-9));
            }
            CHECK(got.loss.back() < got.loss.front()); // it learns
        }
        if (++cells == 20) {
            break;
        }
    }
    CHECK(cells == 20);
}

// steps: 0 is the cell as written; a random start is the same numbers every time and the
// spec's Box–Muller over splitmix64; an lr far too large stops with the step and the reason.
TEST_CASE("trainingEdges") {
    const std::vector<Draw> draws = randomCells();
    const auto tied = std::find_if(draws.begin(), draws.end(), [](const Draw& d) {
        return d.cell.tied && d.config.run == TransformerSwitches{} &&
               d.config.positional != PositionalKind::Learned;
    });
    REQUIRE(tied != draws.end());
    TrainingSpec spec;
    spec.data = {{0, 1, 0}, {1, 0}};
    spec.steps = 0;
    const TrainingResult none = trainTransformer(tied->config, spec);
    REQUIRE(none.loss.size() == 1);
    CHECK(none.gradNorm.empty());
    CHECK(arma::approx_equal(none.weights.vocab, tied->config.vocab, "absdiff", 0.0));

    spec.init = TrainingSpec::Init{7, 0.5};
    const TrainingResult a = trainTransformer(tied->config, spec);
    const TrainingResult b = trainTransformer(tied->config, spec);
    CHECK(arma::approx_equal(a.weights.vocab, b.weights.vocab, "absdiff", 0.0));
    uint64_t state = 7; // the vocab's first entry: scale · √(−2 ln(1 − u₁)) · cos(2π u₂)
    const Real u1 = Real(splitmix(state) >> 11) * 0x1.0p-53L;
    const Real u2 = Real(splitmix(state) >> 11) * 0x1.0p-53L;
    const Real z = std::sqrt(-2 * std::log(1 - u1)) * std::cos(2 * tref::kPi * u2);
    CHECK(close(a.weights.vocab(0, 0), 0.5L * z, 1e-15));
    CHECK((a.weights.finalLn.identity || arma::all(a.weights.finalLn.gamma == 1.0)));

    spec.init.reset();
    spec.steps = 50;
    spec.optimizer = TrainingSpec::Optimizer::Sgd;
    spec.lr = 1e12;
    const TrainingResult blown = trainTransformer(tied->config, spec);
    CHECK_MESSAGE(blown.stopped.find("lr 1e+12 is too large: the loss overflowed at step ") == 0,
                  blown.stopped);
    CHECK(blown.loss.size() < 51);
    for (double loss : blown.loss) {
        CHECK(std::isfinite(loss));
    }
}
