// A transformer cell's summary line and its short texts (core/present/transformer_summary.h),
// which the PDF, the web page and the page's module all write.
#include "core/present/transformer_summary.h"

#include "core/document/lesson.h"
#include "core/math/attention_engine.h"

#include "test_support.h"

using namespace attnbook;

TEST_CASE("settingText writes a setting as an author does") {
    CHECK_EQ(settingText(0.5), "0.5");
    CHECK_EQ(settingText(2), "2");
    CHECK_EQ(settingText(20), "20"); // whole: no zero of it taken for a decimal one
    CHECK_EQ(settingText(100), "100");
    CHECK_EQ(settingText(0.125), "0.125");
    CHECK_EQ(settingText(1.0 / 3.0), "0.333333");
}

TEST_CASE("shortWordText keeps a word on one line and at most so many characters") {
    CHECK_EQ(shortWordText("cat"), "cat");
    CHECK_EQ(shortWordText("a\tb\nc"), "a b c");
    CHECK_EQ(shortWordText("abcdefgh", 5), "abcd…");
    CHECK_EQ(shortWordText("abcde", 5), "abcde");
    // characters, not bytes: four é are four
    CHECK_EQ(shortWordText("éééé", 4), "éééé");
    CHECK_EQ(shortWordText("ééééé", 4), "ééé…");
}

TEST_CASE("the summary says the tokens, the model's shape, the temperature and the words") {
    const Lesson lesson = parseLesson(test::kOneLayerTransformerLesson, "one.md");
    AttentionEngine engine;
    const LessonResults results = computeLesson(lesson, engine);
    REQUIRE(results.cell("t"));
    CHECK_EQ(
        transformerSummaryText(*lesson.cell("t")->transformer(), *results.cell("t")->transformer),
        "tokens red, blue, red · 1 layer · 2 heads · d 4 · d_ff 2 ReLU · T = 1 · 4 words");
}
