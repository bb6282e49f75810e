// Documents from a hostile round that crashed or misread the reader: lone
// carriage returns, values of tens of kilobytes where std::regex recursed per character, and
// numbers too large for a double.
#include "core/document/cell_cost.h"
#include "core/document/cell_editor.h"
#include "core/document/document.h"
#include "core/document/lesson.h"
#include "core/document/yaml_tree.h"
#include "core/math/attention_engine.h"
#include "core/math/attention_shapes.h"
#include "core/math/gradient_check.h"

#include "test_support.h"

#include <chrono>
#include <cmath>
#include <limits>
#include <string>

using namespace attnbook;
using attnbook::test::fuzzy;

namespace {

bool hasError(const Lesson& lesson, const std::string& part) {
    for (const Diagnostic& d : lesson.diagnostics) {
        if (d.severity == Severity::Error && d.message.find(part) != std::string::npos) {
            return true;
        }
    }
    return false;
}

} // namespace

// cmark ends a line at a lone "\r": a fence on line 3 by its count must be line 3 here too
// (it was past the end of SourceText's lines: out_of_range, or a heap overflow).
TEST_CASE("aLoneCarriageReturnEndsALineAsInCommonMark") {
    const std::string bytes = "# T\r\rSome prose.\r```quiz q\rquestion: Q?\r"
                              "choices: [a, b]\ranswer: 1\r```\r";
    const Lesson lesson = parseLesson(bytes, "cr.md");
    REQUIRE_EQ(lesson.cells.size(), size_t(1));
    CHECK_EQ(lesson.cells.front().openLine, 4);
    CHECK_EQ(lesson.cells.front().id, std::string("q"));
    // And the file is written back byte for byte.
    CHECK_EQ(lesson.document.serialize(), bytes);
}

TEST_CASE("aFenceThatClosesPastTheLastNewlineDoesNotReadOutOfBounds") {
    // One "\n"-line to SourceText before the fix; three lines to cmark.
    const std::string bytes = "x\r\r```attention a\rtokens: [p]\rvocab: {p: [1, 0]}\r```";
    const Lesson lesson = parseLesson(bytes, "cr-end.md");
    REQUIRE_EQ(lesson.cells.size(), size_t(1));
    CHECK_EQ(lesson.cells.front().openLine, 3);
}

// std::regex overflowed the stack on ~40 KB: an id, a number, a --set key.
TEST_CASE("longValuesAreScannedNotRecursed") {
    const std::string id(200000, 'a');
    CHECK(isValidCellId(id));
    CHECK(!isValidCellId(id + "!"));
    const std::string lesson =
        "```quiz " + id + "\nquestion: Q?\nchoices: [a, b]\nanswer: 0\n```\n";
    CHECK_EQ(parseLesson(lesson, "long-id.md").cells.size(), size_t(1));

    YamlNode number;
    number.kind = YamlNode::Kind::Scalar;
    number.scalar = "1." + std::string(200000, '5');
    std::string why;
    CHECK(yamlNumber(number, why).has_value());
    number.scalar = std::string(200000, '9');
    CHECK(!yamlNumber(number, why).has_value()); // 1e200000: not finite
    CHECK(why.find("not finite") != std::string::npos);

    Document document = parseLesson(lesson, "long-id.md").document;
    const std::optional<std::string> error =
        setCellKey(document, id, std::string(200000, 'k') + "-", "1");
    CHECK((error && error->find("is not a key name") != std::string::npos));
}

TEST_CASE("numbersAsYamlWritesThem") {
    const auto read = [](const std::string& text) {
        YamlNode node;
        node.kind = YamlNode::Kind::Scalar;
        node.scalar = text;
        std::string why;
        return yamlNumber(node, why);
    };
    CHECK_EQ(read("-1.5e3").value(), fuzzy(-1500.0));
    CHECK_EQ(read(".5").value(), fuzzy(0.5));
    CHECK_EQ(read("+2.").value(), fuzzy(2.0));
    CHECK_EQ(read("0x1F").value(), fuzzy(31.0));
    CHECK_EQ(read("0o17").value(), fuzzy(15.0));
    for (const char* no : {"", ".", "1e", "e3", "1.2.3", "0x", "0o8", "1,5", "- 1", ".inf", "-.Inf",
                           ".NaN", "1e400"}) {
        CHECK_MESSAGE(!read(no).has_value(), std::string(no));
    }
}

// A cell inside the limits of n and d but too costly to compute (n = 2048, d = 512 took
// minutes and gigabytes) is refused up front with its name, its line and the estimate.
TEST_CASE("aCostlyAttentionCellIsRefusedBeforeAllocating") {
    std::string tokens, vector;
    for (int i = 0; i < 2048; ++i) {
        tokens += i ? ", a" : "a";
    }
    for (int i = 0; i < 512; ++i) {
        vector += i ? ", 0" : "1";
    }
    const std::string bytes =
        "# Big\n\n```attention big\ntokens: [" + tokens + "]\nvocab:\n  a: [" + vector + "]\n```\n";
    const Lesson lesson = parseLesson(bytes, "big.md");
    CHECK(lesson.diagnostics.empty());
    const auto start = std::chrono::steady_clock::now();
    AttentionEngine engine;
    const LessonResults results = computeLesson(lesson, engine);
    CHECK(test::millisecondsSince(start) < 2000);
    REQUIRE_EQ(results.diagnostics.size(), size_t(1));
    const Diagnostic& d = results.diagnostics.front();
    CHECK_EQ(d.line, 3);
    CHECK_MESSAGE(d.message.find("cell 'big' is too costly") != std::string::npos, d.message);
    CHECK_MESSAGE(d.message.find("of memory") != std::string::npos, d.message);
    CHECK_MESSAGE(d.message.find("of JSON") != std::string::npos, d.message);
    // With the limits raised (as --max-work and --max-json do), the estimate is all that
    // changes: the cost model itself says what n = 2048, d = 512 needs.
    // Work: forward and backward, about 3 × 6.5e9 multiply-adds; the gradient check does not
    // run at this size (one entry would cost 1.3e10, over its budget), so it costs nothing.
    const CellCost cost = cellCost(lesson.cells.front());
    CHECK((cost.multiplyAdds > 1.5e10 && cost.multiplyAdds < 2.5e10));
    CHECK((cost.jsonBytes > 300e6 && cost.jsonBytes < 800e6)); // about 22 million numbers
}

// A 5 KB chart with 200 series of 100000 points took 29 s and 3.8 GB in check.
TEST_CASE("aCostlyChartIsRefusedBeforeAllocating") {
    std::string bytes = "```chart wide\nx: {var: n, from: 1, to: 100, points: 100000}\nseries:\n";
    for (int i = 0; i < 200; ++i) {
        bytes += "  - {label: s" + std::to_string(i) + ", y: n*" + std::to_string(i) + "}\n";
    }
    bytes += "```\n";
    const Lesson lesson = parseLesson(bytes, "chart.md");
    CHECK(lesson.diagnostics.empty());
    const auto start = std::chrono::steady_clock::now();
    AttentionEngine engine;
    const LessonResults results = computeLesson(lesson, engine);
    CHECK(test::millisecondsSince(start) < 2000);
    REQUIRE_EQ(results.diagnostics.size(), size_t(1));
    CHECK_EQ(results.diagnostics.front().line, 1);
    CHECK(results.diagnostics.front().message.find("cell 'wide' is too costly") !=
          std::string::npos);
}

// A 20 KB formula of function calls over 100,000 points took 10 s in check while its estimate
// charged its bytes alone: a call of sin, a power or a division costs about 12 of the engine's
// multiply-adds, an addition about a sixth per byte (cell_cost.cpp, attnbook-cost-bench).
TEST_CASE("aFormulaIsChargedItsCallsNotOnlyItsBytes") {
    std::string calls, sums;
    for (int i = 0; i < 2800; ++i) {
        calls += i ? "+sin(n)" : "sin(n)";
    }
    for (int i = 0; i < 2000; ++i) {
        sums += i ? "+n" : "n";
    }
    REQUIRE(calls.size() < 20000); // muParser's own limit
    CHECK(formulaWorkPerPoint(calls) == doctest::Approx(10 + 0.15 * 19599 + 12 * 2800));
    CHECK(formulaWorkPerPoint("n^2/2 + sqrt(n)") == doctest::Approx(10 + 0.15 * 15 + 12 * 3));
    CHECK(formulaWorkPerPoint(sums) == doctest::Approx(10 + 0.15 * 3999));
    const auto chart = [](const std::string& formula, int series) {
        std::string text = "```chart c\nx: {var: n, from: 1, to: 100, points: 100000}\nseries:\n";
        for (int k = 0; k < series; ++k) {
            text += "  - {label: s" + std::to_string(k) + ", y: \"" + formula + "\"}\n";
        }
        return text + "```\n";
    };
    AttentionEngine engine;
    // Two series of 2800 calls over 100,000 points: 7.3e9, past the default 7e9.
    const LessonResults refused = computeLesson(parseLesson(chart(calls, 2), "calls.md"), engine);
    REQUIRE_EQ(refused.diagnostics.size(), size_t(1));
    CHECK(refused.diagnostics.front().message.find("cell 'c' is too costly") != std::string::npos);
    // Three series of sums are within the limit, and compute.
    const LessonResults computed = computeLesson(parseLesson(chart(sums, 3), "sums.md"), engine);
    CHECK(computed.diagnostics.empty());
}

// muParser's message follows the formula: a long formula is quoted by its start, so the reason
// is not cut off by the message's own limit.
TEST_CASE("aLongFormulasErrorSaysWhy") {
    std::string calls;
    for (int i = 0; i < 3000; ++i) {
        calls += i ? "+sin(n)" : "sin(n)";
    }
    const Lesson lesson = parseLesson("```chart c\nx: {var: n, from: 1, to: 4}\nseries:\n"
                                      "  - {label: a, y: \"" +
                                          calls + "\"}\n```\n",
                                      "long.md");
    AttentionEngine engine;
    const LessonResults results = computeLesson(lesson, engine);
    REQUIRE_EQ(results.diagnostics.size(), size_t(1));
    const std::string& message = results.diagnostics.front().message;
    CHECK_MESSAGE(message.find("(20999 characters): ") != std::string::npos, message);
    CHECK_MESSAGE(message.size() < 300, message);
}

// A map's keys were checked for duplicates against every earlier key: a vocab of 50,000 words
// took 10 s to read (`check`), now 1 s. The duplicate is still found, with both lines.
TEST_CASE("aLargeMapIsReadInLinearTime") {
    std::string vocab;
    for (int i = 0; i < 50000; ++i) {
        vocab += "  w" + std::to_string(i) + ": [1, 0]\n";
    }
    const std::string cell = "```attention c\ntokens: [w1]\nvocab:\n" + vocab;
    const auto start = std::chrono::steady_clock::now();
    const Lesson lesson = parseLesson("# V\n\n" + cell + "```\n", "v.md");
    CHECK(test::millisecondsSince(start) < 5000);
    CHECK(lesson.diagnostics.empty());
    const Lesson twice = parseLesson("# V\n\n" + cell + "  w7: [0, 1]\n```\n", "v.md");
    REQUIRE_EQ(twice.diagnostics.size(), size_t(1));
    CHECK_EQ(twice.diagnostics.front().line, 50006);
    CHECK_EQ(twice.diagnostics.front().message, "duplicate key 'w7' (also at line 13)");
}

// A quiz answer of 1e400 is a number too large, not the text "1e400".
TEST_CASE("aQuizAnswerThatIsNotFiniteIsAnError") {
    const Lesson lesson =
        parseLesson("```quiz q\nquestion: How many?\nanswer: 1e400\n```\n", "inf.md");
    CHECK(hasError(lesson, "not finite"));
    const Lesson text =
        parseLesson("```quiz q\nquestion: Who?\nanswer: \"1e400\"\n```\n", "text.md");
    CHECK(!hasError(text, "not finite"));
}

// A transformer whose logits overflow printed its loss as null (JSON has no infinity): the
// cell is refused with the reason, never shown with a loss that is not a number.
TEST_CASE("aLossThatOverflowsIsAnError") {
    const Lesson lesson =
        parseLesson("```transformer t\ntokens: [a, b]\n"
                    "vocab: {a: [1e153, 0], b: [0, 1e153]}\ntemperature: 0.001\n"
                    "layers:\n  - attention: {heads: 1, W_Q: [[0, 0], [0, 0]]}\n    ln1: none\n"
                    "    ln2: none\n    ffn: none\nfinal_ln: none\n"
                    "targets: [b, ~]\n```\n",
                    "overflow.md");
    REQUIRE(lesson.diagnostics.empty());
    AttentionEngine engine;
    const LessonResults results = computeLesson(lesson, engine);
    REQUIRE_FALSE(results.diagnostics.empty());
    CHECK_MESSAGE(results.diagnostics.front().message.find("the loss overflows") !=
                      std::string::npos,
                  results.diagnostics.front().message);
}

// A gradient check whose every comparison was NaN "passed" with a negative error (the largest
// difference started below zero and NaN never exceeded it): it is not run, and says why.
TEST_CASE("aGradientCheckOfValuesThatAreNotNumbersDoesNotPass") {
    GradientComparison comparison;
    comparison.add("W_Q", 2, 0, std::nan(""), 1.0);
    comparison.add("W_Q", 2, 1, 1.0, std::numeric_limits<double>::infinity());
    const GradientCheckReport report = comparison.finish({});
    CHECK_FALSE(report.ran);
    CHECK_FALSE(report.passed());
    CHECK_MESSAGE(report.skipped.find("not finite") != std::string::npos, report.skipped);
    GradientComparison finite;
    finite.add("W_Q", 2, 0, 1.0, 1.0 + 1e-12);
    CHECK(finite.finish({}).passed());
}

// A terminal escape in a data file reached stderr raw, and a message echoed up to
// 200 KB of its input. Printed diagnostics escape control bytes and are cut.
TEST_CASE("printedDiagnosticsHoldNoControlBytesAndStayShort") {
    const Diagnostic escape{Severity::Error, 3, 7, "bad value '\x1b]0;pwned\x07\x1b[31m' in x.csv",
                            ""};
    CHECK(formatDiagnostic("a.md", escape) ==
          "a.md:3:7: error: bad value '\\x1b]0;pwned\\x07\\x1b[31m' in x.csv");
    // C1 controls in UTF-8 (U+009B is a CSI on many terminals); other UTF-8 stays.
    CHECK(printableText("a\xc2\x9b"
                        "31m é",
                        100) == "a\\x9b31m é");
    const std::string huge(200000, 'k');
    const std::string printed = formatDiagnostic("a.md", {Severity::Error, 1, 1, huge, ""});
    CHECK(printed.size() < 700);
    CHECK(printed.find("… (199400 bytes more)") != std::string::npos);
    // A cut never splits a UTF-8 character: 'é' is two bytes.
    CHECK(printableText("aé", 2) == "a… (2 bytes more)");
}

// A chart formula could hold a line break (muParser skips it; the notebook did not),
// '=' (an assignment), ',' outside a function, ?: and comparisons, which NumPy writes otherwise.
TEST_CASE("aChartFormulaIsOneExpressionOfPlainOperators") {
    const auto chart = [](const std::string& formula) {
        return parseLesson(
            "```chart c\nx: {var: n, from: 1, to: 4}\nseries:\n  - {label: a, y: \"" + formula +
                "\"}\n```\n",
            "c.md");
    };
    CHECK(chart("n^2/2 + sqrt(n) - max(n, 2)").diagnostics.empty());
    CHECK(hasError(chart("n\\n+1"), "one line"));
    CHECK(hasError(chart("n\\r+1"), "one line"));
    CHECK(hasError(chart("n = 5"), "'=' is not part of a chart formula"));
    CHECK(hasError(chart("n, 2"), "one value"));
    CHECK(hasError(chart("n > 1 ? 1 : 2"), "'>' is not part of a chart formula"));
    CHECK(hasError(chart("n # comment"), "'#' is not part of a chart formula"));
}

// Check and compute charged the gradient check about 1e9 multiply-adds while the
// check spends at most 4e7 (20–30× over). The cost limits now charge what the check does.
TEST_CASE("theGradientCheckIsChargedWhatItSpends") {
    const char* const cells[] = {
        "tokens: [red, blue, red]\nvocab:\n  red: [1, 0, 0, 0]\n  blue: [0, 1, 0, 0]\n",
        "tokens: [a, b, c, d, e, f]\nvocab:\n  a: [1, 0]\n  b: [0, 1]\n  c: [1, 1]\n"
        "  d: [2, 0]\n  e: [0, 2]\n  f: [1, 2]\nheads: 2\nmask: causal\n",
        "queries: [[1, 0], [0, 1]]\nkeys: [[1, 0], [0, 1], [1, 1]]\n"
        "values: [[1, 2], [3, 4], [5, 6]]\n",
    };
    for (const char* body : cells) {
        const Lesson lesson =
            parseLesson(std::string("```attention a\n") + body + "```\n", "cost.md");
        REQUIRE_MESSAGE(!hasErrors(lesson.diagnostics), body);
        const AttentionConfig& config = lesson.cells[0].attention()->config;
        AttentionEngine engine;
        AttentionResult result;
        engine.forward(config, result);
        engine.backward(config, result, GradientCheck::Run);
        REQUIRE(result.gradcheck.ran);
        const double forward = forwardCost(result);
        const double spent = double(result.gradcheck.checked) * 2 * forward;
        const AttentionShapes shapes = resolveShapes(config, AttentionLimits{});
        CHECK(attentionCost(shapes).multiplyAdds == doctest::Approx(3 * forward + spent));
    }
}
