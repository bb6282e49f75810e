// What a transformer cell's views read (core/present/transformer_views.h) and its compute steps
// (core/live/transformer_steps.h), without Qt: the stream's stages and what each added, the
// FFN rows, the chances and the chosen word, the generation's keys, attention in blocks against
// the plain computation, and a layer's attention as a cell of its own.
#include "core/document/lesson.h"
#include "core/live/transformer_steps.h"
#include "core/present/transformer_views.h"

#include "test_support.h"

#include <doctest/doctest.h>

using namespace attnbook;
namespace tv = attnbook::transformer_views;

namespace {

TransformerConfig readConfig() {
    const Lesson lesson = parseLesson(test::kOneLayerTransformerLesson, "views.md");
    REQUIRE(lesson.diagnostics.empty());
    const TransformerCellSpec* spec = lesson.cells.at(0).transformer();
    REQUIRE(spec != nullptr);
    return spec->config;
}

bool sameRow(const std::vector<double>& values, const arma::mat& m, arma::uword row) {
    if (values.size() != m.n_cols) {
        return false;
    }
    for (arma::uword c = 0; c < m.n_cols; ++c) {
        if (values[c] != m(row, c)) {
            return false;
        }
    }
    return true;
}

} // namespace

TEST_CASE("the stream's stages are the tokens, each layer's two sums, and the final LayerNorm") {
    const TransformerConfig config = readConfig();
    const auto result = transformerInlineStep(config, true);
    REQUIRE(result->layersRun == 1);
    CHECK(&tv::stageMatrix(*result, 0) == &result->X);
    CHECK(&tv::stageMatrix(*result, 1) == &result->layers[0].resid1);
    CHECK(&tv::stageMatrix(*result, 2) == &result->layers[0].resid2);
    CHECK(&tv::stageMatrix(*result, 3) == &result->finalLn.out);

    const std::vector<tv::StageRow> first = tv::stageRows(*result, 0);
    REQUIRE(first.size() == 3);
    CHECK(first[1].label == "blue");
    CHECK(sameRow(first[1].values, result->X, 1));
    CHECK_FALSE(first[1].change.has_value()); // stage 0 adds nothing to a before

    const std::vector<tv::StageRow> attention = tv::stageRows(*result, 1);
    REQUIRE(attention[2].change.has_value());
    // (1 × d) the change is the stage minus the one before
    const arma::mat added = result->layers[0].resid1.row(2) - result->X.row(2);
    CHECK(sameRow(*attention[2].change, added, 0));
    CHECK(attention[2].changeNorm == doctest::Approx(arma::norm(added)));
    CHECK(attention[2].norm == doctest::Approx(arma::norm(result->layers[0].resid1.row(2))));
    CHECK(tv::stageRange(*result, 1) == doctest::Approx(arma::abs(result->layers[0].resid1).max()));
    CHECK(tv::changeRange(*result, 0) == 0.0);
    CHECK(tv::changeRange(*result, 1) > 0.0);
}

TEST_CASE("the FFN rows and heads exist only for the layers run") {
    const auto result = transformerInlineStep(readConfig(), true);
    const std::vector<tv::FfnRow> rows = tv::ffnRows(*result, 0);
    REQUIRE(rows.size() == 3);
    CHECK(rows[0].label == "red");
    CHECK(sameRow(rows[0].values, result->layers[0].ffnAct, 0));
    CHECK(tv::ffnRows(*result, 1).empty());
    CHECK(tv::ffnRows(*result, -1).empty());
    CHECK(tv::ffnRange(*result, 1) == 0.0);
    CHECK(tv::headsOf(*result, 0) == 2);
    CHECK(tv::headsOf(*result, 1) == 0);
}

TEST_CASE("the next words mark generation's first pick, none while a sampled draw is coming") {
    TransformerConfig config = readConfig();
    const auto result = transformerInlineStep(config, true);
    REQUIRE(!result->generation.steps.empty());
    const std::vector<tv::NextWord> words = tv::nextWords(*result, 2, false);
    REQUIRE(words.size() == 2);
    CHECK(words[0].prob >= words[1].prob);
    int chosen = 0;
    for (const tv::NextWord& w : words) {
        chosen += w.chosen ? 1 : 0;
        CHECK(w.chosen == (w.word == result->generation.steps.front().label));
    }
    CHECK(chosen <= 1);

    // The forward step alone has no generation: the most likely word, unless a draw is coming.
    const auto forward = transformerForwardStep(config);
    CHECK(forward->generation.steps.empty());
    CHECK(tv::nextWords(*forward, 3, false).at(0).chosen);
    for (const tv::NextWord& w : tv::nextWords(*forward, 3, true)) {
        CHECK_FALSE(w.chosen);
    }

    // Each generated word's query reads one more position than the one before.
    const std::vector<tv::GeneratedWord> steps = tv::generationSteps(*result);
    REQUIRE(steps.size() == result->generation.steps.size());
    for (size_t i = 0; i < steps.size(); ++i) {
        CHECK(steps[i].keys == result->n + int(i));
        CHECK(steps[i].word == result->generation.steps[i].label);
    }
}

TEST_CASE("the rest step adds the gradients to the forward numbers, the same numbers") {
    const TransformerConfig config = readConfig();
    const auto forward = transformerForwardStep(config);
    const auto rest = transformerRestStep(config, *forward);
    const auto whole = transformerInlineStep(config, true);
    CHECK(arma::approx_equal(rest->finalLn.out, whole->finalLn.out, "absdiff", 0.0));
    CHECK(rest->generation.steps.size() == whole->generation.steps.size());
    CHECK(rest->gradcheck.passed() == whole->gradcheck.passed());
    CHECK(forward->generation.steps.empty()); // the forward result is not changed

    std::string error;
    const auto grad = parseBindingPath("t.grad.X", error);
    const auto next = parseBindingPath("t.next[0].prob", error);
    REQUIRE(grad);
    REQUIRE(next);
    CHECK(transformerPathNeedsRest(*grad));
    CHECK_FALSE(transformerPathNeedsRest(*next));
}

TEST_CASE("attention in blocks ends at the plain head's row") {
    const TransformerConfig config = readConfig();
    const auto result = transformerInlineStep(config, true);
    const std::optional<tv::Blocks> blocks = tv::blocks(*result, config, 0, 1, 2, 2);
    REQUIRE(blocks);
    REQUIRE(blocks->steps.size() == 2); // 3 keys in blocks of 2
    CHECK(blocks->steps[0].first == 0);
    CHECK(blocks->steps[0].end == 2);
    CHECK(blocks->steps[1].end == 3);
    CHECK(sameRow(blocks->plain, result->layers[0].attention.head[1].context, 2));
    CHECK(blocks->output.size() == blocks->plain.size());
    CHECK(blocks->difference < 1e-12);
    CHECK_FALSE(tv::blocks(*result, config, 0, 2, 0, 2)); // no head 2
    CHECK_FALSE(tv::blocks(*result, config, 0, 0, 3, 2)); // no row 3
    CHECK_FALSE(tv::blocks(*result, config, 0, 0, 0, 0));
}

TEST_CASE("a layer's attention cell reads LN1 of the stream into its own copies") {
    TransformerConfig config = readConfig();
    const auto result = transformerInlineStep(config, true);
    config.focus = 7; // beyond the tokens (a what-if removed them): clamped to the last row
    const AttentionCellSpec spec = tv::layerAttentionSpec(config, *result, 0);
    CHECK(spec.config.focus == result->n - 1);
    CHECK(spec.controls.empty());
    CHECK(spec.views.size() == 5);
    CHECK(arma::approx_equal(spec.config.X0, result->layers[0].ln1.out, "absdiff", 0.0));
    CHECK(spec.config.X0.memptr() != result->layers[0].ln1.out.memptr());
    CHECK(arma::approx_equal(spec.config.wO.weights, config.layers[0].attention.wO.weights,
                             "absdiff", 0.0));
    REQUIRE(!spec.config.wO.weights.is_empty()); // the authored W_O
    CHECK(spec.config.wO.weights.memptr() != config.layers[0].attention.wO.weights.memptr());
}

TEST_CASE("a step's outcome carries its result and JSON, or why the settings cannot be computed") {
    TransformerConfig config = readConfig();
    const JsonSelection all;
    const TransformerOutcome done = runTransformerStep(
        TransformerStep::Rest, 7, [&] { return transformerInlineStep(config, true); }, "t", &all);
    REQUIRE(done.result);
    CHECK(done.error.empty());
    CHECK(done.serial == 7);
    CHECK(done.step == TransformerStep::Rest);
    REQUIRE(done.json);
    CHECK(done.json->find("grad") != nullptr);
    CHECK(done.milliseconds >= 0.0);
    CHECK_FALSE(runTransformerStep(
                    TransformerStep::Forward, 8, [&] { return transformerForwardStep(config); },
                    "t", nullptr)
                    .json);

    config.focus = 7; // beyond the tokens: refused
    const TransformerOutcome refused = runTransformerStep(
        TransformerStep::Forward, 9, [&] { return transformerForwardStep(config); }, "t", nullptr);
    CHECK_FALSE(refused.result);
    CHECK(refused.error.find("focus") != std::string::npos);
}

TEST_CASE("the knockout view: the focus row's top word without each part, in the engine's order") {
    TransformerConfig config = readConfig();
    config.focus = 2;
    const TransformerResult plain = *transformerInlineStep(config, false);
    CHECK_FALSE(transformer_views::knockoutView(plain).has_value()); // not asked for

    config.knockouts = true;
    const TransformerResult r = *transformerInlineStep(config, false);
    const auto view = transformer_views::knockoutView(r);
    REQUIRE(view.has_value());
    CHECK(view->row == 2);
    const arma::uword word = r.probs.row(2).index_max();
    CHECK(view->word == r.words[word]);
    CHECK(view->full == r.probs(2, word));
    // One layer of two heads: head 1, head 2, the attention, the FFN, the block.
    const std::vector<std::string> labels{"block 1, head 1", "block 1, head 2", "block 1 attention",
                                          "block 1 FFN", "block 1 (all of it)"};
    REQUIRE(view->bars.size() == labels.size());
    const std::vector<const KnockoutOutcome*> passes{
        &r.knockouts.head[0][0], &r.knockouts.head[0][1], &r.knockouts.attention[0],
        &r.knockouts.ffn[0], &r.knockouts.block[0]};
    for (size_t i = 0; i < labels.size(); ++i) {
        CAPTURE(i);
        CHECK(view->bars[i].part == labels[i]);
        CHECK(view->bars[i].prob == passes[i]->focusProbs(word));
        const arma::uword top = passes[i]->focusProbs.index_max();
        CHECK(view->bars[i].topWord == r.words[top]);
        CHECK(view->bars[i].topChanged == (top != word));
    }
}
