// documents/real-head.md, the shipped lesson whose head is loaded from files
// in documents/data/real-head/: it checks clean (as `check --strict` would),
// and every matrix it computes matches an independent NumPy recomputation
// (real_head_numpy.py) to 1e-12.
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
