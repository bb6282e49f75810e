// The facts a sentence states, in the cell's JSON for bindings and claims (the mask,
// the padding, whether the scores are divided by √d_k, which projections are the identity,
// the token at a row), words compared in claims, and what a reader's what-if may do: the
// settings each control reaches, and bindings it breaks listed rather than refused.
#include "core/document/bindings.h"
#include "core/document/lesson.h"
#include "core/live/reader_what_ifs.h"

#include "test_support.h"

using namespace attnbook;

namespace {

// attention.md's colour example, with room for more keys before the fence's end.
std::string colourCell(const std::string& extra = "") {
    return "# Colour\n\n```attention colour\ntokens: [red, blue, red]\nvocab:\n"
           "  red:  [1, 0, 0, 0]\n  blue: [0, 1, 0, 0]\n" +
           extra + "```\n\n";
}

struct Computed {
    Lesson lesson;
    LessonResults results;
};

Computed compute(const std::string& text) {
    Computed c{parseLesson(text, "colour.md"), {}};
    AttentionEngine engine;
    c.results = computeLesson(c.lesson, engine);
    return c;
}

const Json& fact(const Computed& c, const std::string& key) {
    const ComputedCell* cell = c.results.cell("colour");
    REQUIRE(cell);
    const Json* value = cell->json.find(key);
    REQUIRE_MESSAGE(value, key);
    return *value;
}

// The projections the cell's JSON calls the identity, in its order.
std::string identities(const Computed& c) {
    std::string out;
    for (const auto& [name, value] : fact(c, "identity").object_()) {
        out += value.boolean() ? (out.empty() ? "" : " ") + name : "";
    }
    return out;
}

// The last paragraph with its bindings resolved, as prose shows it.
std::string shown(const std::string& prose) {
    const Computed c = compute(colourCell() + prose);
    const ProseBlock& block = c.lesson.document.segments.back().prose();
    return substituteBindings(block.text, scanProse(block.text, block.firstLine),
                              [&](const Binding& b) { return c.results.boundText(b); });
}

ClaimVerdict verdict(const std::string& claim, const std::string& extra = "") {
    const Computed c = compute(colourCell(extra) + "A sentence.{{? " + claim + "}}\n");
    const std::vector<LessonClaim> claims = lessonClaims(c.lesson, c.results);
    REQUIRE_EQ(claims.size(), size_t(1));
    return claims[0].verdict;
}

std::vector<std::string> problems(const std::string& prose) {
    const Computed c = compute(colourCell() + prose);
    std::vector<std::string> out;
    for (const Diagnostic& d : lessonProblems(c.lesson, c.results)) {
        out.push_back(formatDiagnostic("colour.md", d));
    }
    return out;
}

} // namespace

TEST_CASE("theCellJsonStatesItsSettings") {
    const Computed plain = compute(colourCell());
    CHECK_EQ(fact(plain, "mask").string(), std::string("none"));
    CHECK_EQ(fact(plain, "padding").dump(), std::string("[false, false, false]"));
    CHECK_EQ(fact(plain, "divides_by_sqrt_dk").boolean(), true);
    CHECK_EQ(identities(plain), std::string("W_Q W_K W_V W_O"));
    CHECK_EQ(fact(plain, "heads").number(), 1.0);
    CHECK_EQ(fact(plain, "n").number(), 3.0);

    const Computed masked =
        compute(colourCell("mask: causal\npadding: [false, true, false]\nscale: false\n"
                           "W_V: [[0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]\n"
                           "W_K: [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]\n"));
    CHECK_EQ(fact(masked, "mask").string(), std::string("causal"));
    CHECK_EQ(fact(masked, "padding").dump(), std::string("[false, true, false]"));
    CHECK_EQ(fact(masked, "divides_by_sqrt_dk").boolean(), false);
    // A W_K written out as the identity matrix is the identity; a permutation is not.
    CHECK_EQ(identities(masked), std::string("W_Q W_K W_O"));

    // A divisor of 2 at d_k = 4 divides by √d_k; one of 4 does not.
    CHECK_EQ(fact(compute(colourCell("scale: 2\n")), "divides_by_sqrt_dk").boolean(), true);
    CHECK_EQ(fact(compute(colourCell("scale: 4\n")), "divides_by_sqrt_dk").boolean(), false);
    // Two heads: d_k = 2, the scale 1/√2.
    const Computed two = compute(colourCell("heads: 2\n"));
    CHECK_EQ(fact(two, "divides_by_sqrt_dk").boolean(), true);
    CHECK_EQ(fact(two, "heads").number(), 2.0);
}

TEST_CASE("wordsInBindingsAndClaims") {
    // A token's label shows as the word, in prose and in an expression's claim.
    CHECK_EQ(shown("The second token is {{colour.tokens[1]}}; the mask is {{colour.mask}}.\n"),
             std::string("\nThe second token is blue; the mask is none.\n"));
    CHECK(verdict(R"(colour.tokens[1] == "blue")").holds);
    CHECK(!verdict(R"(colour.tokens[1] != "blue")").holds);
    CHECK(verdict("colour.tokens[0] == colour.tokens[2]").holds);
    CHECK(!verdict("colour.tokens[0] == colour.tokens[1]").holds);
    CHECK(verdict(R"(colour.tokens[1] == "blue" && colour.n == 3)").holds);
    CHECK(verdict(R"((colour.tokens[0] == "cat") || colour.mask == "none")").holds);
    CHECK(verdict(R"(colour.mask == "causal")", "mask: causal\n").holds);
    CHECK(!verdict(R"(colour.mask == "causal")").holds);
    // The sides of a false comparison of words say both words.
    CHECK_EQ(verdict(R"(colour.tokens[1] == "cat")").sides, std::string(R"("blue" vs "cat")"));
    // A word in quotes may hold what an expression would otherwise read: '.', ',', "==".
    CHECK(!verdict(R"(colour.tokens[1] == "a.b, c==d")").holds);
}

TEST_CASE("trueAndFalseInClaims") {
    CHECK(verdict("colour.identity.W_Q").holds);
    CHECK(!verdict("!colour.identity.W_Q").holds);
    CHECK(verdict("colour.divides_by_sqrt_dk && colour.heads == 1").holds);
    CHECK(!verdict("colour.divides_by_sqrt_dk", "scale: false\n").holds);
    CHECK_EQ(verdict("colour.divides_by_sqrt_dk", "scale: false\n").sides,
             std::string("colour.divides_by_sqrt_dk = false"));
    CHECK(verdict("colour.padding[1] && !colour.padding[0]", "padding: [false, true, false]\n")
              .holds);
}

// A word used as a number is an error at the binding's line and column, saying which word.
TEST_CASE("aWordUsedAsANumberIsAnError") {
    CHECK_EQ(problems("Three.{{? colour.tokens[1] == 3}}\n"),
             std::vector<std::string>{
                 "colour.md:10:7: error: claim {{? colour.tokens[1] == 3}}: in the expression "
                 "colour.tokens[1] == 3: the word colour.tokens[1] (\"blue\") is compared with a "
                 "number; a word can only be compared (== or !=) with another word, like "
                 "colour.tokens[1] == \"cat\""});
    CHECK_EQ(problems("Cat.{{? colour.n == \"cat\"}}\n"),
             std::vector<std::string>{
                 "colour.md:10:5: error: claim {{? colour.n == \"cat\"}}: in the expression "
                 "colour.n == \"cat\": the word \"cat\" is compared with a number; a word can "
                 "only be compared (== or !=) with another word, like colour.tokens[1] == "
                 "\"cat\""});
    CHECK_EQ(problems("Plus {{colour.tokens[1] + 1}}.\n"),
             std::vector<std::string>{
                 "colour.md:10:6: error: binding {{colour.tokens[1] + 1}}: in the expression "
                 "colour.tokens[1] + 1: the word colour.tokens[1] (\"blue\") is not a number; a "
                 "word can only be compared (== or !=) with another word, like colour.tokens[1] "
                 "== \"cat\""});
    // Ordered, or compared inside arithmetic: (a + b) == "x" compares a sum.
    CHECK_EQ(problems("Less.{{? colour.tokens[1] < \"cat\"}}\n").size(), size_t(1));
    CHECK_EQ(problems("Sum.{{? colour.n + colour.tokens[1] == \"cat\"}}\n").size(), size_t(1));
    // A quoted word is checked as the binding is read: no path can make "cat" + 1 a number.
    std::string error;
    CHECK(!parseBinding(R"(colour.n + "cat")", error));
    CHECK_EQ(error, std::string("in the expression colour.n + \"cat\": the word \"cat\" is not a "
                                "number; a word can only be compared (== or !=) with another "
                                "word, like colour.tokens[1] == \"cat\""));
    CHECK(!parseBinding(R"(? colour.tokens[1] == "cat)", error));
    CHECK_EQ(error, std::string("in the expression colour.tokens[1] == \"cat: a word in quotes "
                                "needs its closing quote, like \"cat\""));
    CHECK(parseBinding(R"(? colour.tokens[1] == "cat")", error));
}

// A reader's what-if that takes away a row: the bindings into it are listed with why, and are
// no error of the document; as errors they are what check and an author's edit report.
TEST_CASE("brokenBindingsAreListedAfterAReadersWhatIf") {
    const std::string prose =
        "Blue gets {{colour.head[0].weights[0][1]:4}}.{{? colour.head[0].weights[0][1] > 0}}\n"
        "\n```quiz q\nquestion: How much?\nanswer: \"{{colour.head[0].weights[0][1]}}\"\n```\n";
    const Computed c = compute(
        "# Colour\n\n```attention colour\ntokens: [red]\nvocab:\n  red: [1, 0]\n```\n\n" + prose);
    const std::vector<LessonClaim> broken = lessonBrokenBindings(c.lesson, c.results);
    REQUIRE_EQ(broken.size(), size_t(2));
    CHECK_EQ(broken[0].line, 9);
    CHECK_EQ(broken[0].column, 11);
    CHECK_EQ(broken[0].expression, std::string("colour.head[0].weights[0][1]"));
    CHECK_EQ(broken[0].verdict.error,
             std::string("colour.head[0].weights[0] has 1 entries, so [1] is out of range"));
    CHECK(!broken[0].verdict.holds);
    CHECK_EQ(broken[1].line, 13); // the quiz's answer
    CHECK_EQ(broken[1].cellId, std::string("q"));

    const auto errorCount = [&](FalseClaims mode) {
        size_t n = 0;
        for (const Diagnostic& d : lessonProblems(c.lesson, c.results, mode)) {
            n += d.severity == Severity::Error;
        }
        return n;
    };
    // The binding, the claim and the answer read past the end of one cell: one cause, one
    // error, at the first of them, counting the others.
    CHECK_EQ(errorCount(FalseClaims::AreErrors), size_t(1));
    CHECK_EQ(lessonProblems(c.lesson, c.results).front().message,
             "this and 2 more bindings (to line 13) read past the end of colour's lists: binding "
             "{{colour.head[0].weights[0][1]}}: " +
                 std::string("colour.head[0].weights[0] has 1 entries, so [1] is out of range"));
    CHECK_EQ(errorCount(FalseClaims::AreListed), size_t(1)); // the binding and the answer
    CHECK_EQ(errorCount(FalseClaims::AreListedWithBrokenBindings), size_t(0));

    // compute's "claims": the claims and the broken bindings by line, each with why.
    const Json json = lessonJson(c.lesson, c.results);
    std::vector<std::string> listed;
    for (const Json& claim : json.find("claims")->array()) {
        listed.push_back(formatBoundValue(*claim.find("line"), 0) + " " +
                         claim.find("expr")->string() + " " + claim.find("holds")->dump() + ": " +
                         claim.find("unresolved")->string());
    }
    const std::string why = "colour.head[0].weights[0] has 1 entries, so [1] is out of range";
    CHECK_EQ(listed, std::vector<std::string>{"9 colour.head[0].weights[0][1] false: " + why,
                                              "9 colour.head[0].weights[0][1] > 0 false: " + why,
                                              "13 colour.head[0].weights[0][1] false: " + why});
}

TEST_CASE("whatAReaderMayChange") {
    const Lesson lesson = parseLesson(colourCell("controls: [tokens, mask]\n") +
                                          "```quiz q\nquestion: Why?\nanswer: because\n```\n",
                                      "colour.md");
    const LessonCell& cell = *lesson.cell("colour");
    for (const char* key : {"tokens", "mask", "padding", "focus", "vocab"}) {
        CHECK_MESSAGE(readerMayChange(cell, key), key);
    }
    for (const char* key : {"heads", "scale", "W_Q", "b_O", "X", "views"}) {
        CHECK_MESSAGE(!readerMayChange(cell, key), key);
    }
    CHECK(!readerMayChange(*lesson.cell("q"), "question"));

    std::vector<std::string> seen;
    for (const ReaderWhatIf& w : readerWhatIfs(cell)) {
        std::string text = w.label + ":";
        for (size_t i = 0; i < w.keys.size(); ++i) {
            text += " " + w.setText(i);
        }
        seen.push_back(text);
    }
    // The mask it already has changes nothing: left out.
    CHECK_EQ(seen,
             std::vector<std::string>{
                 "remove token 1 (red): colour.tokens=[blue, red]",
                 "remove token 2 (blue): colour.tokens=[red, red]",
                 "remove token 3 (red): colour.tokens=[red, blue]",
                 "replace token 1 (red) with blue: colour.tokens=[blue, blue, red]",
                 "replace token 2 (blue) with red: colour.tokens=[red, red, red]",
                 "replace token 3 (red) with blue: colour.tokens=[red, blue, blue]",
                 // The focus follows the token it was on, as in the window.
                 "swap token 1 (red) and token 2 (blue): colour.tokens=[blue, red, red] "
                 "colour.focus=1",
                 "swap token 2 (blue) and token 3 (red): colour.tokens=[red, red, blue]",
                 "swap token 1 (red) and token 3 (red): colour.focus=2",
                 "add red: colour.tokens=[red, blue, red, red]", "causal mask: colour.mask=causal",
                 "pad key 1: colour.padding=[true, false, false]",
                 "pad key 3: colour.padding=[false, false, true]"});
    // No controls, nothing to try.
    const Lesson fixed = parseLesson(colourCell("controls: []\n"), "colour.md");
    CHECK(readerWhatIfs(*fixed.cell("colour")).empty());
}
