// One step of training by hand (core/present/training_step_exercise.h, docs/worksheets.md):
// the worksheet's chances, loss, gradient and new row against a slow loop written here from
// the formulas, and against the engine's own first SGD step (docs/training.md, "One step")
// on a cell trained on its own token and target, where the two must agree.
#include "core/document/lesson.h"
#include "core/present/training_step_exercise.h"

#include "test_support.h"

#include <cmath>
#include <regex>

using namespace attnbook;

namespace {

// A pencil-sized cell: one token, three words of two numbers, one block that adds the token's
// own value to it, and one guess (red → blue) to learn. Training runs the whole sentence, blue
// included: the causal mask keeps red from seeing it, as the cell's own pass does not.
std::string pencilLesson(const std::string& trainExtra, const std::string& cellExtra = "") {
    return "# Step\n\n```transformer tiny\n"
           "tokens: [red]\n"
           "vocab: {red: [1, 0.5], blue: [0, 1], green: [-0.5, 1]}\n"
           "layers:\n"
           "  - attention: {heads: 1, mask: causal}\n"
           "    ffn: none\n"
           "    ln1: none\n"
           "    ln2: none\n"
           "final_ln: none\n"
           "targets: [blue]\n" +
           cellExtra +
           "train:\n"
           "  data: [[red, blue]]\n"
           "  steps: 1\n"
           "  lr: 0.5\n" +
           trainExtra + "```\n";
}

struct Computed {
    Lesson lesson;
    LessonResults results;
};

Computed compute(const std::string& text) {
    AttentionEngine engine;
    Computed c{parseLesson(text, "t.md"), {}};
    c.results = computeLesson(c.lesson, engine);
    return c;
}

std::optional<TrainingStepExercise> exerciseOf(const Computed& c) {
    const LessonCell* cell = c.lesson.cell("tiny");
    const ComputedCell* computed = c.results.cell("tiny");
    REQUIRE(cell);
    REQUIRE_MESSAGE((computed && computed->transformer), c.results.diagnostics.size());
    return trainingStepExercise(*cell->transformer(), *computed->transformer,
                                [](double x) { return x; });
}

} // namespace

TEST_CASE("the hand step's numbers are the formulas worked with loops") {
    const Computed c = compute(pencilLesson("  optimizer: sgd\n  show: 0\n"));
    const auto e = exerciseOf(c);
    REQUIRE(e);
    // One token attends only to itself, with identity projections: z = x + x.
    const std::vector<double> z{2, 1};
    const std::vector<std::vector<double>> u{{1, 0.5}, {0, 1}, {-0.5, 1}};
    REQUIRE_EQ(e->z.n_elem, 2u);
    CHECK_EQ(e->z(0), doctest::Approx(z[0]).epsilon(1e-15));
    CHECK_EQ(e->z(1), doctest::Approx(z[1]).epsilon(1e-15));
    CHECK_EQ(e->target, 1);
    CHECK_EQ(e->words, std::vector<std::string>{"red", "blue", "green"});

    double total = 0;
    std::vector<double> scores, exps;
    for (int w = 0; w < 3; ++w) {
        double s = 0;
        for (int k = 0; k < 2; ++k) {
            s += u[size_t(w)][size_t(k)] * z[size_t(k)];
        }
        scores.push_back(s);
        exps.push_back(std::exp(s));
        total += exps.back();
    }
    // Scores 2.5, 1, 0: chances 0.786, 0.175, 0.039.
    for (int w = 0; w < 3; ++w) {
        const double p = exps[size_t(w)] / total;
        CHECK_EQ(e->scores(arma::uword(w)), doctest::Approx(scores[size_t(w)]).epsilon(1e-14));
        CHECK_EQ(e->probs(arma::uword(w)), doctest::Approx(p).epsilon(1e-14));
        CHECK_EQ(e->gradScores(arma::uword(w)), doctest::Approx(w == 1 ? p - 1 : p).epsilon(1e-14));
    }
    const double pBlue = exps[1] / total;
    CHECK_EQ(e->loss, doctest::Approx(-std::log(pBlue)).epsilon(1e-14));
    for (int k = 0; k < 2; ++k) {
        const double moved = u[1][size_t(k)] - 0.5 * (pBlue - 1) * z[size_t(k)];
        CHECK_EQ(e->newRow(arma::uword(k)), doctest::Approx(moved).epsilon(1e-14));
    }
    // The step raises blue's score by lr (1 − p) |z|² with z held still.
    CHECK_EQ(e->newScore, doctest::Approx(1 + 0.5 * (1 - pBlue) * 5).epsilon(1e-14));
}

TEST_CASE("the hand step is the engine's first step for the row of the word to learn") {
    // Trained on its own token and target (one guess, M = 1), blue is no input, so its row
    // moves only as an output row: the engine's step 1 shows exactly the hand step's row.
    const Computed before = compute(pencilLesson("  optimizer: sgd\n  show: 0\n"));
    const Computed after = compute(pencilLesson("  optimizer: sgd\n  show: 1\n"));
    const auto e = exerciseOf(before);
    REQUIRE(e);
    const TransformerResult& start = *before.results.cell("tiny")->transformer;
    const TransformerResult& stepped = *after.results.cell("tiny")->transformer;
    REQUIRE(stepped.training);
    CHECK_EQ(e->loss, doctest::Approx(start.training->loss[0]).epsilon(1e-14));
    const arma::rowvec engineRow = stepped.training->weights.vocab.row(1);
    for (arma::uword k = 0; k < 2; ++k) {
        CHECK_EQ(e->newRow(k), doctest::Approx(engineRow(k)).epsilon(1e-14));
    }
    // The scores are the cell's own logits at temperature 1.
    for (arma::uword w = 0; w < 3; ++w) {
        CHECK_EQ(e->scores(w), doctest::Approx(start.logits(0, w)).epsilon(1e-14));
    }
}

TEST_CASE("the hand step reads the weights of the step the cell shows, and its bias") {
    SUBCASE("a random start: the model's numbers, not the authored ones") {
        const Computed c =
            compute(pencilLesson("  optimizer: sgd\n  init: {seed: 3, scale: 0.5}\n  show: 0\n"));
        const auto e = exerciseOf(c);
        REQUIRE(e);
        const TransformerResult& r = *c.results.cell("tiny")->transformer;
        for (arma::uword w = 0; w < 3; ++w) {
            CHECK_EQ(e->rows(w, 0), r.training->weights.vocab(w, 0));
            CHECK_EQ(e->scores(w), doctest::Approx(r.logits(0, w)).epsilon(1e-13));
        }
        CHECK_NE(e->rows(0, 0), 1.0);
    }
    SUBCASE("a separate unembedding with biases") {
        const Computed c = compute(pencilLesson(
            "  optimizer: sgd\n  show: 0\n",
            "unembed: {red: [1, 1], blue: [-1, 0.5], green: [0, 2]}\nb_U: [0.5, -0.25, 0]\n"));
        const auto e = exerciseOf(c);
        REQUIRE(e);
        const TransformerResult& r = *c.results.cell("tiny")->transformer;
        CHECK(e->biasGiven);
        CHECK_EQ(e->bias(1), -0.25);
        CHECK_EQ(e->rows(1, 0), -1.0);
        for (arma::uword w = 0; w < 3; ++w) {
            CHECK_EQ(e->scores(w), doctest::Approx(r.logits(0, w)).epsilon(1e-14));
        }
    }
}

TEST_CASE("the hand step rounds its givens and works from them") {
    const Computed c = compute(pencilLesson("  optimizer: sgd\n  show: 0\n"));
    const LessonCell* cell = c.lesson.cell("tiny");
    const auto halves =
        trainingStepExercise(*cell->transformer(), *c.results.cell("tiny")->transformer,
                             [](double x) { return std::round(x); });
    REQUIRE(halves);
    // Rounded: rows [1, 1], [0, 1], [−1, 1] (−0.5 rounds away from zero), z = [2, 1].
    CHECK_EQ(halves->rows(2, 0), -1.0);
    CHECK_EQ(halves->scores(0), 3.0);
    CHECK_EQ(halves->scores(2), -1.0);
}

TEST_CASE("a cell that is not a hand step offers none") {
    SUBCASE("Adam") {
        CHECK_FALSE(exerciseOf(compute(pencilLesson("  optimizer: adam\n"))));
    }
    SUBCASE("the vocab does not train") {
        CHECK_FALSE(
            exerciseOf(compute(pencilLesson("  optimizer: sgd\n  trainable: [attention]\n"))));
    }
    SUBCASE("no target at the last token") {
        const std::string text = std::regex_replace(pencilLesson("  optimizer: sgd\n"),
                                                    std::regex("targets: \\[blue\\]\n"), "");
        CHECK_FALSE(exerciseOf(compute(text)));
    }
    SUBCASE("more words than a pencil scores") {
        const std::string text = std::regex_replace(
            pencilLesson("  optimizer: sgd\n"), std::regex("green: \\[-0.5, 1\\]"),
            "green: [-0.5, 1], a: [1, 1], b: [2, 1], c: [0, 2]");
        CHECK_FALSE(exerciseOf(compute(text)));
    }
}
