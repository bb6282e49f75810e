// The transformer cell as a document reads it (transformer.md, docs/lesson-format.md,
// docs/training.md), on a small cell that reads and computes cleanly: every reading error of a
// transformer cell points at the exact line and column of the value at fault; a cell far too
// large is refused before it is computed; generation without the causal mask is a warning that
// names the reason; knock-outs are computed when quoted or shown; a cell trains from the
// lesson's sentences, each training error points at its value, and a watched run keeps each
// step's weights. documents/transformer.md itself is in test_transformer_document.cpp.
#include "core/document/cell_cost.h"
#include "core/document/lesson.h"
#include "core/math/training_watch.h"

#include "test_support.h"
#include "transformer_document_helpers.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>

using namespace attnbook;
using test::compute;
using test::Computed;
using test::describe;

namespace {

// A small transformer cell that reads and computes cleanly: every case below spoils one
// value of it.
const std::string kValid = "# Reader errors\n"
                           "\n"
                           "```transformer t\n"
                           "tokens: [a, b]\n"
                           "vocab:\n"
                           "  a: [1, 0]\n"
                           "  b: [0, 1]\n"
                           "layers:\n"
                           "  - attention: {heads: 1, mask: causal}\n"
                           "    ln1: none\n"
                           "    ffn:\n"
                           "      W_1: [[1, 0], [0, 1], [1, 1]]\n"
                           "      b_1: [0, 0, 0]\n"
                           "      W_2: [[1, 0, 1], [0, 1, 1]]\n"
                           "      b_2: [0, 0]\n"
                           "      activation: relu\n"
                           "    ln2: {gamma: [1, 1], beta: [0, 0]}\n"
                           "final_ln: none\n"
                           "unembed: tied\n"
                           "temperature: 1\n"
                           "targets: [b, a]\n"
                           "generate: {steps: 2, pick: greedy}\n"
                           "```\n";

struct ReaderCase {
    const char* name;
    const char* from; // replaced once in kValid...
    const char* to;   // ...by this
    const char* at;   // the problem points where this text starts (its first occurrence)
    Severity severity;
    const char* message;
};

// Line and column (from 1) where `needle` first starts in `text`; ASCII only.
std::pair<int, int> positionOf(const std::string& text, const std::string& needle) {
    const size_t at = text.find(needle);
    REQUIRE_MESSAGE(at != std::string::npos, "no '" << needle << "' in the case's text");
    const size_t lineStart = text.rfind('\n', at);
    const int line = 1 + int(std::count(text.begin(), text.begin() + long(at), '\n'));
    const int column = int(at - (lineStart == std::string::npos ? 0 : lineStart + 1)) + 1;
    return {line, column};
}

const ReaderCase kReaderCases[] = {
    {"unknown key", "temperature: 1\n", "temprature: 1\n", "temprature", Severity::Warning,
     "unknown key 'temprature' — did you mean 'temperature'?"},
    {"unknown key in a layer", "    ln1: none\n", "    ln_1: none\n", "ln_1", Severity::Warning,
     "unknown key 'ln_1' in a layer — did you mean 'ln1'?"},
    {"unknown key in the ffn", "      activation: relu\n", "      activaton: relu\n", "activaton",
     Severity::Warning, "unknown key 'activaton' in ffn — did you mean 'activation'?"},
    {"a layer that is not a map", "layers:\n  - attention: {heads: 1, mask: causal}\n",
     "layers:\n  - 3\n  - attention: {heads: 1, mask: causal}\n", "3\n", Severity::Error,
     "each layer must be a map"},
    {"a layer without attention", "  - attention: {heads: 1, mask: causal}\n    ln1: none\n",
     "  - ln1: none\n", "ln1: none", Severity::Error, "layer 0 needs attention:"},
    {"a layer without ffn",
     "    ffn:\n      W_1: [[1, 0], [0, 1], [1, 1]]\n      b_1: [0, 0, 0]\n"
     "      W_2: [[1, 0, 1], [0, 1, 1]]\n      b_2: [0, 0]\n      activation: relu\n",
     "", "attention: {", Severity::Error, "layer 0 needs ffn:"},
    {"an ffn without W_1", "      W_1: [[1, 0], [0, 1], [1, 1]]\n", "", "b_1: [0, 0, 0]",
     Severity::Error, "the ffn needs W_1"},
    {"an unknown activation", "activation: relu", "activation: swish", "swish", Severity::Error,
     "activation must be gelu, gelu_tanh or relu, not"},
    {"an ln that is neither none nor a map", "ln1: none", "ln1: off", "off", Severity::Error,
     "ln1 must be none or {gamma: [...], beta: [...]}"},
    {"unembed of the wrong kind", "unembed: tied", "unembed: [1, 2]", "[1, 2]", Severity::Error,
     "unembed must be tied, a map of words to vectors"},
    {"targets of the wrong length", "targets: [b, a]", "targets: [b, a, a]", "[b, a, a]",
     Severity::Error, "targets has 3 entries for 2 tokens"},
    {"a target that is not a word", "targets: [b, a]", "targets: [b, zebra]", "zebra",
     Severity::Error, "the target 'zebra' is not one of the words the cell scores"},
    {"temperature 0", "temperature: 1", "temperature: 0", "0\n", Severity::Error,
     "temperature must be a number above 0"},
    {"temperature below 0", "temperature: 1", "temperature: -0.5", "-0.5", Severity::Error,
     "temperature must be a number above 0"},
    {"generate without steps", "generate: {steps: 2, pick: greedy}", "generate: {pick: greedy}",
     "{pick", Severity::Error, "generate needs steps:"},
    {"sample without a seed", "generate: {steps: 2, pick: greedy}",
     "generate: {steps: 2, pick: sample}", "{steps", Severity::Error, "pick: sample needs a seed"},
    {"a W_1 of the wrong width (from compute)", "W_1: [[1, 0], [0, 1], [1, 1]]",
     "W_1: [[1, 0, 0], [0, 1, 0], [1, 1, 0]]", "[[1, 0, 0]", Severity::Error,
     "layers[0].ffn.W_1 is 3 × 3; it needs d = 2 columns"},
    {"a cell key inside a layer's attention", "attention: {heads: 1, mask: causal}",
     "attention: {heads: 1, mask: causal, tokens: [a, b]}", "tokens: [a, b]}", Severity::Error,
     "'tokens' is not a key of one layer's attention"},
    {"an unknown pick", "pick: greedy", "pick: top", "top}", Severity::Error,
     "pick must be greedy or sample, not"},
    {"an empty list of layers",
     "layers:\n  - attention: {heads: 1, mask: causal}\n    ln1: none\n    ffn:\n"
     "      W_1: [[1, 0], [0, 1], [1, 1]]\n      b_1: [0, 0, 0]\n"
     "      W_2: [[1, 0, 1], [0, 1, 1]]\n      b_2: [0, 0]\n      activation: relu\n"
     "    ln2: {gamma: [1, 1], beta: [0, 0]}\n",
     "layers: []\n", "[]\n", Severity::Error, "layers must be a list of blocks"},
    {"a gamma of the wrong length (from compute)", "gamma: [1, 1]", "gamma: [1, 1, 1]", "[1, 1, 1]",
     Severity::Error, "layers[0].ln2.gamma has 3 numbers; it needs 2"},
};

} // namespace

TEST_CASE("transformerValidCellReadsAndComputes") {
    const Computed c = compute(parseLesson(kValid, "t.md"));
    CHECK_MESSAGE(c.problems.empty(), describe(c.problems));
    const ComputedCell* cell = c.results.cell("t");
    REQUIRE((cell && cell->transformer));
    CHECK(cell->transformer->loss.has_value());
    CHECK_EQ(cell->transformer->generation.steps.size(), size_t(2));
}

TEST_CASE("transformerReaderErrorsPointAtTheValue") {
    for (const ReaderCase& e : kReaderCases) {
        test::dataRow(e.name, [&] {
            std::string text = kValid;
            const size_t from = text.find(e.from);
            REQUIRE_MESSAGE(from != std::string::npos, "no '" << std::string(e.from) << "'");
            text.replace(from, std::string(e.from).size(), e.to);
            const auto [line, column] = positionOf(text, e.at);
            const Computed c = compute(parseLesson(text, "t.md"));
            const size_t errors =
                size_t(std::count_if(c.problems.begin(), c.problems.end(), [](const Diagnostic& d) {
                    return d.severity == Severity::Error;
                }));
            // Exactly one problem: this one.
            REQUIRE_MESSAGE(c.problems.size() == 1, describe(c.problems));
            const Diagnostic& d = c.problems.front();
            CHECK_EQ(errors, size_t(e.severity == Severity::Error ? 1 : 0));
            CHECK_MESSAGE(d.severity == e.severity, describe(c.problems));
            CHECK_MESSAGE((d.line == line && d.column == column),
                          "expected " << line << ":" << column << ", got " << describe(c.problems));
            CHECK_MESSAGE(d.message.find(e.message) != std::string::npos,
                          "expected '" << std::string(e.message) << "', got "
                                       << describe(c.problems));
            // A warning still computes; an error leaves the cell uncomputed.
            const ComputedCell* cell = c.results.cell("t");
            CHECK_EQ(cell && cell->ok, e.severity == Severity::Warning);
        });
    }
}

TEST_CASE("transformerTooCostlyIsRefusedUpFront") {
    // 3000 tokens: each head's n × n table alone is 9 million shares, and the JSON of scores
    // and shares far beyond the limit.
    std::string tokens;
    for (int i = 0; i < 3000; ++i) {
        tokens += i ? ", a" : "a";
    }
    const std::string text = "```transformer big\n"
                             "tokens: [" +
                             tokens +
                             "]\n"
                             "vocab: {a: [1, 0, 0, 0]}\n"
                             "layers:\n"
                             "  - attention: {heads: 1, mask: causal}\n"
                             "    ffn: none\n"
                             "```\n";
    const Lesson lesson = parseLesson(text, "big.md");
    REQUIRE_MESSAGE(lesson.diagnostics.empty(), describe(lesson.diagnostics));
    const auto start = std::chrono::steady_clock::now();
    const Computed c = compute(lesson);
    CHECK(test::millisecondsSince(start) < 5000); // refused before anything was computed
    REQUIRE_MESSAGE(c.problems.size() == 1, describe(c.problems));
    const Diagnostic& d = c.problems.front();
    CHECK_EQ(d.severity, Severity::Error);
    CHECK_EQ(d.line, 1); // the cell's fence
    CHECK_MESSAGE(d.message.find("cell 'big' is too costly") != std::string::npos, d.message);
    const ComputedCell* cell = c.results.cell("big");
    CHECK((cell && !cell->ok && !cell->transformer));
}

TEST_CASE("transformerGenerationWithoutTheMaskIsAWarning") {
    std::string text = kValid;
    const std::string causal = "mask: causal";
    text.replace(text.find(causal), causal.size(), "mask: none");
    const Computed c = compute(parseLesson(text, "t.md"));
    REQUIRE_MESSAGE(c.problems.size() == 1, describe(c.problems));
    const Diagnostic& d = c.problems.front();
    CHECK_EQ(d.severity, Severity::Warning);
    const auto [line, column] = positionOf(text, "{steps: 2");
    CHECK_MESSAGE((d.line == line && d.column == column), describe(c.problems));
    CHECK_MESSAGE(d.message.find("causal mask") != std::string::npos, d.message);
    CHECK_MESSAGE(d.message.find("nothing to cache") != std::string::npos, d.message);
    // Compute still succeeds: every number but the generation.
    const ComputedCell* cell = c.results.cell("t");
    REQUIRE((cell && cell->ok && cell->transformer));
    CHECK(cell->transformer->loss.has_value());
    CHECK(cell->transformer->generation.steps.empty());
    CHECK(cell->json.find("generation")->find("refused"));
}

// Knock-outs are computed when a binding reads them or the cell shows them, and then charged;
// otherwise neither. The bound values are the passes' (a removed FFN and a removed block of a
// one-layer cell whose attention is the only other part).
TEST_CASE("transformerKnockoutsWhenQuotedOrShown") {
    const Lesson plain = parseLesson(kValid, "t.md");
    const double plainWork = cellCost(plain.cells.front()).multiplyAdds;
    CHECK_FALSE(plain.cells.front().transformer()->config.knockouts);

    const std::string quoted = kValid + "\nWithout the FFN the next word is "
                                        "*{{t.knockout.ffn[0].next[0].word}}* at "
                                        "{{t.knockout.ffn[0].next[0].prob:4}}; without the block, "
                                        "{{t.knockout.block[0].probs[0]:4}}.<!-- general -->\n";
    const Computed c = compute(parseLesson(quoted, "t.md"));
    CHECK_MESSAGE(c.problems.empty(), describe(c.problems));
    REQUIRE(c.lesson.cells.front().transformer()->config.knockouts);
    CHECK(cellCost(c.lesson.cells.front()).multiplyAdds > plainWork);
    const ComputedCell* cell = c.results.cell("t");
    REQUIRE((cell && cell->transformer && cell->transformer->knockouts.computed));
    const nlohmann::json json = nlohmann::json::parse(cell->json.dump());
    const auto& knockout = json.at("knockout");
    CHECK_EQ(knockout.at("head").size(), size_t(1));
    CHECK_EQ(knockout.at("head")[0].size(), size_t(1));
    CHECK_EQ(knockout.at("block")[0].at("probs").size(), size_t(2));
    // Removing the one block leaves the tokens through the final norm alone: the last token is
    // b = [0, 1], so with the tied vocab the logits are [0, 1] and p(a) = 1 / (1 + e).
    CHECK(knockout.at("block")[0].at("probs")[0].get<double>() ==
          doctest::Approx(1.0 / (1.0 + std::exp(1.0))).epsilon(1e-12));

    std::string shown = kValid;
    shown.insert(shown.find("```\n", 10), "views: [next, knockout]\n");
    const Lesson viewed = parseLesson(shown, "t.md");
    CHECK_MESSAGE(viewed.diagnostics.empty(), describe(viewed.diagnostics));
    CHECK(viewed.cells.front().transformer()->config.knockouts);
}

namespace {

// kValid with a train key before its closing fence.
std::string withTrain(const std::string& train) {
    std::string text = kValid;
    text.insert(text.rfind("```\n"), train);
    return text;
}

} // namespace

// A cell that trains: its training and its trained numbers in compute's JSON, bindable; the
// same cell trained from a text file of sentences in its folder gives the same numbers.
TEST_CASE("transformerTrainsFromTheLessonsSentences") {
    const std::string train = "train:\n"
                              "  data: [[a, b, a], [b, a, b, a]]\n"
                              "  held_out: [[a, a, b]]\n"
                              "  steps: 12\n"
                              "  optimizer: sgd\n"
                              "  lr: 0.1\n";
    const std::string text = withTrain(train) +
                             "\nLoss {{t.training.loss[0]:4}} → {{t.training.loss[12]:4}}, held "
                             "out {{t.training.held_out_loss[12]:4}}.<!-- general -->"
                             "{{? t.training.loss[12] < t.training.loss[0]}}\n";
    const Computed c = compute(parseLesson(text, "t.md"));
    CHECK_MESSAGE(c.problems.empty(), describe(c.problems));
    const ComputedCell* cell = c.results.cell("t");
    REQUIRE((cell && cell->transformer && cell->transformer->training));
    const TrainingResult& t = *cell->transformer->training;
    CHECK(t.loss.size() == 13);
    CHECK(t.heldOutLoss.size() == 13);
    CHECK(t.gradNorm.size() == 12);
    CHECK(t.shown == 12);
    const nlohmann::json json = nlohmann::json::parse(cell->json.dump());
    CHECK(json.at("training").at("loss").size() == 13);
    CHECK(json.at("training").at("shown") == 12);
    CHECK(json.at("training").at("weights").at("layers")[0].contains("attention"));
    // The cell's own numbers are the trained model's: its loss is not the untrained one's.
    const Computed untrained = compute(parseLesson(kValid, "t.md"));
    CHECK(*cell->transformer->loss != *untrained.results.cell("t")->transformer->loss);

    // The sentences from a file beside the lesson: the same training, the file among the
    // cell's data files (a bundle carries it).
    const test::TempDir dir;
    REQUIRE(test::writeFile(dir.path() / "sentences.txt", "a b a\nb a b a\n"));
    std::string fromFile = train;
    fromFile.replace(fromFile.find("[[a, b, a], [b, a, b, a]]"),
                     std::string("[[a, b, a], [b, a, b, a]]").size(), "{file: sentences.txt}");
    const std::string path = (dir.path() / "t.md").string();
    const Computed file = compute(parseLesson(withTrain(fromFile), path));
    CHECK_MESSAGE(file.problems.empty(), describe(file.problems));
    const auto& fileTraining = file.results.cell("t")->transformer->training;
    REQUIRE(fileTraining);
    CHECK(fileTraining->loss == t.loss);
    CHECK(lessonDataFiles(file.lesson) == std::vector<std::string>{"sentences.txt"});
}

TEST_CASE("transformerTrainErrorsPointAtTheValue") {
    struct Case {
        const char* train;
        const char* at;
        const char* message;
    };
    const Case cases[] = {
        {"train:\n  data: [[a, zebra]]\n  steps: 3\n", "[a, zebra]",
         "train.data: 'zebra' is not in the vocab"},
        {"train:\n  data: [[a, b]]\n  steps: 3\n  show: 4\n", "4\n",
         "train.show must be between 0 and steps (3)"},
        {"train:\n  data: [[a, b]]\n", "data:", "train needs steps"},
        {"train:\n  data: [[a, b]]\n  steps: 3\n  optimizer: rmsprop\n", "rmsprop",
         "train.optimizer must be sgd or adam"},
        {"train:\n  data: [[a, b]]\n  steps: 3\n  lr: 0\n", "0\n",
         "train.lr must be a number above 0"},
        {"train:\n  data: {file: ../x.txt}\n  steps: 3\n", "../x.txt", "train.data: ../x.txt:"},
        {"train:\n  data: [[a, b]]\n  steps: 3\n  init: {seed: -1}\n", "-1",
         "train.init.seed must be a whole number"},
    };
    for (const Case& e : cases) {
        test::dataRow(e.message, [&] {
            const std::string text = withTrain(e.train);
            const auto [line, column] = positionOf(text, e.at);
            const Computed c = compute(parseLesson(text, "t.md"));
            REQUIRE_MESSAGE(c.problems.size() == 1, describe(c.problems));
            const Diagnostic& d = c.problems.front();
            CHECK(d.severity == Severity::Error);
            CHECK_MESSAGE((d.line == line && d.column == column),
                          "expected " << line << ":" << column << ", got " << describe(c.problems));
            CHECK_MESSAGE(d.message.find(e.message) != std::string::npos, describe(c.problems));
        });
    }
}

// docs/training.md "In the window": a watched run is the same run, bit for bit; the weights it
// keeps for a step are those a run shown at that step ends with; a small budget keeps every
// k-th step (the first and the last always); asked to stop, it stops at that step.
TEST_CASE("transformerWatchedTrainingKeepsEachStepsWeights") {
    const Lesson lesson = parseLesson(
        withTrain("train:\n  data: [[a, b, a], [b, a, b]]\n  steps: 12\n  lr: 0.1\n"), "t.md");
    const LessonCell* cell = lesson.cell("t");
    REQUIRE(cell);
    const TransformerCellSpec* spec = cell->transformer();
    REQUIRE((spec && spec->training));
    TrainingWatch watch;
    const TrainingResult watched = trainTransformer(spec->config, *spec->training, {}, watch);
    const TrainingResult plain = trainTransformer(spec->config, *spec->training);
    CHECK(watched.loss == plain.loss);
    CHECK(watched.gradNorm == plain.gradNorm);
    CHECK_FALSE(watch.cancelled);
    REQUIRE_EQ(watch.steps.size(), size_t(13));
    CHECK_EQ(watch.every, 1);
    for (const int k : {0, 5, 12}) {
        CAPTURE(k);
        TrainingSpec upToK = *spec->training;
        upToK.show = k;
        const TrainingResult shown = trainTransformer(spec->config, upToK);
        const auto& [step, kept] = watch.steps[size_t(k)];
        CHECK_EQ(step, k);
        CHECK(arma::approx_equal(kept.vocab, shown.weights.vocab, "absdiff", 0.0));
        CHECK(arma::approx_equal(kept.X0, shown.weights.X0, "absdiff", 0.0));
        CHECK(arma::approx_equal(kept.layers[0].attention.wQ.weights,
                                 shown.weights.layers[0].attention.wQ.weights, "absdiff", 0.0));
        CHECK(arma::approx_equal(kept.layers[0].ffn.W1, shown.weights.layers[0].ffn.W1, "absdiff",
                                 0.0));
        CHECK_EQ(keptStepNear(watch, k), &watch.steps[size_t(k)]);
    }

    // Room for four steps' weights: steps 0, 4, 8 and 12, and a slider between them snaps.
    const size_t perStep = watch.bytesKept / watch.steps.size();
    TrainingWatch tight;
    tight.byteBudget = 4 * perStep;
    trainTransformer(spec->config, *spec->training, {}, tight);
    CHECK_EQ(tight.every, 4);
    std::vector<int> kept;
    for (const auto& [step, weights] : tight.steps) {
        kept.push_back(step);
    }
    CHECK_EQ(kept, (std::vector<int>{0, 4, 8, 12}));
    CHECK_LE(tight.bytesKept, tight.byteBudget);
    CHECK_EQ(keptStepNear(tight, 5)->first, 4);
    CHECK_EQ(keptStepNear(tight, 11)->first, 12);

    // Asked to stop before step 3.
    TrainingWatch stop;
    stop.keepGoing = [](int step) { return step < 3; };
    const TrainingResult cut = trainTransformer(spec->config, *spec->training, {}, stop);
    CHECK(stop.cancelled);
    CHECK_EQ(cut.loss.size(), size_t(3));
}
