// A what-if of a training cell's prompt keeps the lesson's training (docs/training.md): the
// live page asks after every click, and training is most of such a cell's time. What it keeps
// must be exactly what training the edited cell afresh gives, and a what-if of anything the
// training reads must train again.
#include "core/document/shared_model.h"
#include "core/live/what_if.h"
#include "core/math/attention_engine.h"
#include "core/math/transformer_training.h"

#include "test_support.h"

#include <string>

using namespace attnbook;

namespace {

// Two words, one layer, trained by plain gradient descent for 6 steps.
const std::string kLesson = "# Training\n"
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
                            "temperature: 1\n"
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

Computed computed(const std::string& text, const ComputePolicy& policy = {}) {
    Computed out{parseLesson(text, "t.md"), {}};
    AttentionEngine engine;
    out.results = computeLesson(out.lesson, engine, policy);
    REQUIRE(out.results.cell("t"));
    REQUIRE(out.results.cell("t")->transformer);
    REQUIRE(out.results.cell("t")->transformer->training);
    return out;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

const TransformerResult& transformerOf(const LessonResults& results) {
    return *results.cell("t")->transformer;
}

// Every number of the two results that a training and its prompt decide, exactly equal.
void checkSame(const TransformerResult& a, const TransformerResult& b) {
    CHECK(a.training->loss == b.training->loss);
    CHECK(a.training->gradNorm == b.training->gradNorm);
    CHECK(arma::approx_equal(a.training->weights.vocab, b.training->weights.vocab, "absdiff", 0));
    CHECK(arma::approx_equal(a.training->weights.X0, b.training->weights.X0, "absdiff", 0));
    CHECK(a.training->weights.tokens == b.training->weights.tokens);
    CHECK(arma::approx_equal(a.probs, b.probs, "absdiff", 0));
    REQUIRE(a.loss.has_value() == b.loss.has_value());
    if (a.loss) {
        CHECK(*a.loss == *b.loss);
    }
}

} // namespace

TEST_CASE("the prompt keys are what training does not read") {
    for (const char* key : {"tokens", "targets", "temperature", "generate", "focus"}) {
        CHECK_MESSAGE(isPromptKey(key), key);
    }
    for (const char* key : {"vocab", "layers", "train", "positional", "X", "unembed", "eps"}) {
        CHECK_MESSAGE(!isPromptKey(key), key);
    }
}

TEST_CASE("a cell's training taken from before gets the cell's own prompt") {
    // Trained weights from the lesson; a cell with other tokens, targets and temperature.
    const Computed lesson = computed(kLesson);
    const std::string edited =
        replaced(replaced(replaced(kLesson, "tokens: [a, b]", "tokens: [b, b, a]"),
                          "targets: [b, a]", "targets: [a, ~, b]"),
                 "temperature: 1", "temperature: 2");
    ComputePolicy policy;
    int asked = 0;
    policy.training = [&](const LessonCell& cell) {
        ++asked;
        CHECK_EQ(cell.id, "t");
        return transformerOf(lesson.results).training;
    };
    const Computed taken = computed(edited, policy);
    CHECK_EQ(asked, 1);
    const Computed trainedAgain = computed(edited);
    checkSame(transformerOf(taken.results), transformerOf(trainedAgain.results));
    // X0's rows are the trained vocab's rows of b, b, a.
    const TransformerConfig& w = transformerOf(taken.results).training->weights;
    CHECK(arma::approx_equal(w.X0.row(0), w.vocab.row(1), "absdiff", 0));
    CHECK(arma::approx_equal(w.X0.row(2), w.vocab.row(0), "absdiff", 0));
    CHECK_EQ(w.temperature, 2.0);
}

TEST_CASE("a what-if of a training cell's prompt gives what training afresh gives") {
    const Computed lesson = computed(kLesson);
    AttentionEngine engine;
    const std::vector<std::pair<std::vector<SetOption>, std::string>> cases = {
        {{{"t", "tokens", "[b, a, a]"}, {"t", "targets", "[a, ~, b]"}},
         replaced(replaced(kLesson, "tokens: [a, b]", "tokens: [b, a, a]"), "targets: [b, a]",
                  "targets: [a, ~, b]")},
        {{{"t", "temperature", "0.5"}}, replaced(kLesson, "temperature: 1", "temperature: 0.5")},
        // Not the prompt: the training reads these, and trains again.
        {{{"t", "train", "{data: [[a, b, a], [b, a, b, a]], steps: 3, optimizer: sgd, lr: 0.1}"}},
         replaced(kLesson, "steps: 6", "steps: 3")},
        {{{"t", "positional", "sinusoidal"}},
         replaced(kLesson, "temperature: 1", "positional: sinusoidal\ntemperature: 1")},
    };
    for (const auto& [sets, text] : cases) {
        CAPTURE(sets.front().label());
        const WhatIf whatIf = applyWhatIf(lesson.lesson, sets, engine, &lesson.results);
        REQUIRE_MESSAGE(whatIf.errors.empty(), whatIf.errors.front());
        checkSame(transformerOf(whatIf.results), transformerOf(computed(text).results));
    }
}
