// Generation with the key/value cache against full recomputes of the slow reference
// (transformer_reference.h), its costs and splitmix64, and attention in blocks against the
// plain softmax path (transformer.md).
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
// Generation with the cache: every step's chances equal a full recompute of the longer
// sequence's last row, the picks and costs follow transformer.md.

TEST_CASE("generation") {
    Generator gen(77);
    TransformerEngine engine;
    for (int index = 0; index < 12; ++index) {
        const Draw draw = drawCell(gen, true);
        for (const PickKind pick : {PickKind::Greedy, PickKind::Sample}) {
            for (int steps = 1; steps <= 5; ++steps) {
                const uint64_t seed = uint64_t(gen.integer(0, 1 << 30)) * 2654435761ull;
                INFO(draw.label << (pick == PickKind::Greedy ? " greedy" : " sample seed ")
                                << (pick == PickKind::Greedy ? "" : std::to_string(seed))
                                << " steps " << steps);
                TransformerConfig config = draw.config;
                config.generate = GenerateRequest{steps, pick, seed};
                TransformerResult r;
                try {
                    r = engine.compute(config, GradientCheck::Skip);
                } catch (const std::exception& e) {
                    FAIL_CHECK("threw " << std::string(e.what()));
                    continue;
                }
                CHECK_MESSAGE(r.generation.ran, r.generation.refused);
                CHECK(r.generation.refused.empty());
                CHECK_EQ(r.generation.steps.size(), size_t(steps));
                if (!r.generation.ran || r.generation.steps.size() != size_t(steps)) {
                    continue;
                }

                const tref::Cell& cell = draw.cell;
                std::vector<int> words = cell.tokenWords;
                uint64_t state = seed;
                for (int t = 1; t <= steps; ++t) {
                    const GenerationStep& step = r.generation.steps[size_t(t - 1)];
                    const tref::Forward f = tref::forward(extended(draw, words));
                    Matrix last(1, cell.V);
                    for (int w = 0; w < cell.V; ++w) {
                        last.at(0, w) = f.probs.at(int(words.size()) - 1, w);
                    }
                    Comparison cmp;
                    cmp.matrix("step " + std::to_string(t) + " probs", step.probs, last);
                    CHECK_MESSAGE(cmp.ok(), cmp.report());

                    int word = 0;
                    if (pick == PickKind::Greedy) { // the most likely, the first on a tie
                        for (int w = 1; w < cell.V; ++w) {
                            word = last.v[size_t(w)] > last.v[size_t(word)] ? w : word;
                        }
                    } else { // the first whose running total exceeds u
                        const double u = double(splitmix(state) >> 11) * 0x1.0p-53;
                        Real total = 0;
                        word = -1;
                        for (int w = 0; w < cell.V && word < 0; ++w) {
                            total += last.v[size_t(w)];
                            word = total > u ? w : -1;
                        }
                        for (int w = cell.V; word < 0 && w-- > 0;) {
                            word = last.v[size_t(w)] > 0 ? w : -1;
                        }
                    }
                    CHECK_EQ(step.word, word);
                    CHECK_EQ(step.label, draw.config.vocabLabels[size_t(word)]);
                    CHECK(close(step.prob, last.v[size_t(word)], 1e-12));
                    const int n = cell.n;
                    CHECK_EQ(step.costCached, double(t == 1 ? n * n : n + t - 1));
                    CHECK_EQ(step.costFull, double((n + t - 1) * (n + t - 1)));
                    if (step.word != word) {
                        break; // the sequences part here
                    }
                    words.push_back(word);
                }
                double cache = 0; // L · h · (d_k + d_v) · (n + N − 1), summed over the layers
                for (const tref::Layer& layer : cell.layers) {
                    cache += layer.att.h * (layer.att.dK + layer.att.dV) * (cell.n + steps - 1);
                }
                CHECK_EQ(r.generation.cacheNumbers, cache);
            }
        }
    }
}

// Without a causal mask in every layer there is nothing to cache: refused, with the reason,
// and the rest of the cell still computed.
TEST_CASE("generationRefusedWithoutMask") {
    Generator gen(78);
    for (int index = 0; index < 4; ++index) {
        Draw draw = drawCell(gen, true);
        // The last layer unmasked: the first cell has one layer, later ones possibly more.
        draw.config.layers.back().attention.mask = MaskKind::None;
        draw.config.generate = GenerateRequest{3, PickKind::Greedy, 0};
        INFO(draw.label);
        const TransformerResult r = TransformerEngine().compute(draw.config, GradientCheck::Skip);
        CHECK_FALSE(r.generation.ran);
        CHECK_FALSE(r.generation.refused.empty());
        CHECK(r.generation.steps.empty());
        CHECK_EQ(r.probs.n_rows, arma::uword(draw.cell.n));
    }
}

// splitmix64: the first outputs from state 0 (also computed with Python's integers when this
// test was written), and the engine's against the one above for a few seeds.
TEST_CASE("splitmix64") {
    uint64_t state = 0;
    CHECK_EQ(splitmix(state), 0xE220A8397B1DCDAFull);
    CHECK_EQ(splitmix(state), 0x6E789E6AA1B965F4ull);
    CHECK_EQ(splitmix(state), 0x06C45D188009454Full);
    CHECK_EQ(state, 3 * 0x9E3779B97F4A7C15ull);
    for (const uint64_t seed : {0ull, 1ull, 42ull, 0xFFFFFFFFFFFFFFFFull, 0x0123456789ABCDEFull}) {
        uint64_t mine = seed, theirs = seed;
        for (int t = 0; t < 8; ++t) {
            CHECK_EQ(attnbook::splitmix64(theirs), splitmix(mine));
            CHECK_EQ(theirs, mine);
        }
    }
}

// The picks on numbers whose running totals are exact (binary fractions).
TEST_CASE("picks") {
    const arma::rowvec p = {0.25, 0.5, 0.25};
    CHECK_EQ(pickByDraw(p, 0.0), 0);
    CHECK_EQ(pickByDraw(p, 0.2499), 0);
    CHECK_EQ(pickByDraw(p, 0.25), 1); // the total must exceed u
    CHECK_EQ(pickByDraw(p, 0.7499), 1);
    CHECK_EQ(pickByDraw(p, 0.75), 2);
    CHECK_EQ(pickByDraw(p, 0.9999), 2);
    // Rounding left the total at or below u: the last word with a positive chance.
    CHECK_EQ(pickByDraw(arma::rowvec{0.5, 0.25, 0.0}, 0.9), 1);
    CHECK_EQ(pickGreedy(arma::rowvec{0.25, 0.375, 0.375}), 1);
    CHECK_EQ(pickGreedy(arma::rowvec{0.1, 0.2, 0.7}), 2);
    CHECK_EQ(pickGreedy(arma::rowvec{1.0}), 0);
}

// ---------------------------------------------------------------------------
// Attention in blocks: the running m, ℓ and o after each block and the final rows, against
// the plain softmax path.

TEST_CASE("blocks") {
    Generator gen(31);
    for (int index = 0; index < 60; ++index) {
        const int n = gen.integer(1, 7);
        const int m = gen.coin(0.7) ? n : gen.integer(1, 7);
        const int dK = gen.integer(1, 3), dV = gen.integer(1, 3);
        const Matrix Q = gen.matrix(n, dK, 2.0), K = gen.matrix(m, dK, 2.0), V = gen.matrix(m, dV);
        const double scale = gen.uniform(0.3, 1.5);
        const MaskKind mask = gen.coin(0.5) ? MaskKind::Causal : MaskKind::None;
        std::vector<bool> padding;
        const int style = gen.integer(0, 9); // 0–5 none, 6–8 some flags, 9 every flag
        if (style >= 6) {
            for (int c = 0; c < m; ++c) {
                padding.push_back(style == 9 || gen.coin(0.3));
            }
        }
        // Query row r sits at position m − n + r (attention.md, "Direct mode").
        const auto readable = [&](int r, int c) {
            return !(mask == MaskKind::Causal && c > m - n + r) &&
                   (padding.empty() || !padding[size_t(c)]);
        };
        Matrix S(n, m);
        for (int r = 0; r < n; ++r) {
            for (int c = 0; c < m; ++c) {
                Real dot = 0;
                for (int t = 0; t < dK; ++t) {
                    dot += Q.at(r, t) * K.at(c, t);
                }
                S.at(r, c) = readable(r, c) ? Real(scale) * dot : tref::kMinusInf;
            }
        }
        // m, ℓ and o of every row over the keys [0, end): a definition, not a recurrence.
        const auto state = [&](int end, Matrix& runningMax, Matrix& total, Matrix& out) {
            runningMax = Matrix(n, 1, tref::kMinusInf);
            total = Matrix(n, 1);
            out = Matrix(n, dV);
            for (int r = 0; r < n; ++r) {
                for (int c = 0; c < end; ++c) {
                    runningMax.at(r, 0) = std::max(runningMax.at(r, 0), S.at(r, c));
                }
                for (int c = 0; c < end && runningMax.at(r, 0) != tref::kMinusInf; ++c) {
                    const Real e = std::exp(S.at(r, c) - runningMax.at(r, 0));
                    total.at(r, 0) += e;
                    for (int t = 0; t < dV; ++t) {
                        out.at(r, t) += e * V.at(c, t);
                    }
                }
            }
        };
        Matrix finalMax, finalTotal, finalOut;
        state(m, finalMax, finalTotal, finalOut);
        Matrix output(n, dV); // the softmax path: o / ℓ, 0 for a row that reads nothing
        for (int r = 0; r < n; ++r) {
            for (int t = 0; t < dV && finalTotal.at(r, 0) > 0; ++t) {
                output.at(r, t) = finalOut.at(r, t) / finalTotal.at(r, 0);
            }
        }
        for (const int B : {1, 2, 3, m, m + 1}) {
            INFO("n=" << n << " m=" << m << " d_k=" << dK << " d_v=" << dV << " B=" << B
                      << (mask == MaskKind::Causal ? " causal" : "")
                      << (padding.empty() ? "" : " padding"));
            const BlockwiseHead b =
                blockwiseHead(toArma(Q), toArma(K), toArma(V), scale, mask, padding, B);
            CHECK_EQ(b.steps.size(), size_t((m + B - 1) / B));
            if (b.steps.size() != size_t((m + B - 1) / B)) {
                continue;
            }
            Comparison cmp;
            for (size_t j = 0; j < b.steps.size(); ++j) {
                const BlockwiseStep& step = b.steps[j];
                const int end = std::min(m, int(j + 1) * B);
                CHECK_EQ(step.firstKey, int(j) * B);
                CHECK_EQ(step.endKey, end);
                Matrix runningMax, total, out;
                state(end, runningMax, total, out);
                const std::string at = "step " + std::to_string(j);
                cmp.matrix(at + " m", step.runningMax, runningMax);
                cmp.matrix(at + " l", step.runningTotal, total);
                cmp.matrix(at + " o", step.runningOut, out);
            }
            cmp.matrix("output", b.output, output);
            CHECK_MESSAGE(cmp.ok(), cmp.report());
        }
    }
    CHECK_THROWS_AS(blockwiseHead(arma::mat(2, 1, arma::fill::ones),
                                  arma::mat(2, 1, arma::fill::ones),
                                  arma::mat(2, 1, arma::fill::ones), 1.0, MaskKind::None, {}, 0),
                    std::invalid_argument);
}
