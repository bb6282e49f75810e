// The document model: parse, validate with file positions, bindings, and
// writing back byte for byte (docs/lesson-format.md, reliability.md §1–9).
#include "core/document/bindings.h"
#include "core/document/cell_editor.h"
#include "core/document/lesson.h"

#include "test_support.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

using namespace attnbook;

namespace {

std::string readAll(const std::string& path) {
    return test::readFile(path).value_or(std::string());
}

// Every problem of a lesson: reading, computing and checking.
std::vector<Diagnostic> everyProblem(const Lesson& lesson) {
    AttentionEngine engine;
    const LessonResults results = computeLesson(lesson, engine);
    std::vector<Diagnostic> all = lesson.diagnostics;
    all.insert(all.end(), results.diagnostics.begin(), results.diagnostics.end());
    const std::vector<Diagnostic> lint = checkLesson(lesson, results);
    all.insert(all.end(), lint.begin(), lint.end());
    return all;
}

std::string describe(const std::vector<Diagnostic>& all) {
    std::string out;
    for (const Diagnostic& d : all) {
        out += formatDiagnostic("f", d) + "\n";
    }
    return out;
}

const char* kColour = "---\ntitle: Colours\n---\n\n# Colours\n\n"
                      "```attention colour\n"
                      "tokens: [red, blue, red]\n"
                      "vocab:\n"
                      "  red:  [1, 0, 0, 0]\n"
                      "  blue: [0, 1, 0, 0]\n"
                      "heads: 1   # try 2\n"
                      "mask: none\n"
                      "```\n\n"
                      "Red gives {{colour.head[0].weights[0][1]:4}} to blue, "
                      "`{{colour.n}}` stays code.\n";

struct Expected {
    const char* fixture;
    Severity severity;
    int line;
    int column;
    const char* message;
};

const Expected kErrorFixtures[] = {
    {"alias_cycle", Severity::Error, 8, 4, "anchors (&name) are not allowed in a lesson"},
    {"anchor", Severity::Error, 4, 9, "anchors (&name) are not allowed in a lesson"},
    {"binding_unknown_cell", Severity::Error, 10, 10,
     "binding {{nope.output[0][0]}}: no cell 'nope' to bind to"},
    {"binding_unknown_path", Severity::Error, 10, 10,
     "binding {{c.head[3].weights[0][0]}}: c.head has 1 entries, so [3] is o"},
    // yaml-cpp said "end of sequence flow not found" at the next key (5:6): the '[' is at 4:9.
    {"broken_yaml", Severity::Error, 4, 9,
     "a list opened with '[' on line 4 is not closed with ']'"},
    {"chart_formula", Severity::Error, 7, 22,
     "in the formula n^^2: Unexpected operator \"^\" found at position 2"},
    {"chart_not_finite", Severity::Error, 7, 19, "the formula 1/n is not finite at n = 0"},
    {"decimal_comma", Severity::Error, 7, 7,
     "the vector of 'red' [0]: expected a number, found '1,5' (write decimal"},
    {"deep_nesting", Severity::Error, 8, 67, "nesting too deep (more than 64 levels)"},
    {"direct_with_projection", Severity::Error, 7, 1,
     "'W_Q' has no meaning in direct mode (queries, keys, values are given a"},
    {"duplicate_id", Severity::Error, 10, 1, "duplicate cell id 'c' (also at line 3)"},
    {"duplicate_key", Severity::Error, 9, 1, "duplicate key 'heads' (also at line 8)"},
    {"empty_matrix", Severity::Error, 5, 4,
     "X must be a matrix: a non-empty list of rows, like [[1, 0], [0, 1]], n"},
    {"empty_tokens", Severity::Error, 4, 9, "a cell needs at least one token: tokens is empty"},
    {"focus_out_of_range", Severity::Error, 8, 8, "focus must be a row from 0 to 1, not 5"},
    // docs/lesson-format.md "Version": a newer lesson is refused, not read wrongly.
    {"format_newer", Severity::Error, 3, 18,
     "this lesson is written for version 2 of the lesson format, and this a"},
    {"format_not_whole", Severity::Error, 3, 18,
     "attnbook-format is the version of the lesson format, a whole number f"},
    {"front_matter_unclosed", Severity::Error, 1, 1,
     "the front matter opened here is never closed with '---'"},
    {"heads_do_not_divide", Severity::Error, 8, 8, "3 heads do not divide the model width 4"},
    {"identity_not_square", Severity::Error, 8, 6,
     "W_Q: identity needs a square projection, but it maps 4 to 1"},
    {"invalid_id", Severity::Error, 3, 14,
     "'9lives' is not a valid cell id: start with a letter or _, then letter"},
    {"nan", Severity::Error, 7, 10, "the vector of 'blue' [0]: the number .nan is not finite"},
    {"number_not_finite", Severity::Error, 6, 15,
     "the vector of 'red' [2]: the number .inf is not finite"},
    {"number_overflow", Severity::Error, 6, 15,
     "the vector of 'red' [2]: the number 1e400 is not finite (too large for"},
    {"padding_length", Severity::Error, 8, 10, "padding needs 2 flags, one per token, not 1"},
    {"quiz_choice_range", Severity::Error, 6, 9,
     "answer must be the index of a choice, from 0 to 1"},
    {"quiz_no_answer", Severity::Error, 4, 1, "a quiz needs an answer"},
    {"ragged_rows", Severity::Error, 5, 19,
     "X row 1 has 3 numbers, but row 0 has 4 (a matrix needs rows of one len"},
    {"scale_divisor", Severity::Error, 8, 8, "a scale divisor must be > 0, not -2"},
    {"stale_number_warning", Severity::Warning, 10, 20,
     "0.5000 is typed by hand but equals c.scale: write {{c.scale:4}} so it "},
    {"string_for_number", Severity::Error, 6, 12,
     "the vector of 'red' [1]: expected a number, found 'abc'"},
    {"token_missing_from_vocab", Severity::Error, 4, 15, "the token 'green' is not in the vocab"},
    {"unclosed_binding_warning", Severity::Warning, 10, 8,
     "'{{' is never closed with '}}', so it shows as typed (write {{{{ for l"},
    {"unclosed_fence", Severity::Error, 3, 1, "this cell's fence is never closed"},
    {"unknown_key_warning", Severity::Warning, 8, 1, "unknown key 'head' — did you mean 'heads'?"},
    {"vector_wrong_length", Severity::Error, 7, 9,
     "the vector of 'blue' has 3 numbers, but 'red' has 4 (every vector need"},
    {"vocab_and_x", Severity::Error, 8, 4,
     "give the token vectors either as vocab or as X, not both"},
};

} // namespace

// Every fixture file has an expectation.
TEST_CASE("errorFixturesAreAllExpected") {
    CHECK_EQ(test::filesEndingIn(ATTNBOOK_FIXTURES "/errors", ".md").size(),
             std::size(kErrorFixtures));
}

TEST_CASE("errorFixtures") {
    for (const Expected& e : kErrorFixtures) {
        test::dataRow(e.fixture, [&] {
            const std::string message = e.message;
            const Lesson lesson =
                loadLesson(std::string(ATTNBOOK_FIXTURES "/errors/") + e.fixture + ".md");
            const std::vector<Diagnostic> all = everyProblem(lesson);
            const bool found = std::any_of(all.begin(), all.end(), [&](const Diagnostic& d) {
                return d.severity == e.severity && d.line == e.line && d.column == e.column &&
                       d.message.find(message) != std::string::npos;
            });
            if (!found) {
                FAIL("expected " << e.line << ":" << e.column << " " << message << ", got:\n"
                                 << describe(all));
            }
            // An error fixture is an error, and nothing else in it is a surprise
            // crash: the warning fixtures have no error at all.
            CHECK_EQ(hasErrors(all), e.severity == Severity::Error);
        });
    }
}

TEST_CASE("shippedDocumentsRoundTripByteForByte") {
    const std::string dir = ATTNBOOK_SOURCE_DIR "/documents";
    const std::vector<std::string> files = test::filesEndingIn(dir, ".md");
    CHECK(files.size() >= 3);
    for (const std::string& name : files) {
        const std::string bytes = readAll(dir + "/" + name);
        // The full path: real-head.md reads files from data/ beside it.
        const Lesson lesson = parseLesson(bytes, dir + "/" + name);
        CHECK_MESSAGE(!hasErrors(lesson.diagnostics), name);
        CHECK_MESSAGE(lesson.document.serialize() == bytes, name);
        CHECK(!lesson.cells.empty());
    }
}

TEST_CASE("byteOrderMarkAndCrLfRoundTripAndKeepLines") {
    std::string text = kColour;
    std::string crlf;
    for (char c : text) {
        crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    }
    const std::string bytes = "\xEF\xBB\xBF" + crlf;
    Lesson lesson = parseLesson(bytes, "crlf.md");
    CHECK_MESSAGE(!hasErrors(lesson.diagnostics), describe(lesson.diagnostics));
    CHECK_EQ(lesson.document.serialize(), bytes);
    CHECK_EQ(lesson.cells.front().openLine, 7);
    // An error in a CRLF file still points at the right line and column.
    Document edited = lesson.document;
    CHECK(!setCellKey(edited, "colour", "heads", "3"));
    const std::string editedBytes = edited.serialize();
    CHECK(editedBytes.find("heads: 3\r\n") != std::string::npos);
    const std::vector<Diagnostic> all = everyProblem(parseLesson(editedBytes, "crlf.md"));
    REQUIRE_EQ(all.size(), size_t(1));
    CHECK_EQ(all.front().line, 12);
    CHECK_EQ(all.front().column, 8);
}

TEST_CASE("editingOneKeyChangesOnlyItsLine") {
    Lesson lesson = parseLesson(kColour, "colour.md");
    Document doc = lesson.document;
    CHECK(!setCellKey(doc, "colour", "heads", "2"));
    CHECK(!setCellKey(doc, "colour", "positional", "sinusoidal"));
    const std::vector<std::string> before = test::split(kColour, '\n');
    std::vector<std::string> after = test::split(doc.serialize(), '\n');
    REQUIRE_EQ(after.size(), before.size() + 1); // positional was added, at the cell's end
    CHECK_EQ(after[13], std::string("positional: sinusoidal"));
    after.erase(after.begin() + 13);
    int changed = 0;
    for (size_t i = 0; i < before.size(); ++i) {
        if (before[i] != after[i]) {
            ++changed;
            CHECK_EQ(after[i], std::string("heads: 2"));
        }
    }
    CHECK_EQ(changed, 1);
    // Removing it again restores the exact bytes of the authored cell
    // apart from the heads line.
    CHECK(!removeCellKey(doc, "colour", "positional"));
    CHECK(!setCellKey(doc, "colour", "heads", "1   # try 2"));
    CHECK_EQ(doc.serialize(), std::string(kColour));
}

TEST_CASE("unknownKeysAndCommentsAreKept") {
    const std::string text = "```attention c\ntokens: [a]\n# a comment\nvocab: {a: [1]}\n"
                             "colour_scheme: warm\n```\n";
    Lesson lesson = parseLesson(text, "u.md");
    REQUIRE_EQ(lesson.diagnostics.size(), size_t(1));
    CHECK_EQ(lesson.diagnostics.front().severity, Severity::Warning);
    Document doc = lesson.document;
    CHECK(!setCellKey(doc, "c", "tokens", "[a, a]"));
    CHECK_EQ(doc.serialize(), std::string("```attention c\ntokens: [a, a]\n# a comment\n"
                                          "vocab: {a: [1]}\ncolour_scheme: warm\n```\n"));
}

TEST_CASE("bindingsResolveFormatAndSkipCode") {
    const Lesson lesson = parseLesson(kColour, "colour.md");
    AttentionEngine engine;
    const LessonResults results = computeLesson(lesson, engine);
    const ProseBlock& prose = lesson.document.segments.back().prose();
    const auto pieces = scanProse(prose.text, prose.firstLine, 1, lesson.document.codeBlocks);
    const std::string shown = substituteBindings(
        prose.text, pieces, [&](const Binding& b) { return results.boundText(b); });
    CHECK_MESSAGE(shown.find("Red gives 0.2327 to blue, `{{colour.n}}` stays code.") !=
                      std::string::npos,
                  shown);
    std::string error;
    const auto path = parseBinding("colour.output[0]:2", error);
    REQUIRE(path);
    CHECK_EQ(*results.boundText(*path), std::string("[0.77, 0.23, 0.00, 0.00]"));
    const auto literal = scanProse("a {{{{b}} c", 1);
    CHECK_EQ(
        substituteBindings("a {{{{b}} c", literal, [](const Binding&) { return std::nullopt; }),
        std::string("a {{b}} c"));
    CHECK(!parseBinding("colour", error));
    CHECK(!parseBinding("colour.output[x]", error));
    CHECK(!parseBinding("colour.output:99", error));
}

TEST_CASE("yesAndNoAreTokenLabels") {
    const Lesson lesson = parseLesson(
        "```attention c\ntokens: [yes, no, on]\nvocab: {yes: [1, 0], no: [0, 1], on: [1, 1]}\n"
        "padding: [false, false, true]\n```\n",
        "yes.md");
    CHECK_MESSAGE(!hasErrors(lesson.diagnostics), describe(lesson.diagnostics));
    CHECK_EQ(lesson.cells.front().attention()->config.tokens.front(), std::string("yes"));
    // `yes` is not a boolean in YAML 1.2.
    const Lesson bad =
        parseLesson("```attention c\ntokens: [a]\nvocab: {a: [1]}\npadding: [yes]\n```\n", "b.md");
    REQUIRE(hasErrors(bad.diagnostics));
    CHECK_EQ(bad.diagnostics.front().line, 4);
    CHECK_EQ(bad.diagnostics.front().column, 11);
}

TEST_CASE("unreadableFilesSayWhy") {
    const test::TempDir dir;
    const auto problem = [](const std::string& path) {
        const Lesson lesson = loadLesson(path);
        return lesson.diagnostics.empty() ? std::string() : lesson.diagnostics.front().message;
    };
    CHECK_EQ(problem(dir.filePath("missing.md")), std::string("no such file"));
    CHECK(problem(dir.path().string()).find("is a folder") != std::string::npos);
    const auto write = [&](const char* name, const std::string& bytes) {
        test::writeFile(dir.filePath(name), bytes);
        return dir.filePath(name);
    };
    CHECK(problem(write("empty.md", "")).find("empty") != std::string::npos);
    const Lesson nul = loadLesson(write("nul.md", std::string("# a\n\nb\0c\n", 10)));
    CHECK_EQ(nul.diagnostics.front().line, 3);
    CHECK_EQ(nul.diagnostics.front().column, 2);
    CHECK(nul.diagnostics.front().message.find("NUL") != std::string::npos);
    const Lesson latin1 = loadLesson(write("latin1.md", "# caf\xE9\n"));
    CHECK_EQ(latin1.diagnostics.front().line, 1);
    CHECK_EQ(latin1.diagnostics.front().column, 6);
    CHECK(latin1.diagnostics.front().message.find("UTF-8") != std::string::npos);
}

TEST_CASE("fencesFollowCommonMark") {
    // A cell shown inside a longer fence is prose; ~~~ fences are cells too.
    const std::string text = "````markdown\n```attention shown\ntokens: [\n```\n````\n\n"
                             "~~~quiz q\nquestion: Two?\nanswer: 2\n~~~\n";
    const Lesson lesson = parseLesson(text, "f.md");
    CHECK_MESSAGE(!hasErrors(lesson.diagnostics), describe(lesson.diagnostics));
    REQUIRE_EQ(lesson.cells.size(), size_t(1));
    CHECK_EQ(lesson.cells.front().id, std::string("q"));
    CHECK_EQ(lesson.document.serialize(), text);
    CHECK_EQ(lesson.title(), std::string("f")); // no front matter, no heading
}

TEST_CASE("titleComesFromFrontMatterThenHeading") {
    CHECK_EQ(parseLesson(kColour, "x.md").title(), std::string("Colours"));
    CHECK_EQ(parseLesson("# First *one*\n\n# Second\n", "x.md").title(), std::string("First one"));
}

TEST_CASE("directModeComputesThePronounExample") {
    const Lesson lesson = parseLesson(
        "```attention soup\ntokens: [Sam, made, soup, and, ate, it]\nquery_tokens: [it]\n"
        "queries: [[2, -1]]\nkeys: [[0, 2], [0.5, 0], [2, 0], [0, 0], [1, 0], [0.5, 0]]\n"
        "values: [[0, 1], [0, 0], [1, 0], [0, 0], [0.5, 0], [0, 0]]\nscale: false\n```\n",
        "soup.md");
    CHECK_MESSAGE(!hasErrors(lesson.diagnostics), describe(lesson.diagnostics));
    AttentionEngine engine;
    const LessonResults results = computeLesson(lesson, engine);
    const Json& json = results.cells.front().json;
    CHECK(json.find("X0")->isNull());
    const Json& output = *json.find("output")->at(0);
    CHECK(std::abs(output.at(0)->number() - 0.85) < 0.005);
    CHECK(std::abs(output.at(1)->number()) < 0.005);
    CHECK(json.find("grad")->find("queries"));
    CHECK(!json.find("grad")->find("W_Q"));
}

TEST_CASE("jsonNumbersRoundTripAndBlockedScoresAreNull") {
    Lesson lesson = parseLesson(kColour, "colour.md");
    CHECK(!setCellKey(lesson.document, "colour", "mask", "causal"));
    lesson = parseLesson(lesson.document.serialize(), "colour.md");
    AttentionEngine engine;
    const LessonResults results = computeLesson(lesson, engine);
    const std::string text = results.cells.front().json.dump();
    CHECK(text.find("\"scores\": [\n") != std::string::npos);
    CHECK(text.find("[0.5, null, null]") != std::string::npos);
    // Shortest round-trip form.
    // (Exactly: QCOMPARE's 1e-12 would have let 1e-300 come back as 0.)
    for (double v : {0.1, 1.0 / 3.0, 1e-300, 123456789.0, -2.5e-7, 0.38365173119055074}) {
        CHECK_EQ(std::strtod(shortestDouble(v).c_str(), nullptr), v);
    }
    CHECK_EQ(shortestDouble(0.5), std::string("0.5"));
    CHECK_EQ(shortestDouble(3.0), std::string("3"));
}

// docs/lesson-format.md "Version": version 1 stated plainly or in quotes is read; a newer one,
// quoted or not, is refused at its value.
TEST_CASE("aLessonStatesItsFormatVersion") {
    for (const char* stated : {"1", "\"1\"", "'1'"}) {
        const Lesson lesson =
            parseLesson(std::string("---\nattnbook-format: ") + stated + "\n---\n\n# V\n", "v.md");
        CHECK_MESSAGE(lesson.diagnostics.empty(), stated);
    }
    const Lesson newer = parseLesson("---\nattnbook-format: \"2\"\n---\n\n# V\n", "v.md");
    REQUIRE_EQ(newer.diagnostics.size(), 1);
    CHECK_EQ(newer.diagnostics[0].line, 2);
    CHECK_EQ(newer.diagnostics[0].column, 18);
    CHECK(newer.diagnostics[0].message.find("written for version 2") != std::string::npos);
}
