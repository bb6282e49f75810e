// The shipped lessons give the brief's figures (lessons/brief.md), straight
// from their cells, and pass `check` with no error and no warning.
#include "core/document/lesson.h"

#include "test_support.h"

#include <cmath>

using namespace attnbook;
using attnbook::test::fuzzy;

namespace {

struct Computed {
    Lesson lesson;
    LessonResults results;
};

Computed computeShipped(const char* name) {
    const std::optional<std::string> bytes =
        test::readFile(std::string(ATTNBOOK_SOURCE_DIR "/documents/") + name);
    REQUIRE_MESSAGE(bytes, "cannot read documents/" << std::string(name));
    Computed c{parseLesson(*bytes, name), {}};
    AttentionEngine engine;
    c.results = computeLesson(c.lesson, engine);
    return c;
}

const AttentionResult& attention(const Computed& c, const char* id) {
    const ComputedCell* cell = c.results.cell(id);
    if (!cell || !cell->attention) {
        FAIL("no computed attention cell '" << std::string(id) << "'");
    }
    return *cell->attention;
}

// Rounds like the lesson prints: to 4 decimals.
void expectRow(const arma::rowvec& actual, std::initializer_list<double> expected,
               double tolerance = 5e-5) {
    REQUIRE_EQ(actual.n_elem, arma::uword(expected.size()));
    arma::uword i = 0;
    for (double e : expected) {
        CHECK_MESSAGE(std::abs(actual(i) - e) <= tolerance,
                      "[" << i << "] = " << std::to_string(actual(i)) << ", expected " << e);
        ++i;
    }
}

} // namespace

TEST_CASE("bothLessonsCheckClean") {
    for (const char* name : {"attention.md", "transformers.md", "template.md"}) {
        const Computed c = computeShipped(name);
        std::vector<Diagnostic> all = c.lesson.diagnostics;
        all.insert(all.end(), c.results.diagnostics.begin(), c.results.diagnostics.end());
        const auto lint = checkLesson(c.lesson, c.results);
        all.insert(all.end(), lint.begin(), lint.end());
        std::string text;
        for (const Diagnostic& d : all) {
            text += formatDiagnostic(name, d) + "\n";
        }
        CHECK_MESSAGE(all.empty(), text);
    }
}

TEST_CASE("attentionLessonFigures") {
    const Computed c = computeShipped("attention.md");
    const AttentionResult& colour = attention(c, "colour");
    expectRow(colour.head[0].weights().row(0), {0.3837, 0.2327, 0.3837});
    expectRow(colour.output.row(0), {0.7673, 0.2327, 0, 0});
    const AttentionResult& blue = attention(c, "colour_blue");
    expectRow(blue.head[0].weights().row(1), {0.2741, 0.4519, 0.2741});
    expectRow(blue.output.row(1), {0.5481, 0.4519, 0, 0});
    // The blue column totals ≈ 0.9173 (rows total one, columns need not).
    CHECK(std::abs(arma::accu(colour.head[0].weights().col(1)) - 0.9173) < 5e-5);
    const AttentionResult& twoHeads = attention(c, "two_heads");
    CHECK_EQ(twoHeads.h, 2);
    expectRow(twoHeads.head[0].weights().row(0), {0.4011, 0.1978, 0.4011});
    expectRow(twoHeads.head[1].weights().row(0), {1.0 / 3, 1.0 / 3, 1.0 / 3});
    expectRow(twoHeads.output.row(0), {0.8022, 0.1978, 0, 0});
    const AttentionResult& causal = attention(c, "causal");
    expectRow(causal.head[0].weights().row(0), {1, 0, 0});
    expectRow(causal.head[0].weights().row(1), {0.3775, 0.6225, 0});
    expectRow(causal.head[0].weights().row(2), {0.3837, 0.2327, 0.3837});
    CHECK_EQ(causal.head[0].weight(0, 1), 0.0); // exactly
    const AttentionResult& positional = attention(c, "positional");
    expectRow(positional.X.row(0), {1, 1, 0, 1});
    expectRow(positional.X.row(2), {1.9093, -0.4161, 0.0200, 0.9998});
    expectRow(positional.head[0].weights().row(0), {0.3349, 0.4053, 0.2599});
    expectRow(positional.head[0].weights().row(2), {0.2013, 0.1547, 0.6440});
    // Reordering alone changes no token's result.
    const AttentionResult& reordered = attention(c, "reordered");
    expectRow(reordered.output.row(1), {0.7673, 0.2327, 0, 0});
    expectRow(reordered.output.row(0), {0.5481, 0.4519, 0, 0});
    // Gradients pass the check.
    for (const char* id : {"backward", "grad_check", "two_heads", "causal"}) {
        CHECK_MESSAGE(attention(c, id).gradcheck.maxRelError < 1e-6, std::string(id));
    }
}

TEST_CASE("transformersLessonFigures") {
    const Computed c = computeShipped("transformers.md");
    const AttentionResult& soup = attention(c, "soup");
    CHECK(soup.direct);
    CHECK_EQ(soup.scale, fuzzy(1.0));
    expectRow(soup.head[0].scores().row(0), {-2, 1, 4, 0, 2, 1}, 0);
    double total = 0.0;
    for (int k = 0; k < 6; ++k) {
        total += std::exp(soup.head[0].score(0, arma::uword(k)));
    }
    CHECK(std::abs(total - 68.56) < 0.005);
    expectRow(soup.head[0].weights().row(0), {0.00, 0.04, 0.80, 0.01, 0.11, 0.04}, 0.005);
    expectRow(soup.output.row(0), {0.85, 0.00}, 0.005);
}
