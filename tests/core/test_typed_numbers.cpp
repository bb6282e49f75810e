// The lint of hand-typed numbers and `check --fix` (docs/lesson-format.md, "Hand-typed
// numbers"): what is found, where, which binding is named, and the exact bytes a fix writes.
#include "core/document/lesson.h"
#include "core/document/typed_numbers.h"

#include "test_support.h"

using namespace attnbook;

namespace {

// red, blue, red with one-hot vectors: the first red row's weights are
// [0.3837, 0.2327, 0.3837] and the scale is 0.5 (d = 4).
const std::string kCell = "# Typed\n\n```attention colour\ntokens: [red, blue, red]\nvocab:\n"
                          "  red: [1, 0, 0, 0]\n  blue: [0, 1, 0, 0]\n```\n\n";

struct Found {
    Lesson lesson;
    LessonResults results;
    std::vector<TypedNumber> sites;
};

Found find(const std::string& bytes) {
    Found out;
    out.lesson = parseLesson(bytes, "typed.md");
    AttentionEngine engine;
    out.results = computeLesson(out.lesson, engine);
    out.sites = findTypedNumbers(out.lesson, out.results);
    return out;
}

std::string fixed(const std::string& bytes) {
    const Found found = find(bytes);
    return fixTypedNumbers(bytes, found.sites).bytes;
}

std::string describe(const std::vector<TypedNumber>& sites) {
    std::string out;
    for (const TypedNumber& s : sites) {
        out += (out.empty() ? "" : "; ") + std::to_string(s.line) + ":" + std::to_string(s.column) +
               " " + s.typed + " -> " + s.binding;
    }
    return out;
}

// The kinds of site docs/lesson-format.md ("Hand-typed numbers") lists, each in the place an author
// typed it.
const std::string kIssueSites =
    kCell +
    "| token | vector |\n|---|---|\n| red | [1, 0, 0, 0] |\n| blue | [0, 1, 0, 0] |\n\n"
    "The first red row reads [0.38, 0.23, 0.38]; blue gets 0.2327 of it, and each score is\n"
    "multiplied by 0.5.\n\n"
    "```quiz blue_share\n"
    "question: >-\n"
    "  What share does the first red token give blue? Its row of weights\n"
    "  is [0.3837, 0.2327, 0.3837].\n"
    "choices:\n"
    "  - \"0.2327\"\n"
    "  - \"0.5\"\n"
    "answer: 0\n"
    "explain: e⁰/(2e^0.5 + e⁰) = 0.2327, since the scale is 0.5.\n"
    "```\n";

} // namespace

TEST_CASE("findsDecimalsInProseWithTheBindingToWrite") {
    const Found found = find(kCell + "By hand: 0.2327.\n");
    REQUIRE_EQ(found.sites.size(), size_t(1));
    const TypedNumber& site = found.sites[0];
    CHECK_EQ(site.line, 10);
    CHECK_EQ(site.column, 10);
    CHECK_EQ(site.typed, std::string("0.2327"));
    CHECK_EQ(site.binding, std::string("colour.head[0].weights[0][1]:4"));
    const Diagnostic d = site.diagnostic();
    CHECK_EQ(int(d.severity), int(Severity::Warning));
    CHECK_EQ(d.message, std::string("0.2327 is typed by hand but equals "
                                    "colour.head[0].weights[0][1]: write "
                                    "{{colour.head[0].weights[0][1]:4}} so it stays true"));
}

TEST_CASE("oneDecimalPlaceAndTheShownPrecision") {
    // 0.38 is 0.3837 at two places and 0.233 is 0.2327 at three; 0.232 is nothing. With one
    // place only an exact value counts: 0.5 is the scale, 0.4 (0.3837 rounded) is too
    // coarse to be more than a coincidence.
    const Found found = find(kCell + "About 0.4, 0.5 or 0.38; 0.233 but not 0.232.\n");
    CHECK_EQ(describe(found.sites), std::string("10:12 0.5 -> colour.scale:1; "
                                                "10:19 0.38 -> colour.head[0].weights[0][0]:2; "
                                                "10:25 0.233 -> colour.head[0].weights[0][1]:3"));
}

TEST_CASE("findsVectorsPreferringTheInputs") {
    // [0, 1, 0, 0] is blue's token vector, its query, key and value: X0 is named.
    const Found found = find(kCell + "Blue is [0, 1, 0, 0]; red's row is [0.38, 0.23, 0.38].\n");
    CHECK_EQ(describe(found.sites),
             std::string("10:9 [0, 1, 0, 0] -> colour.X0[1]:0; "
                         "10:36 [0.38, 0.23, 0.38] -> colour.head[0].weights[0]:2"));
}

TEST_CASE("findsNumbersInTables") {
    const Found found =
        find(kCell + "| token | share |\n|---|---|\n| red | 0.3837 |\n| blue | [0, 1, 0, 0] |\n");
    CHECK_EQ(describe(found.sites), std::string("12:9 0.3837 -> colour.head[0].weights[0][0]:4; "
                                                "13:10 [0, 1, 0, 0] -> colour.X0[1]:0"));
}

TEST_CASE("prefersTheCellTheParagraphIsAbout") {
    const std::string two = kCell +
                            "```attention again\ntokens: [blue, red, red]\nvocab:\n"
                            "  red: [1, 0, 0, 0]\n  blue: [0, 1, 0, 0]\n```\n\n"
                            "In {{again.tokens}}, blue keeps 0.2327.\n\nHere blue keeps 0.2327.\n";
    const Found found = find(two);
    CHECK_EQ(describe(found.sites), std::string("17:33 0.2327 -> again.head[0].weights[1][0]:4; "
                                                "19:17 0.2327 -> again.head[0].weights[1][0]:4"));
}

TEST_CASE("leavesOrdinaryNumbersAlone") {
    // Years, list numbers, whole numbers, versions, percentages, intervals, code spans,
    // code blocks and bindings are not a cell's value typed by hand.
    const Found found = find(
        kCell + "1. In 2024 the 3rd try, 1.0 and 2.00 are whole; version 0.2327.1 and\n"
                "0.2327% and v0.5 and 1e-0.5 are not numbers of a cell; shares lie in [0, 1].\n"
                "`0.2327` and {{colour.head[0].weights[0][1]}} and "
                "[0, 1, 0, 0](https://x.org/0.2327) stay.\n\n"
                "```python\nprint(0.2327, [0, 1, 0, 0])\n```\n");
    CHECK_EQ(describe(found.sites), std::string());
}

TEST_CASE("quizTextIsCheckedWhereTheFileHasIt") {
    const Found found = find(kIssueSites);
    CHECK_EQ(describe(found.sites),
             std::string("12:9 [1, 0, 0, 0] -> colour.X0[0]:0; "
                         "13:10 [0, 1, 0, 0] -> colour.X0[1]:0; "
                         "15:25 [0.38, 0.23, 0.38] -> colour.head[0].weights[0]:2; "
                         "15:55 0.2327 -> colour.head[0].weights[0][1]:4; "
                         "16:15 0.5 -> colour.scale:1; "
                         "21:6 [0.3837, 0.2327, 0.3837] -> colour.head[0].weights[0]:4; "
                         "23:6 0.2327 -> colour.head[0].weights[0][1]:4; "
                         "24:6 0.5 -> colour.scale:1; "
                         "26:29 0.2327 -> colour.head[0].weights[0][1]:4; "
                         "26:56 0.5 -> colour.scale:1"));
    for (const TypedNumber& site : found.sites) {
        CHECK(site.located);
        CHECK(!site.inVaryingQuiz); // colour does not vary
    }
}

TEST_CASE("isAnErrorInAQuizWhoseCellVaries") {
    std::string varying = kIssueSites;
    varying.replace(varying.find("```\n\n"), 5,
                    "worksheet:\n  vary:\n    vocab: {min: -2, max: 2}\n```\n\n");
    varying.replace(varying.find("explain:"), 8, "cell: colour\nexplain:");
    const Found found = find(varying);
    std::vector<Diagnostic> problems = lessonProblems(found.lesson, found.results);
    int errors = 0;
    for (const Diagnostic& d : problems) {
        if (d.message.find("typed by hand") != std::string::npos) {
            const bool inQuiz = d.line > 22;
            CHECK_EQ(int(d.severity), int(inQuiz ? Severity::Error : Severity::Warning));
            errors += inQuiz;
            if (inQuiz) {
                CHECK_MESSAGE(d.message.find("false on every other variant") != std::string::npos,
                              d.message);
                CHECK_EQ(d.cellId, std::string("blue_share"));
            }
        }
    }
    CHECK_EQ(errors, 5);
}

TEST_CASE("fixWritesBindingsAndNoOtherByte") {
    const std::string expected =
        kCell +
        "| token | vector |\n|---|---|\n| red | {{colour.X0[0]:0}} |\n"
        "| blue | {{colour.X0[1]:0}} |\n\n"
        "The first red row reads {{colour.head[0].weights[0]:2}}; blue gets "
        "{{colour.head[0].weights[0][1]:4}} of it, and each score is\n"
        "multiplied by {{colour.scale:1}}.\n\n"
        "```quiz blue_share\n"
        "question: >-\n"
        "  What share does the first red token give blue? Its row of weights\n"
        "  is {{colour.head[0].weights[0]:4}}.\n"
        "choices:\n"
        "  - \"{{colour.head[0].weights[0][1]:4}}\"\n"
        "  - \"{{colour.scale:1}}\"\n"
        "answer: 0\n"
        "explain: e⁰/(2e^0.5 + e⁰) = {{colour.head[0].weights[0][1]:4}}, since the scale is "
        "{{colour.scale:1}}.\n"
        "```\n";
    const std::string once = fixed(kIssueSites);
    CHECK_EQ(once, expected);
    CHECK_EQ(fixed(once), once); // nothing left to fix
    const Found after = find(once);
    for (const Diagnostic& d : lessonProblems(after.lesson, after.results)) {
        FAIL(d.message); // clean, and every binding shows what was typed
    }
}

TEST_CASE("fixKeepsCrlfLineEnds") {
    std::string crlf;
    for (const char c : kIssueSites) {
        crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    }
    std::string expected;
    for (const char c : fixed(kIssueSites)) {
        expected += c == '\n' ? std::string("\r\n") : std::string(1, c);
    }
    CHECK_EQ(fixed(crlf), expected);
    const std::string bom = "\xEF\xBB\xBF" + crlf;
    CHECK_EQ(fixed(bom), "\xEF\xBB\xBF" + expected);
}

TEST_CASE("aDocumentWithoutSitesIsUnchanged") {
    const std::string clean = kCell + "Blue gets {{colour.head[0].weights[0][1]}}.\r\n";
    const Found found = find(clean);
    CHECK(found.sites.empty());
    CHECK_EQ(fixed(clean), clean);
}

TEST_CASE("refusesAQuizSiteThatWouldChangeTheYaml") {
    // A plain scalar cannot start with '{': the site stays, with the reason.
    const std::string doc = kCell + "```quiz q\nquestion: 0.2327 is blue's share?\n"
                                    "answer: 1\nexplain: 'Blue''s share is 0.2327.'\n```\n";
    const Found found = find(doc);
    CHECK_EQ(found.sites.size(), size_t(2));
    const TypedNumberFix fix = fixTypedNumbers(doc, found.sites);
    CHECK_EQ(fix.fixed.size(), size_t(1)); // inside single quotes it is fine
    REQUIRE_EQ(fix.refused.size(), size_t(1));
    CHECK_EQ(fix.refused[0].first.line, 11);
    CHECK_EQ(fix.refused[0].first.column, 11);
    CHECK(fix.refused[0].second.find("would not read the same") != std::string::npos);
    std::string expected = doc;
    expected.replace(expected.rfind("0.2327"), 6, "{{colour.head[0].weights[0][1]:4}}");
    CHECK_EQ(fix.bytes, expected);
}

TEST_CASE("refusesASiteTheFileDoesNotHold") {
    const std::string doc = kCell + "By hand: 0.2327.\n";
    std::vector<TypedNumber> sites = find(doc).sites;
    sites[0].column += 1;
    const TypedNumberFix fix = fixTypedNumbers(doc, sites);
    CHECK(fix.fixed.empty());
    CHECK_EQ(fix.bytes, doc);
    CHECK_EQ(fix.refused.size(), size_t(1));
}
