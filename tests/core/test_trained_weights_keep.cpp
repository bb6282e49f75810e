// Keep on a cell that trains (core/live/trained_weights_keep.h, docs/training.md "Keep"): the
// kept lesson, read back from disk beside its .safetensors file, computes exactly the numbers
// the trained cell showed, trains no more, and changes nothing outside the cell; the file holds
// every weight by name; cells that cannot be kept say why.
#include "core/document/lesson.h"
#include "core/document/safetensors_writer.h"
#include "core/document/tensor_file.h"
#include "core/live/trained_weights_keep.h"

#include "test_support.h"

using namespace attnbook;

namespace {

// Two blocks with every kind of weight (norms, FFNs, biases), a separate unembedding with its
// bias, words YAML has to quote, a random start and a step on show before the last.
const std::string kLesson = R"(# Keep

Before the cell.

```transformer learner
tokens: [the, cat, "it's"]
vocab: {the: [0, 0, 0, 0], cat: [0, 0, 0, 0], '.': [0, 0, 0, 0], "it's": [0, 0, 0, 0]}
positional: sinusoidal
layers:
  - attention: {heads: 2, mask: causal}
    ffn: {W_1: [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], W_2: [[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]], activation: relu}
  - attention: {heads: 1, mask: causal}
    ffn: none
    ln2: none
unembed: {the: [1, 0, 0, 0], cat: [0, 1, 0, 0], '.': [0, 0, 1, 0], "it's": [0, 0, 0, 1]}
b_U: [0.1, 0, 0, -0.1]
targets: [cat, "it's", '.']
train:
  data:
    - [the, cat, "it's", '.']
    - [cat, the, '.']
  steps: 6
  optimizer: adam
  lr: 0.05
  init: {seed: 5, scale: 0.5}
  show: 4
```

After the cell.
)";

struct Computed {
    Lesson lesson;
    LessonResults results;
};

Computed compute(Lesson lesson) {
    AttentionEngine engine;
    Computed c{std::move(lesson), {}};
    c.results = computeLesson(c.lesson, engine);
    return c;
}

const TransformerResult& resultOf(const Computed& c, const std::string& id) {
    const ComputedCell* cell = c.results.cell(id);
    std::string why;
    for (const Diagnostic& d : c.results.diagnostics) {
        why += d.message + "\n";
    }
    for (const Diagnostic& d : c.lesson.diagnostics) {
        why += d.message + "\n";
    }
    REQUIRE_MESSAGE((cell && cell->transformer), why);
    return *cell->transformer;
}

double largestDifference(const arma::mat& a, const arma::mat& b) {
    REQUIRE_EQ(a.n_rows, b.n_rows);
    REQUIRE_EQ(a.n_cols, b.n_cols);
    return a.is_empty() ? 0.0 : arma::abs(a - b).max();
}

} // namespace

TEST_CASE("a kept lesson opens with the trained model, bit for bit, and trains no more") {
    test::TempDir folder;
    const std::string path = folder.filePath("lesson.md");
    REQUIRE(test::writeFile(path, kLesson));
    const Computed before = compute(loadLesson(path));
    const TransformerResult& trained = resultOf(before, "learner");
    REQUIRE(trained.training);
    REQUIRE_EQ(trained.training->shown, 4);

    auto kept = keepTrainedWeights(before.lesson.document, "learner", trained.training->weights);
    REQUIRE_MESSAGE(std::holds_alternative<TrainedWeightsKeep>(kept), std::get<std::string>(kept));
    const TrainedWeightsKeep& keep = std::get<TrainedWeightsKeep>(kept);
    CHECK_EQ(keep.fileName, "learner.safetensors");
    REQUIRE(test::writeFile(folder.path() / keep.fileName, keep.fileBytes));
    const std::string keptText = keep.document.serialize();
    REQUIRE(test::writeFile(path, keptText));

    const Computed after = compute(loadLesson(path));
    const TransformerResult& read = resultOf(after, "learner");
    CHECK_FALSE(read.training); // the train key is gone
    CHECK(after.lesson.cell("learner")->transformer()->training == std::nullopt);
    CHECK_EQ(largestDifference(read.logits, trained.logits), 0.0);
    CHECK_EQ(largestDifference(read.probs, trained.probs), 0.0);
    CHECK_EQ(largestDifference(read.X, trained.X), 0.0);
    CHECK_EQ(read.words, trained.words);

    // Only the cell's lines changed: the prose around it is as it was.
    CHECK(keptText.rfind("# Keep\n\nBefore the cell.\n\n```transformer learner\n", 0) == 0);
    CHECK(keptText.size() > std::string("After the cell.\n").size());
    CHECK(keptText.substr(keptText.size() - 21) == "```\n\nAfter the cell.\n");
    CHECK(keptText.find("train:") == std::string::npos);
    CHECK(keptText.find("activation: relu") != std::string::npos);
    CHECK(keptText.find("heads: 2") != std::string::npos);
}

TEST_CASE("the kept file holds every weight by name, as doubles") {
    test::TempDir folder;
    const std::string path = folder.filePath("lesson.md");
    REQUIRE(test::writeFile(path, kLesson));
    const Computed before = compute(loadLesson(path));
    const TransformerConfig& w = resultOf(before, "learner").training->weights;
    const auto kept = keepTrainedWeights(before.lesson.document, "learner", w);
    REQUIRE(std::holds_alternative<TrainedWeightsKeep>(kept));
    const std::string& bytes = std::get<TrainedWeightsKeep>(kept).fileBytes;

    const auto tensor = [&](const std::string& name) {
        std::string error;
        const std::optional<Tensor> t =
            readTensor(bytes, TensorFormat::Safetensors, name, DataFileLimits{}, error);
        REQUIRE_MESSAGE(t, name << ": " << error);
        return *t;
    };
    CHECK_EQ(largestDifference(tensor("vocab").values, w.vocab), 0.0);
    CHECK_EQ(largestDifference(tensor("unembed").values, w.unembed), 0.0);
    CHECK_EQ(tensor("b_U").shape, std::vector<std::uint64_t>{4});
    CHECK_EQ(largestDifference(tensor("layers.0.attention.W_Q").values,
                               w.layers[0].attention.wQ.weights),
             0.0);
    CHECK_EQ(largestDifference(tensor("layers.0.ffn.W_1").values, w.layers[0].ffn.W1), 0.0);
    CHECK_EQ(largestDifference(tensor("layers.1.attention.W_O").values,
                               w.layers[1].attention.wO.weights),
             0.0);
    CHECK_EQ(largestDifference(tensor("final_ln.gamma").values, arma::mat(w.finalLn.gamma)), 0.0);
}

TEST_CASE("a safetensors file written here reads back as written") {
    const arma::mat m{{1.0 / 3.0, -2.5e-300}, {7, 0}, {1e300, -0.0}};
    const arma::rowvec v{0.1, 0.2, 0.3};
    const std::string bytes = safetensorsBytes({{"m", m, false}, {"v", arma::mat(v), true}});
    REQUIRE_EQ(bytes.size() % 8, 0u); // the data starts 8-byte aligned; 15 doubles follow
    std::string error;
    const auto readM = readTensor(bytes, TensorFormat::Safetensors, "m", DataFileLimits{}, error);
    REQUIRE_MESSAGE(readM, error);
    CHECK_EQ(readM->shape, std::vector<std::uint64_t>{3, 2});
    CHECK(arma::approx_equal(readM->values, m, "absdiff", 0.0));
    const auto readV = readTensor(bytes, TensorFormat::Safetensors, "v", DataFileLimits{}, error);
    REQUIRE_MESSAGE(readV, error);
    CHECK_EQ(readV->shape, std::vector<std::uint64_t>{3});
    CHECK(arma::approx_equal(readV->values, arma::mat(v), "absdiff", 0.0));
}

TEST_CASE("a cell that cannot be kept this way says why") {
    const Lesson lesson =
        parseLesson(kLesson + "\n```transformer other\nmodel: learner\ntokens: [the]\n"
                              "train:\n  data: [[the, cat]]\n  steps: 1\n```\n\n"
                              "```transformer plain\ntokens: [a]\nvocab: {a: [1, 0]}\n"
                              "layers:\n  - attention: {heads: 1}\n```\n",
                    "m.md");
    const TransformerConfig none;
    const auto message = [&](const std::string& id) {
        const auto kept = keepTrainedWeights(lesson.document, id, none);
        REQUIRE(std::holds_alternative<std::string>(kept));
        return std::get<std::string>(kept);
    };
    CHECK_EQ(message("nobody"), "there is no cell 'nobody'");
    CHECK_EQ(message("plain"), "'plain' does not train (it has no train key)");
    CHECK_EQ(message("other"),
             "'other' takes its model from 'learner': keep the weights of that cell");
    CHECK_EQ(message("learner"), "'learner' has no vocabulary to keep");
}
