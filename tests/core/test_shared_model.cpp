// A transformer cell that takes its model from an earlier cell (`model: ID`, docs/transformer.md
// "A shared model"): it computes exactly what the same cell with the model written out
// computes; what it writes itself stays its own; `{cell: ID, layers: K}` is the first K blocks;
// every mistake in `model:` is one error at its value; an author's change of the model reaches
// every cell that names it, a reader's what-if of one cell reaches no other.
#include "core/document/lesson.h"
#include "core/live/what_if.h"

#include "test_support.h"

#include <algorithm>

using namespace attnbook;

namespace {

// The model, written out: two blocks over a vocab of three words.
const std::string kModel = "vocab:\n"
                           "  a: [1, 0]\n"
                           "  b: [0, 1]\n"
                           "  c: [1, 1]\n"
                           "layers:\n"
                           "  - attention: {heads: 1, mask: causal, W_Q: [[1, 2], [0, 1]]}\n"
                           "    ffn:\n"
                           "      W_1: [[1, 0], [0, 1], [1, 1]]\n"
                           "      W_2: [[1, 0, 1], [0, 1, 1]]\n"
                           "      activation: relu\n"
                           "  - attention: {heads: 2, mask: causal, W_V: [[0, 1], [1, 0]]}\n"
                           "    ffn: none\n"
                           "final_ln: {gamma: [2, 1], beta: [0, 0.5]}\n";

std::string cell(const std::string& id, const std::string& body) {
    return "```transformer " + id + "\n" + body + "```\n\n";
}

struct Computed {
    Lesson lesson;
    LessonResults results;
    std::vector<Diagnostic> problems;
};

Computed compute(const std::string& text) {
    AttentionEngine engine;
    Computed c{parseLesson(text, "m.md"), {}, {}};
    c.results = computeLesson(c.lesson, engine);
    c.problems = lessonProblems(c.lesson, c.results);
    return c;
}

std::string describe(const std::vector<Diagnostic>& all) {
    std::string out;
    for (const Diagnostic& d : all) {
        out += formatDiagnostic("m.md", d) + "\n";
    }
    return out;
}

const TransformerResult& result(const Computed& c, const std::string& id) {
    const ComputedCell* computed = c.results.cell(id);
    REQUIRE_MESSAGE((computed && computed->transformer), id << ": " << describe(c.problems));
    return *computed->transformer;
}

// Bit for bit: the same operations on the same numbers.
void checkSameNumbers(const TransformerResult& got, const TransformerResult& written) {
    CHECK_EQ(got.words, written.words);
    CHECK_EQ(got.layersRun, written.layersRun);
    CHECK(arma::approx_equal(got.logits, written.logits, "absdiff", 0.0));
    CHECK(arma::approx_equal(got.probs, written.probs, "absdiff", 0.0));
    REQUIRE_EQ(got.loss.has_value(), written.loss.has_value());
    if (got.loss) {
        CHECK_EQ(*got.loss, *written.loss);
    }
}

std::pair<int, int> positionOf(const std::string& text, const std::string& needle) {
    const size_t at = text.find(needle);
    REQUIRE_MESSAGE(at != std::string::npos, "no '" << needle << "'");
    const int line = 1 + int(std::count(text.begin(), text.begin() + long(at), '\n'));
    const size_t lineStart = text.rfind('\n', at);
    return {line, int(at - (lineStart == std::string::npos ? 0 : lineStart + 1)) + 1};
}

} // namespace

TEST_CASE("aCellThatNamesAModelComputesAsTheModelWrittenOut") {
    const std::string own = "tokens: [b, a, c]\npositional: sinusoidal\ntargets: [a, c, b]\n"
                            "temperature: 0.7\n";
    const Computed c = compute("# Shared\n\n" + cell("m", "tokens: [a]\n" + kModel) +
                               cell("u", "model: m\n" + own) + cell("w", own + kModel) +
                               cell("one", "model: {cell: m, layers: 1}\n" + own) +
                               cell(
                                   "one_written", own + [] {
                                       // kModel with its second block cut off
                                       std::string m = kModel;
                                       const size_t second = m.find("  - attention: {heads: 2");
                                       const size_t end = m.find("final_ln");
                                       return m.erase(second, end - second);
                                   }()));
    REQUIRE_MESSAGE(c.problems.empty(), describe(c.problems));
    checkSameNumbers(result(c, "u"), result(c, "w"));
    checkSameNumbers(result(c, "one"), result(c, "one_written"));
    CHECK_EQ(result(c, "u").layersRun, 2);
    CHECK_EQ(result(c, "one").layersRun, 1);
    // The cell's own keys are its own: its tokens and temperature, not the model cell's.
    CHECK_EQ(result(c, "u").n, 3);
    CHECK_EQ(result(c, "m").n, 1);
    // What it took, said once for the notebook and the paper.
    const TransformerCellSpec* spec = c.lesson.cell("u")->transformer();
    REQUIRE((spec && spec->sharedModel));
    CHECK_EQ(spec->sharedModel->cell, "m");
    CHECK_EQ(spec->sharedModel->keys, (std::vector<std::string>{"vocab", "layers", "final_ln"}));
    CHECK_FALSE(c.lesson.cell("w")->transformer()->sharedModel.has_value());
}

TEST_CASE("aCellsOwnModelKeyReplacesTheSharedOneWhole") {
    const Computed c = compute("# Shared\n\n" + cell("m", "tokens: [a]\n" + kModel) +
                               cell("u", "model: m\ntokens: [a, b]\nfinal_ln: none\n") +
                               cell("chain", "model: u\ntokens: [a, b]\n"));
    REQUIRE_MESSAGE(c.problems.empty(), describe(c.problems));
    const TransformerCellSpec* u = c.lesson.cell("u")->transformer();
    CHECK(u->config.finalLn.identity);
    CHECK_EQ(u->sharedModel->keys, (std::vector<std::string>{"vocab", "layers"}));
    // A model taken from a cell that took it: u's model, final_ln none included.
    const TransformerCellSpec* chain = c.lesson.cell("chain")->transformer();
    CHECK(chain->config.finalLn.identity);
    checkSameNumbers(result(c, "chain"), result(c, "u"));
}

TEST_CASE("everyMistakeInModelIsOneErrorAtItsValue") {
    struct Case {
        const char* name;
        const char* model; // the `model:` line of cell u
        const char* at;    // where the error points (first occurrence after "```transformer u")
        const char* message;
    };
    const Case cases[] = {
        {"an unknown cell", "model: tiyn\n", "tiyn", "there is no transformer cell 'tiyn' above"},
        {"a near miss", "model: mm\n", "mm\n", "did you mean 'm'?"},
        {"a cell below", "model: later\n", "later\n", "no transformer cell 'later' above"},
        {"an attention cell", "model: att\n", "att\n", "no transformer cell 'att' above"},
        {"itself", "model: u\n", "u\ntokens", "no transformer cell 'u' above"},
        {"a list", "model: [m]\n", "[m]", "model must name a transformer cell above this one"},
        {"an unknown key", "model: {cell: m, blocks: 1}\n", "{cell",
         "model must name a transformer cell above this one"},
        {"too many layers", "model: {cell: m, layers: 3}\n", "3}",
         "layers: 3 asks for more blocks than the cell 'm' has (2)"},
        {"no layers", "model: {cell: m, layers: 0}\n", "{cell",
         "layers must be a whole number ≥ 1"},
        {"layers and its own",
         "model: {cell: m, layers: 1}\nlayers: [{attention: {heads: 1}, "
         "ffn: none}]\n",
         "1}", "but this cell writes its own layers"},
    };
    for (const Case& e : cases) {
        test::dataRow(e.name, [&] {
            const std::string text =
                "# Shared\n\n```attention att\ntokens: [a]\nvocab: {a: [1, 0]}\n```\n\n" +
                cell("m", "tokens: [a]\n" + kModel) +
                cell("u", std::string(e.model) + "tokens: [a, b]\n") +
                cell("later", "model: m\n"
                              "tokens: [c]\n");
            // The first occurrence of `at` inside cell u.
            const size_t uAt = text.find("```transformer u");
            const auto [eLine, eColumn] = positionOf(text.substr(uAt), e.at);
            const int uLine = 1 + int(std::count(text.begin(), text.begin() + long(uAt), '\n'));
            const Computed c = compute(text);
            REQUIRE_MESSAGE(c.problems.size() == 1, describe(c.problems));
            const Diagnostic& d = c.problems.front();
            CHECK(d.severity == Severity::Error);
            CHECK_EQ(d.cellId, "u");
            CHECK_MESSAGE((d.line == uLine + eLine - 1 && d.column == eColumn),
                          "expected " << uLine + eLine - 1 << ":" << eColumn << ", got "
                                      << describe(c.problems));
            CHECK_MESSAGE(d.message.find(e.message) != std::string::npos, describe(c.problems));
            // The cells around it are untouched.
            CHECK(c.results.cell("m"));
            CHECK(c.results.cell("later"));
        });
    }
}

TEST_CASE("aModelCellWithErrorsIsReportedThereOnly") {
    const std::string broken = "tokens: [a]\n" + kModel;
    std::string model = broken;
    model.replace(model.find("activation: relu"), 16, "activation: swish");
    const std::string text =
        "# Shared\n\n" + cell("m", model) + cell("u", "model: m\ntokens: [a, b]\n");
    const Computed c = compute(text);
    REQUIRE_MESSAGE(c.problems.size() == 2, describe(c.problems));
    CHECK_EQ(c.problems[0].cellId, "m");
    CHECK(c.problems[0].message.find("swish") != std::string::npos);
    CHECK_EQ(c.problems[1].cellId, "u");
    CHECK_MESSAGE(c.problems[1].message.find("the cell 'm' has errors of its own") !=
                      std::string::npos,
                  describe(c.problems));
}

TEST_CASE("aModelThatDoesNotComputeIsReportedThereOnly") {
    std::string model = "tokens: [a]\n" + kModel;
    // Read fine, refused by the engine: W_1 needs d = 2 columns.
    model.replace(model.find("W_1: [[1, 0], [0, 1], [1, 1]]"), 29, "W_1: [[1, 0, 0], [0, 1, 0]]");
    const std::string text =
        "# Shared\n\n" + cell("m", model) + cell("u", "model: m\ntokens: [a, b]\n");
    const Computed c = compute(text);
    REQUIRE_MESSAGE(c.problems.size() == 2, describe(c.problems));
    CHECK_EQ(c.problems[0].cellId, "m");
    CHECK(c.problems[0].message.find("W_1") != std::string::npos);
    CHECK_EQ(c.problems[1].cellId, "u");
    const auto [line, column] = positionOf(text, "m\ntokens: [a, b]");
    CHECK_EQ(c.problems[1].line, line);
    CHECK_EQ(c.problems[1].column, column);
    CHECK(c.problems[1].message.find("the cell 'm' does not compute") != std::string::npos);
}

TEST_CASE("anAuthorsChangeOfTheModelReachesEveryCellThatNamesIt") {
    const std::string text = "# Shared\n\n" + cell("m", "tokens: [a]\n" + kModel) +
                             cell("u", "model: m\ntokens: [a, b]\npositional: none\n");
    const Computed before = compute(text);
    REQUIRE_MESSAGE(before.problems.empty(), describe(before.problems));
    AttentionEngine engine;
    std::string error;
    // An author's edit of the model: one block fewer.
    const auto layers = parseSetOption(
        "m.layers=[{attention: {heads: 1, mask: causal, W_Q: [[1, 2], [0, 1]]}, ffn: none}]",
        error);
    REQUIRE(layers);
    const WhatIf fewer = applyWhatIf(before.lesson, {*layers}, engine);
    REQUIRE(fewer.errors.empty());
    const ComputedCell* u = fewer.results.cell("u");
    REQUIRE((u && u->transformer));
    CHECK_EQ(u->transformer->layersRun, 1);
    // A reader's what-if of the model cell's positions is that cell's alone.
    const auto positions = parseSetOption("m.positional=sinusoidal", error);
    REQUIRE(positions);
    const WhatIf moved = applyWhatIf(before.lesson, {*positions}, engine);
    REQUIRE(moved.errors.empty());
    CHECK(moved.byReader);
    checkSameNumbers(*moved.results.cell("u")->transformer, result(before, "u"));
    CHECK_FALSE(arma::approx_equal(moved.results.cell("m")->transformer->X,
                                   before.results.cell("m")->transformer->X, "absdiff", 0.0));
}

TEST_CASE("theShippedLessonsNameTheirModelOnce") {
    for (const char* name : {"transformer.md", "training.md"}) {
        const std::string path = std::string(ATTNBOOK_SOURCE_DIR "/documents/") + name;
        const std::optional<std::string> bytes = test::readFile(path);
        REQUIRE(bytes);
        // The model's weights are written out once: every other cell names it.
        const size_t tensors = [&] {
            size_t count = 0;
            for (size_t at = 0;
                 (at = bytes->find("tensor: layers.0.attn.W_Q", at)) != std::string::npos; ++at) {
                ++count;
            }
            return count;
        }();
        CHECK_MESSAGE(tensors <= 1, name);
    }
}
