// The prose editor's check (core/live/prose_check.h): a mistyped path, a missing cell, an
// unclosed binding and one that does not parse are each said where they are typed; bindings
// that resolve, claims included (true or false), are not problems.
#include "core/live/prose_check.h"
#include "core/math/attention_engine.h"

#include "test_support.h"

#include <doctest/doctest.h>

using namespace attnbook;

namespace {

LessonResults computed() {
    static const char* kLesson = "# T\n\n```attention colour\ntokens: [red, blue]\n"
                                 "vocab: {red: [1, 0], blue: [0, 1]}\n```\n";
    const Lesson lesson = parseLesson(kLesson, "t.md");
    REQUIRE(lesson.diagnostics.empty());
    AttentionEngine engine;
    return computeLesson(lesson, engine);
}

} // namespace

TEST_CASE("the prose editor says where a binding would be an error") {
    const LessonResults results = computed();
    CHECK(proseBindingProblem("Red gives {{colour.head[0].weights[0][1]:4}} to blue.", results)
              .empty());
    CHECK(proseBindingProblem("A false claim is no error.{{? colour.d > 100}}", results).empty());

    const std::string mistyped =
        proseBindingProblem("First line.\nRed gives {{colour.head[0].wieghts[0][1]}}.", results);
    CHECK_MESSAGE(mistyped.rfind("line 2, column 11: {{colour.head[0].wieghts[0][1]}}: ", 0) == 0,
                  mistyped);
    const std::string missingCell = proseBindingProblem("{{color.d}}", results);
    CHECK_MESSAGE(missingCell.find("line 1, column 1: {{color.d}}: ") == 0, missingCell);
    CHECK_MESSAGE(missingCell.find("color") != std::string::npos, missingCell);
    CHECK_FALSE(proseBindingProblem("Unclosed {{colour.d", results).empty());
    CHECK_FALSE(proseBindingProblem("Bad {{colour.d +}} here", results).empty());
}
