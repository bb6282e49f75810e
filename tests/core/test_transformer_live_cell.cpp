// The reader's what-ifs on a transformer cell (core/live/transformer_live_cell.h): each edit
// changes exactly its setting or is refused with nothing changed, the configuration follows
// the settings (tokens read from the vocabulary, targets kept only where their token stays),
// Undo and Reset are exact, the weights are shared with the authored cell rather than copied,
// and Keep writes only the keys that are part of the lesson.
#include "core/document/cell_editor.h"
#include "core/document/lesson.h"
#include "core/live/transformer_live_cell.h"
#include "core/math/transformer_engine.h"

#include "test_support.h"

#include <doctest/doctest.h>

using namespace attnbook;

namespace {

TransformerCellSpec readSpec() {
    const Lesson lesson = parseLesson(test::kOneLayerTransformerLesson, "live.md");
    REQUIRE(lesson.diagnostics.empty());
    const TransformerCellSpec* spec = lesson.cells.at(0).transformer();
    REQUIRE(spec != nullptr);
    return *spec;
}

} // namespace

TEST_CASE("a transformer what-if changes its setting and the configuration follows") {
    TransformerLiveCell cell(readSpec());
    CHECK_FALSE(cell.edited());
    CHECK(cell.replaceToken(1, "green").empty());
    CHECK(cell.edited());
    const TransformerConfig c = cell.config();
    REQUIRE(c.tokens == std::vector<std::string>{"red", "green", "red"});
    // (3 × 4) row 1 is green's vector now
    CHECK(arma::approx_equal(arma::mat(c.X0.row(1)), arma::mat{{0, 0, 1, 0}}, "absdiff", 0.0));
    CHECK(arma::approx_equal(arma::mat(c.X0.row(0)), arma::mat{{1, 0, 0, 0}}, "absdiff", 0.0));
    // Row 1's target was about "blue" after "blue": its token changed, so it has none now.
    CHECK(c.targets == std::vector<int>{1, -1, -1});

    CHECK(cell.addToken("gold").empty());
    CHECK(cell.config().tokens.size() == 4);
    CHECK(cell.config().targets == std::vector<int>{1, -1, -1, -1});
    CHECK(cell.removeToken(0).empty());
    CHECK(cell.config().tokens == std::vector<std::string>{"green", "red", "gold"});
}

TEST_CASE("a refused what-if changes nothing and says why") {
    TransformerLiveCell cell(readSpec());
    CHECK(cell.replaceToken(0, "purple") == "'purple' is not in the vocab");
    CHECK(cell.replaceToken(7, "red").find("no token 7") != std::string::npos);
    CHECK(cell.setLayersRun(2).find("layers 1 to 1") != std::string::npos);
    CHECK(cell.setTemperature(0).find("above 0") != std::string::npos);
    CHECK(cell.setTemperature(-1).find("above 0") != std::string::npos);
    CHECK(cell.setGenerate(65, PickKind::Greedy, 0).find("between 0 and 64") != std::string::npos);
    CHECK(cell.setPositional(PositionalKind::Learned).find("no learned") != std::string::npos);
    CHECK(cell.removeToken(0).empty());
    CHECK(cell.removeToken(0).empty());
    CHECK(cell.removeToken(0) == "a cell needs at least one token");
    CHECK(cell.canUndo());
    CHECK(cell.undo());
    CHECK(cell.undo());
    CHECK_FALSE(cell.edited());
    CHECK_FALSE(cell.canUndo());
}

TEST_CASE("a cell that does not allow a control refuses it") {
    TransformerCellSpec spec = readSpec();
    spec.controls = {"temperature"};
    TransformerLiveCell cell(spec);
    CHECK(cell.replaceToken(0, "blue") == "this cell does not let readers change tokens");
    CHECK(cell.setNorm(false) == "this cell does not let readers change norm");
    CHECK(cell.setTemperature(2).empty());
}

TEST_CASE("undo takes back one what-if at a time and reset returns the authored cell") {
    TransformerLiveCell cell(readSpec());
    const TransformerSettings authored = cell.settings();
    CHECK(cell.setTemperature(0.5).empty());
    CHECK(cell.setNorm(false).empty());
    CHECK(cell.setMask(MaskKind::None).empty());
    CHECK(cell.undo());
    CHECK(cell.settings().mask == MaskKind::Causal);
    CHECK_FALSE(cell.settings().run.norm);
    cell.reset();
    CHECK(cell.settings() == authored);
    CHECK(cell.undo()); // Reset itself can be taken back
    CHECK(cell.settings().temperature == 0.5);
    // The same setting again is no what-if: nothing to undo.
    TransformerLiveCell fresh(readSpec());
    CHECK(fresh.setTemperature(1).empty());
    CHECK_FALSE(fresh.canUndo());
}

TEST_CASE("one gesture of many edits is one undo step; one that ends where it began, none") {
    TransformerLiveCell cell(readSpec());
    CHECK(cell.setNorm(false).empty());
    // A drag of the temperature slider: fifteen edits in one gesture.
    cell.beginGesture();
    for (int step = 1; step <= 15; ++step) {
        CHECK(cell.setTemperature(1.0 + 0.1 * step).empty());
    }
    cell.endGesture();
    CHECK(cell.settings().temperature == doctest::Approx(2.5));
    CHECK(cell.undo()); // the whole drag at once
    CHECK(cell.settings().temperature == 1.0);
    CHECK_FALSE(cell.settings().run.norm); // the edit before the drag stays
    CHECK(cell.undo());
    CHECK_FALSE(cell.canUndo());

    // A drag out and back to where it began leaves nothing to take back.
    cell.beginGesture();
    CHECK(cell.setTemperature(3).empty());
    CHECK(cell.setTemperature(1).empty());
    cell.endGesture();
    CHECK_FALSE(cell.canUndo());
    // After the gesture, each edit is a step of its own again.
    CHECK(cell.setTemperature(2).empty());
    CHECK(cell.setTemperature(3).empty());
    CHECK(cell.undo());
    CHECK(cell.settings().temperature == 2);
}

TEST_CASE("the configuration shares the authored weights and computes as a copy would") {
    const TransformerCellSpec spec = readSpec();
    TransformerLiveCell cell(spec);
    CHECK(cell.setTemperature(0.7).empty());
    const TransformerConfig shared = cell.config();
    CHECK(shared.layers[0].attention.wO.weights.memptr() ==
          cell.authored().config.layers[0].attention.wO.weights.memptr());
    CHECK(shared.layers[0].ffn.W1.memptr() == cell.authored().config.layers[0].ffn.W1.memptr());
    CHECK(shared.vocab.memptr() == cell.authored().config.vocab.memptr());

    TransformerConfig copied = spec.config; // every number its own
    copied.temperature = 0.7;
    TransformerEngine engine;
    const TransformerResult a = engine.compute(shared, GradientCheck::Skip);
    const TransformerResult b = engine.compute(copied, GradientCheck::Skip);
    CHECK(arma::approx_equal(a.probs, b.probs, "absdiff", 0.0));
    CHECK(a.loss.value() == b.loss.value());
    CHECK(a.generation.steps.size() == 2);
    // Rewriting the configuration's X0 leaves the authored cell alone.
    CHECK(cell.replaceToken(0, "gold").empty());
    CHECK(cell.authored().config.X0(0, 0) == 1.0);
}

TEST_CASE("keep writes the lesson's keys and names the reader's own settings") {
    TransformerLiveCell cell(readSpec());
    CHECK(cell.replaceToken(2, "gold").empty());
    CHECK(cell.setTemperature(0.25).empty());
    CHECK(cell.setGenerate(3, PickKind::Sample, 42).empty());
    CHECK(cell.setNorm(false).empty());
    CHECK(cell.setMask(MaskKind::None).empty());
    const TransformerKeepPlan plan = cell.keepPlan();
    const std::vector<std::pair<std::string, std::string>> expected = {
        {"tokens", "[red, blue, gold]"},
        {"targets", "[blue, red, ~]"},
        {"temperature", "0.25"},
        {"generate", "{steps: 3, pick: sample, seed: 42}"}};
    CHECK(plan.keys == expected);
    REQUIRE(plan.notKept.size() == 2);
    CHECK(plan.notKept[0].find("mask") != std::string::npos);
    CHECK(plan.notKept[1] == "LayerNorm off");

    // What Keep writes reads back as the same settings.
    std::string text = test::kOneLayerTransformerLesson;
    Lesson kept = parseLesson(text, "live.md");
    for (const auto& [key, yaml] : plan.keys) {
        REQUIRE_FALSE(setCellKey(kept.document, "t", key, yaml).has_value());
    }
    const Lesson reread = parseLesson(kept.document.serialize(), "live.md");
    REQUIRE(reread.diagnostics.empty());
    const TransformerConfig& c = reread.cells.at(0).transformer()->config;
    CHECK(c.tokens == std::vector<std::string>{"red", "blue", "gold"});
    CHECK(c.temperature == 0.25);
    REQUIRE(c.generate.has_value());
    CHECK(c.generate->seed == 42);
}

TEST_CASE("a sampling seed is any 64-bit whole number, read from its digits") {
    std::string text = test::kOneLayerTransformerLesson;
    const std::string authored = "generate: {steps: 2, pick: greedy}";
    const auto withSeed = [&](const std::string& seed) {
        std::string t = text;
        t.replace(t.find(authored), authored.size(),
                  "generate: {steps: 2, pick: sample, seed: " + seed + "}");
        return parseLesson(t, "live.md");
    };
    const Lesson largest = withSeed("18446744073709551615");
    REQUIRE(largest.diagnostics.empty());
    CHECK(largest.cells.at(0).transformer()->config.generate->seed == UINT64_MAX);
    // One past 2⁵³: a double would have rounded it.
    const Lesson odd = withSeed("9007199254740993");
    REQUIRE(odd.diagnostics.empty());
    CHECK(odd.cells.at(0).transformer()->config.generate->seed == 9007199254740993ull);
    for (const char* bad : {"18446744073709551616", "-1", "1.5", "\"7\""}) {
        const Lesson refused = withSeed(bad);
        REQUIRE(refused.diagnostics.size() == 1);
        CHECK(refused.diagnostics[0].message.find("generate.seed must be a whole number") !=
              std::string::npos);
    }
}
