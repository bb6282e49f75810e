// Expressions and claims in prose (docs/lesson-format.md, "Expressions and
// claims"): parsing, evaluation with muParser, claims that `check` enforces
// and `compute` lists, and the errors of each.
#include "core/document/bindings.h"
#include "core/document/cell_rename.h"
#include "core/document/lesson.h"

#include "test_support.h"

#include <cmath>

using namespace attnbook;
using attnbook::test::fuzzy;

namespace {

// The colour example of attention.md: A[0][1] = 0.2327, Y[0][0] = 0.7673,
// Y[1][0] = 0.5481, scores[0][0] = 1/√4 = 0.5, scores[0][1] = 0.
const char* const kColour = R"(# Colour

```attention colour
tokens: [red, blue, red]
vocab:
  red:  [1, 0, 0, 0]
  blue: [0, 1, 0, 0]
```

)";

struct Computed {
    Lesson lesson;
    LessonResults results;
};

Computed compute(const std::string& prose) {
    Computed c{parseLesson(std::string(kColour) + prose, "colour.md"), {}};
    AttentionEngine engine;
    c.results = computeLesson(c.lesson, engine);
    return c;
}

std::string shown(const std::string& prose) {
    const Computed c = compute(prose);
    const ProseBlock* last = nullptr;
    for (const Segment& segment : c.lesson.document.segments) {
        if (!segment.isCell() &&
            segment.prose().text.find_first_not_of("\n") != std::string::npos) {
            last = &segment.prose();
        }
    }
    const ProseBlock& block = *last;
    std::string text = substituteBindings(block.text, scanProse(block.text, block.firstLine),
                                          [&](const Binding& b) { return c.results.boundText(b); });
    return text.substr(text.find_first_not_of('\n'));
}

std::vector<Diagnostic> errors(const std::string& prose) {
    const Computed c = compute(prose);
    std::vector<Diagnostic> out;
    for (const Diagnostic& d : lessonProblems(c.lesson, c.results)) {
        if (d.severity == Severity::Error) {
            out.push_back(d);
        }
    }
    return out;
}

} // namespace

TEST_CASE("parsesPathsDigitsAndClaims") {
    std::string error;
    const auto bare = parseBinding(" colour.head[0].weights[0][1] :2 ", error);
    REQUIRE((bare && bare->barePath()));
    CHECK_EQ(bare->digits, 2);
    CHECK_EQ(bare->paths[0].text(), std::string("colour.head[0].weights[0][1]"));

    const auto expr = parseBinding("exp(colour.head[0].scores[0][1]) + colour.d_k-1 :3", error);
    REQUIRE_MESSAGE(expr, error);
    CHECK(!expr->barePath());
    REQUIRE_EQ(expr->paths.size(), size_t(2));
    CHECK_EQ(expr->paths[1].text(), std::string("colour.d_k")); // '-1' is arithmetic
    CHECK_EQ(expr->digits, 3);

    const auto claim = parseBinding("? near(colour.output[0][0], colour.output[2][0])", error);
    REQUIRE((claim && claim->claim));
    CHECK_EQ(claim->expression, std::string("near(colour.output[0][0], colour.output[2][0])"));

    // A conditional in parentheses keeps its ':'; the final :DIGITS is split off.
    const auto conditional = parseBinding("(colour.n > 2 ? 1 : 2):0", error);
    REQUIRE_MESSAGE(conditional, error);
    CHECK_EQ(conditional->digits, 0);
    CHECK_EQ(conditional->expression, std::string("(colour.n > 2 ? 1 : 2)"));
}

TEST_CASE("refusesMalformed") {
    std::string error;
    CHECK(!parseBinding("colour", error)); // reads no cell
    CHECK(!parseBinding("colour.output[x]", error));
    CHECK(!parseBinding("colour.output:99", error));
    CHECK(!parseBinding("exp(colour.n", error)); // muParser: missing parenthesis
    CHECK(error.find("exp(colour.n") != std::string::npos);
    CHECK(!parseBinding("colour.n ? 1 : 2", error)); // unparenthesised conditional
    CHECK_MESSAGE(error.find("parentheses") != std::string::npos, error);
    CHECK(!parseBinding("?", error));
    CHECK(!parseBinding("frobnicate(colour.n)", error));
}

TEST_CASE("evaluatesWithTheSpecsNumbers") {
    // 1/√d_k = 0.5; e^0 = 1; 100·A[0][1] = 23.27 (attention.md worked numbers).
    CHECK_EQ(shown("{{1/sqrt(colour.d_k)}} {{exp(colour.head[0].scores[0][1]):1}} "
                   "{{100*colour.head[0].weights[0][1] :2}}\n"),
             std::string("0.5000 1.0 23.27\n"));
    // e^0.5 / (2·e^0.5 + 1) is A[0][0] (two reds with score 0.5, blue with 0).
    const Computed c = compute("x\n");
    std::string error;
    const auto share =
        parseBinding("exp(colour.head[0].scores[0][0]) / (2*exp(colour.head[0].scores[0][0]) + "
                     "exp(colour.head[0].scores[0][1])):15",
                     error);
    REQUIRE(share);
    const BindingValue value = c.results.value(*share);
    REQUIRE(value.value);
    const double expected = std::exp(0.5) / (2 * std::exp(0.5) + 1);
    CHECK(std::abs(value.value->number() - expected) < 1e-15);
    CHECK(std::abs(value.value->number() - 0.3837) < 5e-5);
    // Constants, functions and logic of the spec.
    CHECK_EQ(shown("{{pi + 0*colour.n :5}} {{e + 0*colour.n :5}} {{log(e) + 0*colour.n :1}} "
                   "{{sum(colour.n, colour.d, 1):0}} {{max(colour.n, colour.d):0}} "
                   "{{abs(-colour.n):0}} {{(colour.n > 2 && !(colour.d < 4)):0}}\n"),
             std::string("3.14159 2.71828 1.0 8 4 3 1\n"));
    // A vector path alone shows as a vector; a claim shows nothing.
    CHECK_EQ(shown("{{colour.output[0]:1}}{{? colour.n == 3}}.\n"),
             std::string("[0.8, 0.2, 0.0, 0.0].\n"));
}

TEST_CASE("arithmeticErrors") {
    const std::vector<Diagnostic> vector = errors("{{2*colour.output[0]}}\n");
    REQUIRE_EQ(vector.size(), size_t(1));
    CHECK_MESSAGE(vector[0].message.find("vector or matrix") != std::string::npos,
                  vector[0].message);
    CHECK_EQ(vector[0].line, 10);
    CHECK_EQ(vector[0].column, 1);
    const std::vector<Diagnostic> infinite = errors("A {{log(colour.head[0].scores[0][1])}}\n");
    REQUIRE_EQ(infinite.size(), size_t(1)); // log(0)
    CHECK(infinite[0].message.find("not a finite number") != std::string::npos);
    CHECK_EQ(infinite[0].column, 3);
    const std::vector<Diagnostic> unknown = errors("{{exp(nothing.n)}}\n");
    REQUIRE_EQ(unknown.size(), size_t(1));
    CHECK(unknown[0].message.find("no cell 'nothing'") != std::string::npos);
}

TEST_CASE("claimsAreCheckedWithBothSides") {
    CHECK(errors("Both reds match.{{? near(colour.output[0][0], colour.output[2][0])}}\n").empty());
    const std::vector<Diagnostic> false_ =
        errors("Line one.\n\nRed and blue match. {{? near(colour.output[0][0], "
               "colour.output[1][0])}}\n");
    REQUIRE_EQ(false_.size(), size_t(1));
    CHECK_EQ(false_[0].line, 12);
    CHECK_EQ(false_[0].column, 21);
    CHECK_EQ(false_[0].message,
             std::string("claim is false: near(colour.output[0][0], colour.output[1][0]) "
                         "(0.7673 vs 0.5481)"));
    const std::vector<Diagnostic> comparison = errors("{{? colour.head[0].weights[0][1] > 0.5}}\n");
    REQUIRE_EQ(comparison.size(), size_t(1));
    CHECK_MESSAGE(comparison[0].message.find("(0.2327 vs 0.5000)") != std::string::npos,
                  comparison[0].message);
}

// near(a, b): |a − b| ≤ 1e-9·max(1, |a|, |b|).
TEST_CASE("nearIsRelativeAboveOne") {
    const Computed c = compute("x\n");
    std::string error;
    const auto holds = [&](const std::string& text) {
        const auto claim = parseBinding(text, error);
        return claim && evaluateClaim(*claim, c.results.lookup()).holds;
    };
    CHECK(holds("? near(colour.n, 3 + 0.9e-9)"));
    CHECK(!holds("? near(colour.n, 3 + 4e-9)"));
    CHECK(holds("? near(colour.n * 1e12, 3e12 + 2000)"));
    CHECK(!holds("? near(colour.n * 1e12, 3e12 + 4000)"));
    CHECK(holds("? near(colour.head[0].scores[0][1], 1e-10)"));
    // −∞ (a blocked score) is near only −∞, never a finite number.
    CHECK(!holds("? near(-1/0 + colour.n, 5)"));
    CHECK(!holds("? near(5, -1/0 + colour.n)"));
}

TEST_CASE("computeListsClaimsAfterWhatIfs") {
    Computed c = compute("Same. {{? near(colour.output[0][0], colour.output[2][0])}}\n");
    const Json json = lessonJson(c.lesson, c.results);
    const Json* claims = json.find("claims");
    REQUIRE((claims && claims->isArray()));
    REQUIRE_EQ(claims->array().size(), size_t(1));
    CHECK_EQ(claims->array()[0].find("line")->number(), fuzzy(10.0));
    CHECK_EQ(claims->array()[0].find("holds")->boolean(), true);
    CHECK_EQ(claims->array()[0].find("expr")->string(),
             std::string("near(colour.output[0][0], colour.output[2][0])"));
    CHECK_EQ(json.object_()[1].first, std::string("claims")); // after the title (cli.md)

    // A what-if: a causal mask makes the two reds read different tokens.
    Lesson causal = parseLesson(
        std::string(kColour).insert(std::string(kColour).find("```\n\n"), "mask: causal\n") +
            "Same. {{? near(colour.output[0][0], colour.output[2][0])}}\n",
        "colour.md");
    AttentionEngine engine;
    const LessonResults results = computeLesson(causal, engine);
    const std::vector<LessonClaim> list = lessonClaims(causal, results);
    REQUIRE_EQ(list.size(), size_t(1));
    CHECK(!list[0].verdict.holds);
}

// Renaming a cell renames it in every path of an expression and a claim.
TEST_CASE("renameReachesEveryPath") {
    Lesson lesson =
        parseLesson(std::string(kColour) + "{{exp(colour.d_k) + colour.n :1}} {{? colour.n > 1}}\n",
                    "colour.md");
    CHECK(!renameCell(lesson.document, "colour", "hue"));
    const std::string text = lesson.document.serialize();
    CHECK_MESSAGE(text.find("{{exp(hue.d_k) + hue.n :1}} {{? hue.n > 1}}") != std::string::npos,
                  text);
}

TEST_CASE("claimsInQuizText") {
    const Computed c = compute("```quiz q\nquestion: Which is larger? {{? colour.n > 5}}\n"
                               "answer: 0\nchoices: [a, b]\n```\n");
    const std::vector<LessonClaim> claims = lessonClaims(c.lesson, c.results);
    REQUIRE_EQ(claims.size(), size_t(1));
    CHECK_EQ(claims[0].cellId, std::string("q"));
    CHECK(!claims[0].verdict.holds);
    CHECK(hasErrors(lessonProblems(c.lesson, c.results)));
}

// MuParser's '=' assigned to a path ({{colour.d_k = 5}} showed 5), a top-level ','
// showed the last of two expressions, and a claim held with a NaN inside (NaN != 1).
TEST_CASE("noAssignmentNoCommaNoNaN") {
    std::string error;
    CHECK(!parseBinding("colour.d_k = 5", error));
    CHECK(!parseBinding("colour.d_k += 5", error));
    CHECK(!parseBinding("colour.d_k, 5", error));
    CHECK_MESSAGE(error.find("one expression per binding") != std::string::npos, error);
    CHECK(parseBinding("max(colour.d_k, 5)", error)); // a function's arguments are fine
    CHECK(parseBinding("colour.d_k == 4", error));
    CHECK(parseBinding("colour.d_k <= 4 && !(colour.n != 3) || colour.d_k ^ 2 >= 1", error));
    // A root of a negative number, 0/0, ∞ − ∞ (a blocked score minus itself): no number, so
    // neither a value nor a claim that holds.
    CHECK_EQ(errors("{{sqrt(colour.d_k - 10)}}\n").size(), size_t(1));
    CHECK_EQ(errors("{{? sqrt(colour.d_k - 10) != 1}}\n").size(), size_t(1));
    CHECK_EQ(errors("{{? (colour.d_k - 4) / (colour.d_k - 4) != 1}}\n").size(), size_t(1));
    // Arithmetic and precedence as before: 2 + 3·4^2 / 2 = 26, 8 − 4/2^2 = 7, 2^3^2 = 512.
    CHECK_EQ(
        shown("{{colour.d_k/2 + 3*4^2/2:0}} {{8 - colour.d_k/2^2:0}} {{colour.d_k/4*2^3^2:0}}\n"),
        std::string("26 7 512\n"));
}

// An expression is compiled once and kept (CompiledExpressions): evaluated again with other
// values it reads the new ones, an evaluation that fails leaves nothing behind for the next,
// and a path that names a word after a number compares as a word.
TEST_CASE("aKeptExpressionReadsEachEvaluationsOwnValues") {
    std::string error;
    const std::optional<Binding> binding = parseBinding("sqrt(a.x - 1) * 2", error);
    REQUIRE_MESSAGE(binding, error);
    const auto evaluate = [&](Json value) {
        const Json kept = std::move(value);
        return evaluateBinding(*binding, [&](const BindingPath&, std::string&) { return &kept; });
    };
    for (int round = 0; round < 2; ++round) {
        CHECK_EQ(evaluate(Json(5.0)).value->number(), 4.0);  // √4 · 2
        CHECK_EQ(evaluate(Json(10.0)).value->number(), 6.0); // √9 · 2
        const BindingValue negative = evaluate(Json(0.0));   // √−1: no number
        CHECK(!negative.value);
        CHECK(negative.error.find("sqrt(a.x - 1) * 2") != std::string::npos);
        CHECK_EQ(evaluate(Json(2.0)).value->number(), 2.0); // √1 · 2, after the failure
    }
    const std::optional<Binding> words = parseBinding(R"(a.x == "cat")", error);
    REQUIRE_MESSAGE(words, error);
    const Json cat("cat");
    const Json dog("dog");
    CHECK_EQ(evaluateBinding(*words, [&](const BindingPath&, std::string&) { return &cat; })
                 .value->number(),
             1.0);
    CHECK_EQ(evaluateBinding(*words, [&](const BindingPath&, std::string&) { return &dog; })
                 .value->number(),
             0.0);
}
