// The forward pass again from one layer on (TransformerEngine::forwardFrom), which the gradient
// check uses for each nudged weight: it must give exactly what a whole forward pass of the
// nudged configuration gives, bit for bit, for a nudge in each layer and in the output, and
// the check's report must be the one whole passes give.
#include "core/document/lesson.h"
#include "core/math/transformer_engine.h"

#include "test_support.h"

#include <string>

using namespace attnbook;

namespace {

const std::string kLesson = "# Three layers\n"
                            "\n"
                            "```transformer t\n"
                            "tokens: [a, b, a, c]\n"
                            "vocab:\n"
                            "  a: [1, 0.5, -0.25]\n"
                            "  b: [-0.25, 1, 0.5]\n"
                            "  c: [0.5, -1, 0.75]\n"
                            "layers:\n"
                            "  - attention: {heads: 1, mask: causal}\n"
                            "    ffn:\n"
                            "      W_1: [[1, 0, 0.5], [0, 1, -0.5], [1, 1, 0], [0.25, 0, 1]]\n"
                            "      W_2: [[1, 0, 1, 0], [0, 1, 1, 0.5], [0.5, 0, 0, 1]]\n"
                            "  - attention: {heads: 1, mask: causal}\n"
                            "    ffn: none\n"
                            "  - attention: {heads: 1, mask: causal}\n"
                            "    ffn:\n"
                            "      W_1: [[0.5, -1, 0], [1, 0.25, 0.5]]\n"
                            "      W_2: [[1, 0.5], [-0.5, 1], [0, 1]]\n"
                            "      activation: relu\n"
                            "unembed: tied\n"
                            "targets: [b, a, c, b]\n"
                            "```\n";

TransformerConfig configOf(const std::string& text) {
    const Lesson lesson = parseLesson(text, "t.md");
    REQUIRE(lesson.diagnostics.empty());
    return lesson.cell("t")->transformer()->config;
}

void checkIdentical(const TransformerResult& a, const TransformerResult& b) {
    REQUIRE_EQ(a.layers.size(), b.layers.size());
    for (size_t l = 0; l < a.layers.size(); ++l) {
        CHECK(arma::approx_equal(a.layers[l].resid2, b.layers[l].resid2, "absdiff", 0));
    }
    CHECK(arma::approx_equal(a.logits, b.logits, "absdiff", 0));
    CHECK(arma::approx_equal(a.probs, b.probs, "absdiff", 0));
    REQUIRE(a.loss.has_value());
    REQUIRE(b.loss.has_value());
    CHECK(*a.loss == *b.loss);
}

} // namespace

TEST_CASE("a forward pass from a layer on equals the whole pass of the nudged configuration") {
    const TransformerConfig config = configOf(kLesson);
    TransformerEngine engine;
    TransformerResult clean;
    engine.forward(config, clean);
    REQUIRE_EQ(clean.layersRun, 3);
    for (int first = 0; first <= 3; ++first) {
        CAPTURE(first);
        TransformerConfig nudged = config;
        if (first < 3) {
            // (d × d) an explicit W_V, one entry moved
            Projection& wV = nudged.layers[size_t(first)].attention.wV;
            wV.identity = false;
            wV.weights = arma::eye(3, 3);
            wV.weights(1, 2) = 0.125;
        } else {
            nudged.temperature = 0.5; // the output alone
        }
        TransformerResult from = clean;
        engine.forwardFrom(nudged, from, first);
        TransformerResult whole;
        engine.forward(nudged, whole);
        checkIdentical(from, whole);
        // and the nudge changed something, or the test proves nothing
        CHECK_FALSE(arma::approx_equal(whole.probs, clean.probs, "absdiff", 1e-9));
    }
}

TEST_CASE("the gradient check, nudging from each layer on, passes and agrees with whole passes") {
    const TransformerConfig config = configOf(kLesson);
    TransformerEngine engine;
    const TransformerResult checked = engine.compute(config);
    const GradientCheckReport& report = checked.gradcheck;
    REQUIRE(report.checked > 0);
    CHECK_EQ(report.checked, report.total); // small enough to check every entry
    CHECK(report.maxRelError < 1e-6);
    // An independent, deliberately slow check: every entry of layer 2's W_1 and of the vocab
    // by central differences of whole forward passes, against the analytic gradients.
    const auto objective = [&](const TransformerConfig& c) {
        TransformerResult r;
        engine.forward(c, r);
        return *r.loss;
    };
    const double h = 1e-6;
    for (arma::uword e = 0; e < config.layers[2].ffn.W1.n_elem; ++e) {
        TransformerConfig up = config, down = config;
        up.layers[2].ffn.W1(e) += h;
        down.layers[2].ffn.W1(e) -= h;
        const double numeric = (objective(up) - objective(down)) / (2 * h);
        CHECK(std::abs(numeric - checked.grad.layers[2].W1(e)) <=
              1e-6 * std::max(1.0, std::abs(numeric)));
    }
}
