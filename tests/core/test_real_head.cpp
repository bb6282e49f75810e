// documents/real-head.md, the shipped lesson whose head is loaded from files
// in documents/data/real-head/: it checks clean (as `check --strict` would),
// and every matrix it computes matches an independent NumPy recomputation
// (real_head_numpy.py) to 1e-12.
#include "core/document/cell_editor.h"
#include "core/document/editable_attention.h"
#include "core/document/lesson.h"

#include "test_support.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

using namespace attnbook;

namespace {

const std::string kLesson = ATTNBOOK_SOURCE_DIR "/documents/real-head.md";

// The lesson read and computed once for every test case.
struct Computed {
    AttentionEngine engine; // first: results is computed with it
    Lesson lesson;
    LessonResults results;
    Computed() : lesson(loadLesson(kLesson)), results(computeLesson(lesson, engine)) {}
};

const Computed& computed() {
    static const Computed once;
    return once;
}

} // namespace

TEST_CASE("checksClean") {
    const Lesson& lesson = computed().lesson;
    const LessonResults& results = computed().results;
    std::vector<Diagnostic> all = lesson.diagnostics;
    all.insert(all.end(), results.diagnostics.begin(), results.diagnostics.end());
    const auto lint = checkLesson(lesson, results);
    all.insert(all.end(), lint.begin(), lint.end());
    std::string text;
    for (const Diagnostic& d : all) {
        text += formatDiagnostic("real-head.md", d) + "\n";
    }
    CHECK_MESSAGE(all.empty(), text); // warnings too, as check --strict
    CHECK_EQ(lessonDataFiles(lesson),
             (std::vector<std::string>{"data/real-head/emb.npy", "data/real-head/vocab.txt",
                                       "data/real-head/pos.npy", "data/real-head/c_attn.npy",
                                       "data/real-head/w_o.csv"}));
}

TEST_CASE("matchesNumPy") {
    const ComputedCell* cell = computed().results.cell("head");
    REQUIRE((cell && cell->attention));
    const AttentionResult& r = *cell->attention;
    std::vector<std::string> arguments{ATTNBOOK_SOURCE_DIR "/tests/core/real_head_numpy.py",
                                       ATTNBOOK_SOURCE_DIR "/documents/data/real-head"};
    arguments.insert(arguments.end(), r.tokens.begin(), r.tokens.end());
    const test::ProcessResult python = test::runProcess(ATTNBOOK_PYTHON3, arguments);
    REQUIRE_MESSAGE((python.started && !python.timedOut), python.err);
    REQUIRE_MESSAGE(python.exitCode == 0, python.err);
    const nlohmann::json numpy = nlohmann::json::parse(python.out);
    const std::pair<const char*, arma::mat> matrices[] = {{"X", r.X},
                                                          {"Q", r.Q},
                                                          {"K", r.K},
                                                          {"V", r.V},
                                                          {"weights", r.head[0].weights()},
                                                          {"context", r.head[0].context},
                                                          {"output", r.output}};
    for (const auto& [name, ours] : matrices) {
        const nlohmann::json& rows = numpy.at(name);
        REQUIRE_EQ(arma::uword(rows.size()), ours.n_rows);
        double worst = 0;
        for (arma::uword i = 0; i < ours.n_rows; ++i) {
            const nlohmann::json& row = rows.at(i);
            REQUIRE_EQ(arma::uword(row.size()), ours.n_cols);
            for (arma::uword j = 0; j < ours.n_cols; ++j) {
                worst = std::max(worst, std::abs(row.at(j).get<double>() - ours(i, j)));
            }
        }
        CHECK_MESSAGE(worst <= 1e-12, std::string(name) << " differs from NumPy by " << worst);
    }
    // The head does what the lesson says: each row from the second on puts
    // most of its share on the token just before it.
    for (arma::uword i = 1; i < r.head[0].weights().n_rows; ++i) {
        CHECK(r.head[0].weights()(i, i - 1) > 0.5);
    }
}

// In the window, W_Q(1,1) = 5 then Keep. The lesson keeps its file reference
// with the one entry set beside it, reads back with exactly the edited numbers and without a
// problem of reading; `check` then finds only what the edit changed: this W_Q(1,1) lowers one
// share of the previous-token band to 0.8995, so that claim (> 0.9) is false.
TEST_CASE("keepOfAnEditedLoadedWeightKeepsTheFile") {
    const Lesson& lesson = computed().lesson;
    const AttentionCellSpec* spec = lesson.cell("head")->attention();
    REQUIRE(spec);
    const EditableAttention authored = EditableAttention::fromSpec(*spec);
    EditableAttention edited = authored;
    CHECK_EQ(setMatrixEntry(edited, "W_Q", 1, 1, 5), EditRefusal());
    const auto changes = changedKeys(authored, edited);
    REQUIRE_EQ(changes.size(), size_t(1));
    CHECK_EQ(changes[0].first, std::string("W_Q"));
    CHECK_EQ(changes[0].second, std::string("{file: data/real-head/c_attn.npy, cols: [0, 8], "
                                            "transpose: true, set: [[1, 1, 5]]}"));
    Document document = lesson.document;
    CHECK_EQ(setCellKey(document, "head", changes[0].first, changes[0].second),
             std::optional<std::string>());
    const std::string text = document.serialize();
    CHECK(text.find("W_Q: {file: data/real-head/c_attn.npy, cols: [0, 8], transpose: true, "
                    "set: [[1, 1, 5]]}\nW_K: {file: data/real-head/c_attn.npy, cols: [8, 16], "
                    "transpose: true}\n") != std::string::npos);

    AttentionEngine engine;
    const Lesson after = parseLesson(text, kLesson);
    const LessonResults results = computeLesson(after, engine);
    std::vector<Diagnostic> all = after.diagnostics;
    all.insert(all.end(), results.diagnostics.begin(), results.diagnostics.end());
    const auto lint = checkLesson(after, results);
    all.insert(all.end(), lint.begin(), lint.end());
    std::string problems;
    for (const Diagnostic& d : all) {
        problems += formatDiagnostic("real-head.md", d) + "\n";
    }
    CHECK_MESSAGE(after.diagnostics.empty(), problems);
    REQUIRE_EQ(all.size(), size_t(1));
    CHECK_EQ(all[0].line, 47);
    CHECK_MESSAGE(all[0].message.find("claim is false: head.head[0].weights[1][0] > 0.9") == 0,
                  problems);
    CHECK_MESSAGE(all[0].message.find("head.head[0].weights[3][2] = 0.8995") != std::string::npos,
                  problems);
    REQUIRE(after.cell("head")->attention());
    const arma::mat& read = after.cell("head")->attention()->config.wQ.weights;
    arma::mat expected = spec->config.wQ.weights; // (8 × 16): the file's, W_Q(1,1) = 5
    expected(1, 1) = 5;
    CHECK(arma::approx_equal(read, expected, "absdiff", 0));
    CHECK_EQ(lessonDataFiles(after), lessonDataFiles(lesson));
}
