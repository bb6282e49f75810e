// The transformer cell against the slow, loop-only reference of transformer_reference.h,
// written from transformer.md and attention.md alone, on the 100 random cells of
// transformer_reference_cells.h:
//   - every stage of the forward pass to 1e-12 and every gradient to 1e-10, the reference's own
//     backward against central differences of its loss, and the engine's gradient check
//     passing on each;
//   - the knock-outs of transformer.md, part by part.
// Training is in test_transformer_reference_training.cpp, generation and attention in blocks in
// test_transformer_reference_generation.cpp, the worked numbers and the refused configurations
// in test_transformer_reference_configs.cpp.
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
// Forward and backward of 100 random cells against the reference; the engine's own
// gradient check passes on every one. One engine for all of them, as the window keeps one.

TEST_CASE("randomCells") {
    const std::vector<Draw> draws = randomCells();
    TransformerEngine engine;
    std::vector<double> errors;
    int failures = 0;
    for (const Draw& draw : draws) {
        INFO(draw.label);
        const tref::Forward f = tref::forward(draw.cell);
        const tref::Grads g = tref::backward(draw.cell, f);
        TransformerResult r;
        try {
            r = engine.compute(draw.config, GradientCheck::Run);
        } catch (const InvalidConfig& e) {
            FAIL_CHECK("threw InvalidConfig (" << e.error().key << "): " << std::string(e.what()));
            continue;
        } catch (const std::exception& e) {
            FAIL_CHECK("threw " << std::string(e.what()));
            continue;
        }
        Comparison forward;
        compareForward(forward, draw, f, r);
        CHECK_MESSAGE(forward.ok(), "forward: " << forward.report());
        Comparison backward;
        backward.tolerance = 1e-10;
        compareGradients(backward, draw.cell, g, r.grad);
        CHECK_MESSAGE(backward.ok(), "backward: " << backward.report());
        CHECK_MESSAGE(close(transformerObjective(draw.config, r), f.loss, 1e-12),
                      "objective " << precise(transformerObjective(draw.config, r)) << ", expected "
                                   << precise(double(f.loss)));
        CHECK_MESSAGE(r.gradcheck.passed(), "gradcheck ran " << r.gradcheck.ran << " ("
                                                             << r.gradcheck.skipped << ") error "
                                                             << r.gradcheck.maxRelError << " worst "
                                                             << r.gradcheck.worst.gradient);
        errors.push_back(r.gradcheck.maxRelError);
        failures += forward.ok() && backward.ok() ? 0 : 1;
        if (failures >= 5) {
            FAIL_CHECK("stopped after 5 cells that disagree");
            break;
        }
    }
    std::sort(errors.begin(), errors.end());
    if (!errors.empty()) {
        MESSAGE("gradcheck max_rel_error over " << errors.size() << " cells: median "
                                                << errors[errors.size() / 2] << ", max "
                                                << errors.back());
    }
}

// Knock-outs (transformer.md): every head, attention, FFN and block of the 100 random cells
// removed in turn, the engine's last-row and focus-row chances, loss and top word against the
// reference run without that part, to 1e-12.
TEST_CASE("knockouts") {
    TransformerEngine engine;
    int parts = 0;
    for (const Draw& draw : randomCells()) {
        INFO(draw.label);
        TransformerConfig config = draw.config;
        config.knockouts = true;
        TransformerResult r;
        engine.forward(config, r);
        REQUIRE(r.knockouts.computed);
        const int L = int(draw.cell.layers.size());
        REQUIRE(int(r.knockouts.block.size()) == L);
        const int last = draw.cell.n - 1, focus = draw.config.focus;
        const auto compare = [&](const KnockoutOutcome& got, const tref::Removal& removal,
                                 const std::string& name) {
            const tref::Forward f = tref::forward(draw.cell, removal);
            Comparison cmp;
            for (int w = 0; w < draw.cell.V; ++w) {
                cmp.entry(name + ".probs", last, w, got.probs(arma::uword(w)), f.probs.at(last, w));
                cmp.entry(name + ".focus", focus, w, got.focusProbs(arma::uword(w)),
                          f.probs.at(focus, w));
            }
            int top = 0; // the first word in vocab order on a tie
            for (int w = 1; w < draw.cell.V; ++w) {
                top = f.probs.at(last, w) > f.probs.at(last, top) ? w : top;
            }
            CHECK_MESSAGE(cmp.ok(), cmp.report());
            REQUIRE_FALSE(got.next.empty());
            CHECK(got.next[0].word == r.words[size_t(top)]);
            CHECK(got.loss.has_value() == !draw.cell.targets.empty());
            if (got.loss) {
                CHECK_MESSAGE(close(*got.loss, f.loss, 1e-12),
                              name << ".loss " << precise(*got.loss));
            }
            ++parts;
        };
        using Kind = tref::Removal::Kind;
        for (int l = 0; l < L; ++l) {
            const std::string at = "[" + std::to_string(l) + "]";
            REQUIRE(int(r.knockouts.head[size_t(l)].size()) == draw.cell.layers[size_t(l)].att.h);
            for (int i = 0; i < draw.cell.layers[size_t(l)].att.h; ++i) {
                compare(r.knockouts.head[size_t(l)][size_t(i)], {Kind::Head, l, i},
                        "head" + at + "[" + std::to_string(i) + "]");
            }
            compare(r.knockouts.attention[size_t(l)], {Kind::Attention, l, -1}, "attention" + at);
            compare(r.knockouts.ffn[size_t(l)], {Kind::Ffn, l, -1}, "ffn" + at);
            compare(r.knockouts.block[size_t(l)], {Kind::Block, l, -1}, "block" + at);
        }
        // The cell's own numbers are the whole model's, untouched by the passes.
        Comparison whole;
        compareForward(whole, draw, tref::forward(draw.cell), r);
        CHECK_MESSAGE(whole.ok(), whole.report());
    }
    MESSAGE(parts << " knock-outs compared");
    CHECK(parts > 400);
}

// Knock-outs are computed only when asked for, and the authored weights are never written
// through the passes' shared matrices.
TEST_CASE("knockoutsOnlyWhenAskedAndWeightsUntouched") {
    const std::vector<Draw> draws = randomCells();
    const auto drawn = std::find_if(draws.begin(), draws.end(), [](const Draw& d) {
        return !d.config.layers[0].attention.wO.identity && d.config.layers[0].attention.heads > 1;
    });
    REQUIRE(drawn != draws.end());
    TransformerEngine engine;
    TransformerResult plain;
    engine.forward(drawn->config, plain);
    CHECK_FALSE(plain.knockouts.computed);

    TransformerConfig config = drawn->config;
    config.knockouts = true;
    const arma::mat before = config.layers[0].attention.wO.weights;
    TransformerResult asked;
    engine.forward(config, asked);
    REQUIRE(asked.knockouts.computed);
    CHECK(arma::approx_equal(config.layers[0].attention.wO.weights, before, "absdiff", 0.0));
    int heads = 0;
    for (const std::vector<KnockoutOutcome>& layer : asked.knockouts.head) {
        heads += int(layer.size());
    }
    CHECK(knockoutPasses(config) == heads + 3 * int(asked.knockouts.block.size()));
}

// The reference's hand-derived backward against central differences of its own loss, on the
// same 100 cells: three entries of every gradient (every entry of the small ones).
TEST_CASE("referenceBackwardByDifferences") {
    for (const Draw& draw : randomCells()) {
        const tref::Forward f = tref::forward(draw.cell);
        const tref::Grads g = tref::backward(draw.cell, f);
        const std::string failures = tref::checkByDifferences(draw.cell, g, 3);
        CHECK_MESSAGE(failures.empty(), draw.label << ": " << failures);
    }
}

// The 100 cells draw every kind of cell above at least once, so that the comparisons are not
// narrower than they look.
TEST_CASE("randomCellsCoverEveryKind") {
    std::set<std::string> seen;
    for (const Draw& draw : randomCells()) {
        seen.insert(draw.kinds.begin(), draw.kinds.end());
    }
    for (const char* kind :
         {"L=1",           "L=2",           "L=3",           "h=1",          "h=2",
          "h=4",           "causal",        "no-mask",       "padding",      "blocked-row",
          "gelu",          "gelu_tanh",     "relu",          "ln1:none",     "ln2:none",
          "final_ln:none", "gamma",         "gamma-default", "beta",         "beta-default",
          "ffn:none",      "tied",          "untied",        "b_U",          "no-b_U",
          "T=0.5",         "T=1.0",         "T=2.0",         "targets",      "target-none",
          "upstream",      "upstream-ones", "sinusoidal",    "learned",      "no-positional",
          "idW_Q",         "idW_K",         "idW_V",         "idW_O",        "explicitW_Q",
          "explicitW_K",   "explicitW_V",   "explicitW_O",   "bias",         "bias-default",
          "b_1",           "b_2",           "scale-off",     "scale-custom", "eps=1e-3",
          "run.norm=off",  "run.ffn=off"}) {
        CHECK_MESSAGE(seen.count(kind) == 1, kind);
    }
    bool layersSwitch = false;
    for (const std::string& kind : seen) {
        layersSwitch = layersSwitch || kind.rfind("run.layers=", 0) == 0;
    }
    CHECK(layersSwitch);
}
