// A transformer cell's reader views as what-if words (docs/document-format.md, "Reader views"):
// `ID.view.layers=K`, `view.norm`, `view.ffn`, `view.mask`. Each must compute what the lesson
// written without the part computes (the slow, independent path: the YAML edited by hand),
// and what the window's switch computes; a cell that trains keeps its training, as the window
// switches the trained cell; and what a view refuses, it says.
#include "core/document/cell_reread.h"
#include "core/live/reader_controls.h"
#include "core/live/reader_view_words.h"
#include "core/live/reader_what_ifs.h"
#include "core/live/transformer_live_cell.h"
#include "core/live/what_if.h"
#include "core/math/attention_engine.h"
#include "core/math/transformer_engine.h"
#include "core/present/transformer_settings.h"
#include "core/present/transformer_summary.h"

#include "test_support.h"

#include <string>

using namespace attnbook;

namespace {

// Two layers, each with both LayerNorms (given or the default) and an FFN: every view has
// something to switch off. No final LayerNorm: of a 2-wide vector it keeps only the signs, so
// the chances would hide what the FFN does.
const std::string kTwoLayers = "# Views\n"
                               "\n"
                               "```transformer t\n"
                               "tokens: [a, b, a]\n"
                               "vocab:\n"
                               "  a: [1, 0.5]\n"
                               "  b: [-0.25, 1]\n"
                               "layers:\n"
                               "  - attention: {heads: 1, mask: causal}\n"
                               "    ln1: {gamma: [1.5, 0.5], beta: [0.1, -0.2]}\n"
                               "    ffn:\n"
                               "      W_1: [[1, 0], [0, 1], [1, 1]]\n"
                               "      W_2: [[1, 0, 1], [0, 1, 1]]\n"
                               "      activation: relu\n"
                               "  - attention: {heads: 1, mask: causal, "
                               "W_Q: [[0.5, 0], [0, 2]]}\n"
                               "    ln2: {gamma: [0.5, 2], beta: [0, 0.3]}\n"
                               "    ffn:\n"
                               "      W_1: [[0.5, -1], [1, 0.25]]\n"
                               "      W_2: [[1, 0.5], [-0.5, 1]]\n"
                               "final_ln: none\n"
                               "unembed: tied\n"
                               "targets: [b, a, b]\n"
                               "```\n";

// One layer trained for 6 steps of plain gradient descent.
const std::string kTrains = "# Training\n"
                            "\n"
                            "```transformer t\n"
                            "tokens: [a, b]\n"
                            "vocab:\n"
                            "  a: [1, 0.5]\n"
                            "  b: [-0.25, 1]\n"
                            "layers:\n"
                            "  - attention: {heads: 1, mask: causal}\n"
                            "    ffn:\n"
                            "      W_1: [[1, 0], [0, 1], [1, 1]]\n"
                            "      W_2: [[1, 0, 1], [0, 1, 1]]\n"
                            "      activation: relu\n"
                            "unembed: tied\n"
                            "targets: [b, a]\n"
                            "train:\n"
                            "  data: [[a, b, a], [b, a, b, a]]\n"
                            "  steps: 6\n"
                            "  optimizer: sgd\n"
                            "  lr: 0.1\n"
                            "```\n";

struct Computed {
    Lesson lesson;
    LessonResults results;
};

Computed computed(const std::string& text) {
    Computed out{parseLesson(text, "t.md"), {}};
    REQUIRE(out.lesson.diagnostics.empty());
    AttentionEngine engine;
    out.results = computeLesson(out.lesson, engine);
    REQUIRE(out.results.cell("t"));
    REQUIRE(out.results.cell("t")->transformer);
    return out;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    while (at != std::string::npos) {
        text.replace(at, from.size(), to);
        at = text.find(from, at + to.size());
    }
    return text;
}

const TransformerResult& transformerOf(const LessonResults& results) {
    return *results.cell("t")->transformer;
}

void checkSameForward(const TransformerResult& a, const TransformerResult& b) {
    CHECK_EQ(a.layersRun, b.layersRun);
    CHECK(arma::approx_equal(a.probs, b.probs, "absdiff", 0));
    REQUIRE(a.loss.has_value() == b.loss.has_value());
    if (a.loss) {
        CHECK(*a.loss == *b.loss);
    }
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

WhatIf whatIf(const Computed& lesson, const std::vector<SetOption>& sets) {
    AttentionEngine engine;
    return applyWhatIf(lesson.lesson, sets, engine, &lesson.results);
}

} // namespace

TEST_CASE("a view key is view. and one of the four switches") {
    CHECK(isReaderViewKey("view.norm"));
    CHECK_FALSE(isReaderViewKey("views"));
    CHECK_FALSE(isReaderViewKey("norm"));
    CHECK_EQ(readerViewControl("view.layers"), "layers");
    CHECK_EQ(readerViewControl("view.mask"), "mask");
    CHECK_EQ(readerViewControl("view.heads"), "");
    CHECK_EQ(readerViewControl("tokens"), "");
}

TEST_CASE("each view computes what the lesson written without the part computes") {
    const Computed lesson = computed(kTwoLayers);
    const std::string noNorm =
        replaced(replaced(kTwoLayers, "    ln1: {gamma: [1.5, 0.5], beta: [0.1, -0.2]}\n",
                          "    ln1: none\n    ln2: none\n"),
                 "    ln2: {gamma: [0.5, 2], beta: [0, 0.3]}\n", "    ln1: none\n    ln2: none\n");
    const size_t second = kTwoLayers.find("  - attention: {heads: 1, mask: causal, W_Q");
    const size_t finalLn = kTwoLayers.find("final_ln:");
    const std::string oneLayer = kTwoLayers.substr(0, second) + kTwoLayers.substr(finalLn);
    std::string noFfn = kTwoLayers;
    for (size_t at = noFfn.find("    ffn:\n"); at != std::string::npos;
         at = noFfn.find("    ffn:\n", at + 1)) {
        size_t end = at + 9;
        while (noFfn.compare(end, 6, "      ") == 0) {
            end = noFfn.find('\n', end) + 1;
        }
        noFfn.replace(at, end - at, "    ffn: none\n");
    }
    const std::vector<std::pair<SetOption, std::string>> cases = {
        {{"t", "view.layers", "1"}, oneLayer},
        {{"t", "view.norm", "off"}, noNorm},
        {{"t", "view.ffn", "off"}, noFfn},
        {{"t", "view.mask", "none"}, replaced(kTwoLayers, "mask: causal", "mask: none")},
        {{"t", "view.layers", "2"}, kTwoLayers},
        {{"t", "view.norm", "on"}, kTwoLayers},
    };
    for (const auto& [set, text] : cases) {
        CAPTURE(set.key);
        CAPTURE(set.value);
        const WhatIf w = whatIf(lesson, {set});
        REQUIRE_MESSAGE(w.errors.empty(), w.errors.front());
        CHECK(w.byReader); // the cell's controls are all of them
        const Computed written = computed(text);
        checkSameForward(transformerOf(w.results), transformerOf(written.results));
        // The file is never changed by a view.
        CHECK_EQ(w.lesson.document.serialize(), lesson.lesson.document.serialize());
    }
    // The switched-off parts change something, or the test above proves nothing.
    CHECK_FALSE(arma::approx_equal(transformerOf(computed(noNorm).results).probs,
                                   transformerOf(lesson.results).probs, "absdiff", 1e-6));
    CHECK_FALSE(arma::approx_equal(transformerOf(computed(noFfn).results).probs,
                                   transformerOf(lesson.results).probs, "absdiff", 1e-6));
}

TEST_CASE("a view computes what the window's switch computes, with the other what-ifs") {
    const Computed lesson = computed(kTwoLayers);
    const WhatIf w = whatIf(lesson, {{"t", "tokens", "[b, b]"},
                                     {"t", "view.ffn", "off"},
                                     {"t", "view.layers", "1"},
                                     {"t", "targets", "[a, ~]"}});
    REQUIRE_MESSAGE(w.errors.empty(), w.errors.front());
    TransformerLiveCell window(*lesson.lesson.cell("t")->transformer());
    REQUIRE_EQ(window.replaceToken(0, "b"), "");
    REQUIRE_EQ(window.removeToken(2), "");
    REQUIRE_EQ(window.setFeedForward(false), "");
    REQUIRE_EQ(window.setLayersRun(1), "");
    TransformerConfig config = window.config();
    config.targets = {0, -1}; // a, none
    TransformerEngine engine;
    const TransformerResult shown = engine.compute(config);
    checkSameForward(transformerOf(w.results), shown);
}

TEST_CASE("a view of a cell that trains keeps its training and switches the trained cell") {
    const Computed lesson = computed(kTrains);
    const TransformerResult& trained = transformerOf(lesson.results);
    for (const SetOption& set : std::vector<SetOption>{
             {"t", "view.ffn", "off"}, {"t", "view.norm", "off"}, {"t", "view.mask", "none"}}) {
        CAPTURE(set.key);
        const WhatIf kept = whatIf(lesson, {set});
        REQUIRE_MESSAGE(kept.errors.empty(), kept.errors.front());
        const TransformerResult& viewed = transformerOf(kept.results);
        CHECK(viewed.training->loss == trained.training->loss); // not trained with the view
        // The window: the trained cell, then the switch.
        TransformerCellSpec shownSpec = *lesson.lesson.cell("t")->transformer();
        shownSpec.config = trained.training->weights;
        TransformerLiveCell window(std::move(shownSpec));
        const std::string refused = set.key == "view.ffn"    ? window.setFeedForward(false)
                                    : set.key == "view.norm" ? window.setNorm(false)
                                                             : window.setMask(MaskKind::None);
        REQUIRE_EQ(refused, "");
        TransformerEngine engine;
        checkSameForward(viewed, engine.compute(window.config()));
        // Without the lesson's results (compute --set): trained afresh as written, the same.
        AttentionEngine attention;
        const WhatIf fresh = applyWhatIf(lesson.lesson, {set}, attention);
        REQUIRE(fresh.errors.empty());
        CHECK(transformerOf(fresh.results).training->loss == trained.training->loss);
        checkSameForward(transformerOf(fresh.results), viewed);
    }
}

TEST_CASE("a view a cell cannot take is refused with what it takes") {
    const Computed lesson = computed(kTwoLayers);
    const std::vector<std::pair<SetOption, std::string>> cases = {
        {{"t", "view.layers", "0"}, "view.layers takes a number of layers from 1 to 2, not '0'"},
        {{"t", "view.layers", "3"}, "from 1 to 2, not '3'"},
        {{"t", "view.layers", "1.5"}, "not '1.5'"},
        {{"t", "view.norm", "maybe"}, "view.norm takes on or off, not 'maybe'"},
        {{"t", "view.mask", "future"}, "view.mask takes none or causal, not 'future'"},
        {{"t", "view.heads", "1"}, "the views view.layers, view.norm, view.ffn and view.mask"},
    };
    for (const auto& [set, why] : cases) {
        CAPTURE(set.key);
        const WhatIf w = whatIf(lesson, {set});
        REQUIRE_EQ(w.errors.size(), 1);
        CHECK(contains(w.errors[0], set.label() + ": error: "));
        CHECK_MESSAGE(contains(w.errors[0], why), w.errors[0]);
    }
    const std::string mixed = replaced(kTwoLayers, "  - attention: {heads: 1, mask: causal, W_Q",
                                       "  - attention: {heads: 1, mask: none, W_Q");
    const WhatIf w = whatIf(computed(mixed), {{"t", "view.mask", "none"}});
    REQUIRE_EQ(w.errors.size(), 1);
    CHECK(contains(w.errors[0], "the layers of this cell have different masks"));
    const std::string attention = "```attention a\ntokens: [x, y]\nX: [[1, 0], [0, 1]]\n```\n";
    Computed withAttention{parseLesson(attention, "a.md"), {}};
    AttentionEngine engine;
    withAttention.results = computeLesson(withAttention.lesson, engine);
    const WhatIf onAttention = applyWhatIf(withAttention.lesson, {{"a", "view.norm", "off"}},
                                           engine, &withAttention.results);
    REQUIRE_EQ(onAttention.errors.size(), 1);
    CHECK(contains(onAttention.errors[0], "only a transformer cell has reader views"));
}

TEST_CASE("a view is a reader's only when the cell's controls offer its switch") {
    const Computed all = computed(kTwoLayers);
    const LessonCell& t = *all.lesson.cell("t");
    for (const char* key : {"view.layers", "view.norm", "view.ffn", "view.mask"}) {
        CHECK_MESSAGE(readerMayChange(t, key), key);
    }
    CHECK_FALSE(readerMayChange(t, "view.heads"));
    const Computed some = computed(
        replaced(kTwoLayers, "targets: [b, a, b]\n", "targets: [b, a, b]\ncontrols: [norm]\n"));
    const LessonCell& limited = *some.lesson.cell("t");
    CHECK(readerMayChange(limited, "view.norm"));
    CHECK_FALSE(readerMayChange(limited, "view.ffn"));
    CHECK_FALSE(readerMayChange(limited, "view.layers"));
}

TEST_CASE("the page's switches give the view words, and show them in force") {
    const Computed lesson = computed(kTwoLayers);
    const LessonCell& t = *lesson.lesson.cell("t");
    const ReaderControls before = readerControls(t);
    for (const char* control : {"layers", "norm", "ffn", "mask"}) {
        CHECK_MESSAGE(std::find(before.controls.begin(), before.controls.end(), control) !=
                          before.controls.end(),
                      control);
    }
    CHECK_EQ(before.layersRun, 2);
    CHECK_EQ(before.layerCount, 2);
    CHECK(before.norm);
    CHECK(before.ffn);

    std::string why;
    ReaderControls after;
    const auto keys = readerEditKeys(t, {"norm", "set", 0, 0, "", 0}, why, &after);
    REQUIRE(keys);
    CHECK_EQ(*keys, (std::vector<std::pair<std::string, std::string>>{{"view.norm", "off"}}));
    CHECK_FALSE(after.norm);
    const auto layers = readerEditKeys(t, {"layers", "set", 0, 0, "", 1}, why, &after);
    REQUIRE(layers);
    CHECK_EQ(*layers, (std::vector<std::pair<std::string, std::string>>{{"view.layers", "1"}}));
    CHECK_EQ(after.layersRun, 1);
    CHECK_FALSE(readerEditKeys(t, {"layers", "set", 0, 0, "", 3}, why));
    CHECK(contains(why, "layers 1 to 2"));

    // Under view.norm=off the switch shows off, and turning it on again is a word of its own
    // (an earlier what-if of the same key is replaced, never left in force).
    const CellRereader rereader(lesson.lesson);
    const std::optional<LessonCell> switched =
        cellUnderWhatIfs(lesson.lesson, rereader, {"t.view.norm=off", "t.view.layers=1"}, "t");
    REQUIRE(switched);
    const ReaderControls shown = readerControls(*switched);
    CHECK_FALSE(shown.norm);
    CHECK_EQ(shown.layersRun, 1);
    const auto on = readerEditKeys(*switched, {"norm", "set", 0, 0, "", 1}, why);
    REQUIRE(on);
    CHECK_EQ(*on, (std::vector<std::pair<std::string, std::string>>{{"view.norm", "on"}}));
    const auto all = readerEditKeys(*switched, {"layers", "set", 0, 0, "", 2}, why);
    REQUIRE(all);
    CHECK_EQ(*all, (std::vector<std::pair<std::string, std::string>>{{"view.layers", "2"}}));
}

TEST_CASE("the settings say which parts a view switched off") {
    const Computed lesson = computed(kTwoLayers);
    const WhatIf w = whatIf(
        lesson, {{"t", "view.norm", "off"}, {"t", "view.ffn", "off"}, {"t", "view.layers", "1"}});
    REQUIRE(w.errors.empty());
    const LessonCell& cell = *w.lesson.cell("t");
    const TransformerResult& r = transformerOf(w.results);
    const std::vector<LayerSettingRow> layers = layerSettingRows(cell.transformer()->config, r);
    REQUIRE_EQ(layers.size(), 2);
    // layer, heads, d_k, d_v, mask, LN₁, FFN, LN₂
    CHECK_EQ(layers[0].entries,
             (std::vector<std::string>{"1", "1", "2", "2", "causal", "switched off", "switched off",
                                       "switched off"}));
    CHECK_EQ(layers[1].entries[0], "2 (not run)");
    CHECK_FALSE(layers[1].ran);
    bool finalNorm = false;
    for (const SettingRow& row : transformerSettingRows(cell, *cell.transformer(), r)) {
        if (row.label == "Final LayerNorm") {
            finalNorm = true;
            CHECK_EQ(row.text, "switched off: every LayerNorm is the identity");
        }
        if (row.label == "Model") {
            CHECK(contains(row.text, "the first 1 of 2 layers"));
        }
    }
    CHECK(finalNorm);
    // As written, the rows say what the cell has.
    const std::vector<LayerSettingRow> written = layerSettingRows(
        lesson.lesson.cell("t")->transformer()->config, transformerOf(lesson.results));
    CHECK_EQ(written[0].entries[5], "γ, β given");
    CHECK_EQ(written[0].entries[6], "d_ff = 3, ReLU");
}

TEST_CASE("the summary line says which parts a view switched off") {
    const Computed lesson = computed(kTwoLayers);
    CHECK_EQ(transformerSummaryText(*lesson.lesson.cell("t")->transformer(),
                                    transformerOf(lesson.results)),
             "tokens a, b, a · 2 layers · 1 head · d 2 · d_ff 3 ReLU · T = 1 · 2 words");
    const WhatIf w = whatIf(
        lesson, {{"t", "view.norm", "off"}, {"t", "view.ffn", "off"}, {"t", "view.layers", "1"}});
    REQUIRE(w.errors.empty());
    CHECK_EQ(transformerSummaryText(*w.lesson.cell("t")->transformer(), transformerOf(w.results)),
             "tokens a, b, a · 1 of 2 layers · 1 head · d 2 · FFN off · LayerNorm off · T = 1 · "
             "2 words");
}
