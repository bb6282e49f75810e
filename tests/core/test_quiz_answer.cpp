// Judging a numeric quiz answer (docs/lesson-format.md, quiz cells): the default tolerance, an
// absolute or relative one as written, whole numbers, fractions, and `cell:`.
#include "core/document/lesson.h"
#include "core/document/quiz_answer.h"

#include "test_support.h"

using namespace attnbook;
using attnbook::test::fuzzy;

namespace {

QuizCellSpec quizFrom(const std::string& body, std::vector<Diagnostic>* problems = nullptr) {
    const Lesson lesson =
        parseLesson("# Q\n\n```quiz q\nquestion: How much?\n" + body + "```\n", "q.md");
    if (problems) {
        *problems = lesson.diagnostics;
    }
    const QuizCellSpec* quiz = lesson.cells.empty() ? nullptr : lesson.cells[0].quiz();
    return quiz ? *quiz : QuizCellSpec{};
}

} // namespace

// Default: the larger of 1% and one unit in the last digit the key shows.
TEST_CASE("defaultToleranceIsOneUnitOrOnePercent") {
    const QuizCellSpec bound = quizFrom("answer: \"{{c.output[0][0]}}\"\n");
    CHECK_EQ(bound.answerDecimals, 4);
    CHECK_EQ(quizTolerance(bound, 0.0009), fuzzy(0.0001)); // so 0 is not right for 0.0009
    CHECK(!quizAccepts(bound, 0.0, 0.0009));
    CHECK(quizAccepts(bound, 0.0010, 0.0009));
    CHECK_EQ(quizTolerance(bound, 0.5), fuzzy(0.005)); // 1% of 0.5
    CHECK(quizAccepts(bound, 0.505, 0.5));
    CHECK(!quizAccepts(bound, 0.506, 0.5));
    const QuizCellSpec twoDigits = quizFrom("answer: \"{{c.output[0][0]:2}}\"\n");
    CHECK_EQ(quizTolerance(twoDigits, 0.1), fuzzy(0.01));
    const QuizCellSpec typed = quizFrom("answer: 0.25\n");
    CHECK_EQ(typed.answerDecimals, 2);
    CHECK_EQ(quizTolerance(typed, 0.25), fuzzy(0.01));
    // A whole number allows half a unit: 4 is not right for 5, 5.4 is.
    const QuizCellSpec whole = quizFrom("answer: 5\n");
    CHECK(!quizAccepts(whole, 4, 5));
    CHECK(quizAccepts(whole, 5.4, 5));
}

TEST_CASE("writtenTolerances") {
    const QuizCellSpec absolute = quizFrom("answer: 5\ntolerance: 0.001\n");
    CHECK(quizAccepts(absolute, 5.001, 5));
    CHECK(!quizAccepts(absolute, 5.002, 5));
    const QuizCellSpec relative = quizFrom("answer: 200\ntolerance: 2%\n");
    CHECK_EQ(quizTolerance(relative, 200), fuzzy(4.0));
    CHECK(quizAccepts(relative, 196, 200));
    CHECK(!quizAccepts(relative, 195, 200));
    std::vector<Diagnostic> problems;
    quizFrom("answer: 5\ntolerance: -1\n", &problems);
    CHECK(hasErrors(problems));
    quizFrom("answer: 5\ntolerance: lots%\n", &problems);
    REQUIRE(hasErrors(problems));
    CHECK_EQ(problems[0].line, 6);
}

TEST_CASE("fractionsAreNumbers") {
    CHECK_EQ(parseAnswerNumber("1/2").value(), fuzzy(0.5));
    CHECK_EQ(parseAnswerNumber(" -3 / 4 ").value(), fuzzy(-0.75));
    CHECK_EQ(parseAnswerNumber("1.5/3").value(), fuzzy(0.5));
    CHECK_EQ(parseAnswerNumber("0.25").value(), fuzzy(0.25));
    CHECK(!parseAnswerNumber("1/0"));
    CHECK(!parseAnswerNumber("1/"));
    CHECK(!parseAnswerNumber("a/2"));
    CHECK(!parseAnswerNumber("1/2/3"));
    CHECK(!parseAnswerNumber("1e400"));
}

TEST_CASE("cellKey") {
    CHECK_EQ(quizFrom("answer: 5\ncell: colour\n").cell, std::string("colour"));
    std::vector<Diagnostic> problems;
    quizFrom("answer: 5\ncell: 9lives\n", &problems);
    CHECK(hasErrors(problems));
}

// A numeric answer is shown as the lesson writes the same value: attention.md's
// blue_self_score explains "{{colour.head[0].scores[1][1]:1}}" (0.5), so the window does not
// answer "0.5000" beside it.
TEST_CASE("shownDecimalsFollowTheLesson") {
    CHECK_EQ(quizShownDecimals(quizFrom("answer: \"{{c.s[1][1]}}\"\n"
                                        "explain: \"it is {{c.s[1][1]:1}}\"\n")),
             1);
    CHECK_EQ(quizShownDecimals(quizFrom("answer: \"{{c.s[1][1]}}\"\n"
                                        "explain: \"near {{c.s[1][0]:1}}\"\n")),
             4); // another value's digits say nothing
    CHECK_EQ(quizShownDecimals(quizFrom("answer: \"{{c.s[1][1]:2}}\"\n"
                                        "explain: \"it is {{c.s[1][1]:1}}\"\n")),
             2);                                               // the answer's own digits win
    CHECK_EQ(quizShownDecimals(quizFrom("answer: 0.5\n")), 1); // as typed
}

TEST_CASE("a typed quiz answer is read one way for the window and the page, and refused with why") {
    std::string reason;
    CHECK_EQ(readQuizAnswer("  0.25 ", reason), std::optional<double>(0.25));
    CHECK_EQ(readQuizAnswer("1/4", reason), std::optional<double>(0.25));
    CHECK_EQ(readQuizAnswer("−3/4", reason), std::optional<double>(-0.75));
    CHECK_FALSE(readQuizAnswer("0,25", reason));
    CHECK_EQ(reason, "use a point for decimals: 1.5, not 1,5");
    CHECK_FALSE(readQuizAnswer("1/0", reason));
    CHECK_EQ(reason, "'1/0' is not a number or a fraction like 1/2");
    CHECK_FALSE(readQuizAnswer(" a quarter ", reason));
    CHECK_EQ(reason, "'a quarter' is not a number");
    CHECK_FALSE(readQuizAnswer("", reason));
    CHECK_FALSE(reason.empty());
}
