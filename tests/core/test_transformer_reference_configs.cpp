// The worked numbers of transformer.md by the slow reference (transformer_reference.h), the
// configurations transformer.md refuses, and the gradient check's refusal of too many entries.
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
// transformer.md's worked numbers: one layer, no norms, no FFN, identity attention (one
// head, scaling on, no mask) over red, blue, red: X¹ = X⁰ + Attention(X⁰).

TEST_CASE("workedNumbers") {
    TransformerConfig config;
    config.vocab = {{1, 0, 0, 0}, {0, 1, 0, 0}};
    config.vocabLabels = {"red", "blue"};
    config.tokens = {"red", "blue", "red"};
    config.X0 = {{1, 0, 0, 0}, {0, 1, 0, 0}, {1, 0, 0, 0}};
    TransformerLayer layer;
    layer.ln1.identity = layer.ln2.identity = true;
    layer.ffn.present = false;
    config.layers = {layer};
    config.finalLn.identity = true;
    const TransformerResult r = TransformerEngine().compute(config);
    REQUIRE_EQ(r.layers.size(), size_t(1));
    const arma::mat& x1 = r.layers[0].resid2;
    REQUIRE_EQ(x1.n_rows, arma::uword(3));
    REQUIRE_EQ(x1.n_cols, arma::uword(4));
    const std::vector<std::vector<double>> expected = {
        {1.7673, 0.2327, 0, 0}, {0.5481, 1.4519, 0, 0}, {1.7673, 0.2327, 0, 0}};
    // The same from the reference.
    tref::Cell cell;
    cell.n = 3, cell.d = 4, cell.V = 2, cell.tied = true, cell.tokenWords = {0, 1, 0};
    cell.U = Matrix(2, 4);
    cell.U.at(0, 0) = cell.U.at(1, 1) = 1;
    cell.X0 = Matrix(3, 4);
    cell.X0.at(0, 0) = cell.X0.at(1, 1) = cell.X0.at(2, 0) = 1;
    cell.P = Matrix(3, 4);
    tref::Layer ref;
    ref.ln1.identity = ref.ln2.identity = true;
    ref.att.dK = ref.att.dV = 4;
    ref.att.scale = 0.5;
    ref.att.WQ = ref.att.WK = ref.att.WV = ref.att.WO = tref::identity(4);
    ref.att.bQ = ref.att.bK = ref.att.bV = ref.att.bO = Matrix(1, 4);
    cell.layers = {ref};
    cell.finalLn.identity = true;
    cell.eps = 1e-5;
    cell.bU = Matrix(1, 2);
    cell.upstream = Matrix(3, 2, 1);
    const tref::Forward f = tref::forward(cell);
    for (int row = 0; row < 3; ++row) {
        for (int col = 0; col < 4; ++col) {
            INFO("row " << row << " col " << col);
            CHECK(std::abs(x1(arma::uword(row), arma::uword(col)) -
                           expected[size_t(row)][size_t(col)]) < 1e-4);
            CHECK(std::abs(double(f.layers[0].resid2.at(row, col)) -
                           expected[size_t(row)][size_t(col)]) < 1e-4);
        }
    }
}

// ---------------------------------------------------------------------------
// Configurations that cannot be computed: InvalidConfig naming the key at fault, from
// validateTransformer and from compute.

namespace {

// Two layers of width 4 over a vocabulary of 5, three tokens with targets: computes.
TransformerConfig validConfig() {
    Generator gen(5);
    TransformerConfig c;
    c.vocab = toArma(gen.matrix(5, 4));
    c.vocabLabels = labels("w", 5);
    c.tokens = {"w1", "w3", "w0"};
    c.X0 = c.vocab.rows(arma::uvec{1, 3, 0});
    for (int l = 0; l < 2; ++l) {
        TransformerLayer layer;
        layer.attention.heads = 2;
        layer.attention.mask = MaskKind::Causal;
        layer.attention.wQ = {false, toArma(gen.matrix(4, 4))};
        layer.attention.wK = {false, toArma(gen.matrix(4, 4))};
        layer.attention.wV = {false, toArma(gen.matrix(4, 4))};
        layer.attention.wO = {false, toArma(gen.matrix(4, 4))};
        layer.ffn.W1 = toArma(gen.matrix(6, 4));
        layer.ffn.b1 = toRow(gen.matrix(1, 6));
        layer.ffn.W2 = toArma(gen.matrix(4, 6));
        c.layers.push_back(layer);
    }
    c.targets = {1, -1, 2};
    return c;
}

struct BadCase {
    const char* name;
    std::function<void(TransformerConfig&)> spoil;
    std::vector<std::string> keyParts; // what the key must name
};

} // namespace

TEST_CASE("invalidConfigurations") {
    const TransformerConfig valid = validConfig();
    REQUIRE_NOTHROW(validateTransformer(valid, TransformerLimits{}));
    REQUIRE_NOTHROW(TransformerEngine().compute(valid));
    const std::vector<BadCase> cases = {
        {"W_1 of the wrong width",
         [](TransformerConfig& c) { c.layers[1].ffn.W1 = arma::mat(6, 3, arma::fill::ones); },
         {"layers[1]", "W_1"}},
        {"W_2 of the wrong height",
         [](TransformerConfig& c) { c.layers[0].ffn.W2 = arma::mat(3, 6, arma::fill::ones); },
         {"layers[0]", "W_2"}},
        {"b_1 of the wrong length",
         [](TransformerConfig& c) { c.layers[0].ffn.b1 = arma::rowvec(5, arma::fill::ones); },
         {"layers[0]", "b_1"}},
        {"ln2 gamma of the wrong length",
         [](TransformerConfig& c) { c.layers[1].ln2.gamma = arma::rowvec(3, arma::fill::ones); },
         {"layers[1]", "ln2", "gamma"}},
        {"ln1 beta of the wrong length",
         [](TransformerConfig& c) { c.layers[0].ln1.beta = arma::rowvec(5, arma::fill::zeros); },
         {"layers[0]", "ln1", "beta"}},
        {"final gamma of the wrong length",
         [](TransformerConfig& c) { c.finalLn.gamma = arma::rowvec(2, arma::fill::ones); },
         {"final_ln", "gamma"}},
        {"attention output width 3, not d = 4",
         [](TransformerConfig& c) {
             c.layers[1].attention.wO = {false, arma::mat(3, 4, arma::fill::ones)};
         },
         {"layers[1]", "W_O"}},
        {"W_Q of the wrong width",
         [](TransformerConfig& c) {
             c.layers[0].attention.wQ = {false, arma::mat(4, 5, arma::fill::ones)};
         },
         {"layers[0]", "W_Q"}},
        {"target index out of range",
         [](TransformerConfig& c) {
             c.targets = {1, 5, 2};
         },
         {"targets"}},
        {"target index below −1",
         [](TransformerConfig& c) {
             c.targets = {1, -2, 2};
         },
         {"targets"}},
        {"targets of the wrong count",
         [](TransformerConfig& c) {
             c.targets = {1, 2};
         },
         {"targets"}},
        {"temperature 0", [](TransformerConfig& c) { c.temperature = 0; }, {"temperature"}},
        {"temperature −1", [](TransformerConfig& c) { c.temperature = -1; }, {"temperature"}},
        {"unembedding of the wrong width",
         [](TransformerConfig& c) {
             c.tiedUnembed = false;
             c.unembed = arma::mat(5, 3, arma::fill::ones);
             c.unembedLabels = labels("u", 5);
         },
         {"unembed"}},
        {"no layers", [](TransformerConfig& c) { c.layers.clear(); }, {"layers"}},
    };
    for (const BadCase& bad : cases) {
        test::dataRow(bad.name, [&] {
            TransformerConfig config = valid;
            bad.spoil(config);
            for (const bool viaCompute : {false, true}) {
                const std::string via = viaCompute ? "compute" : "validateTransformer";
                INFO(via);
                std::string key;
                try {
                    if (viaCompute) {
                        TransformerEngine().compute(config);
                    } else {
                        validateTransformer(config, TransformerLimits{});
                    }
                    FAIL_CHECK("did not throw");
                    continue;
                } catch (const InvalidConfig& e) {
                    key = e.error().key;
                }
                CHECK_FALSE(key.empty());
                for (const std::string& part : bad.keyParts) {
                    CHECK_MESSAGE(key.find(part) != std::string::npos,
                                  "key \"" << key << "\" does not name " << part);
                }
            }
        });
    }
}

// ---------------------------------------------------------------------------
// A check too large to run says so, and still counts the entries it would have checked: the
// same count as a check that runs (every weight, every bias made explicit, both LayerNorms and
// the final one, the tied vocabulary and b_U, and X0).

namespace {

// Two layers of width d, `heads` heads, an FFN of `hidden`, LayerNorms on, a tied vocabulary of
// V words, n tokens: the configuration and the entries a gradient check lists for it.
struct SizedCell {
    TransformerConfig config;
    size_t entries = 0;
};

SizedCell sizedCell(int n, int d, int hidden, int V) {
    Generator gen(11);
    SizedCell cell;
    TransformerConfig& c = cell.config;
    c.vocab = toArma(gen.matrix(V, d));
    c.vocabLabels = labels("w", V);
    arma::uvec rows(static_cast<arma::uword>(n));
    for (int i = 0; i < n; ++i) {
        rows(size_t(i)) = arma::uword(i % V);
        c.tokens.push_back(c.vocabLabels[size_t(i % V)]);
    }
    c.X0 = c.vocab.rows(rows);
    const double D = d, H = hidden;
    double entries = n * D + V * D + V + 2 * D; // X0, vocab, b_U, the final LayerNorm
    for (int l = 0; l < 2; ++l) {
        TransformerLayer layer;
        layer.attention.heads = 2;
        layer.attention.mask = MaskKind::Causal;
        for (Projection* p :
             {&layer.attention.wQ, &layer.attention.wK, &layer.attention.wV, &layer.attention.wO}) {
            *p = {false, toArma(gen.matrix(d, d))};
        }
        layer.ffn.W1 = toArma(gen.matrix(hidden, d));
        layer.ffn.W2 = toArma(gen.matrix(d, hidden));
        c.layers.push_back(layer);
        // W_Q … W_O and their biases; two LayerNorms; W₁, b₁, W₂, b₂
        entries += 4 * D * D + 4 * D + 4 * D + 2 * D * H + H + D;
    }
    cell.entries = size_t(entries);
    return cell;
}

} // namespace

TEST_CASE("gradientCheckTooLargeCountsItsEntries") {
    TransformerEngine engine;
    const SizedCell small = sizedCell(3, 4, 6, 5);
    const TransformerResult checked = engine.compute(small.config, GradientCheck::Run);
    REQUIRE(checked.gradcheck.ran);
    CHECK(checked.gradcheck.total == small.entries);

    // One entry costs two forward passes of ~1e8 multiply-adds: over the budget of 4e7.
    const SizedCell large = sizedCell(64, 256, 512, 64);
    const TransformerResult skipped = engine.compute(large.config, GradientCheck::Run);
    CHECK(!skipped.gradcheck.ran);
    CHECK(skipped.gradcheck.skipped.rfind("this cell is too large to check: one entry costs ", 0) ==
          0);
    CHECK(skipped.gradcheck.total == large.entries);
}
