// Judging a numeric quiz answer (document-format.md, quiz cells): the default tolerance, an
// absolute or relative one as written, whole numbers, fractions, and `cell:`.
#include "core/document/lesson.h"
#include "core/document/quiz_answer.h"

#include <QtTest>

using namespace attnbook;

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

class TestQuizAnswer : public QObject {
    Q_OBJECT

  private Q_SLOTS:
    // Default: the larger of 1% and one unit in the last digit the key shows.
    void defaultToleranceIsOneUnitOrOnePercent() {
        const QuizCellSpec bound = quizFrom("answer: \"{{c.output[0][0]}}\"\n");
        QCOMPARE(bound.answerDecimals, 4);
        QCOMPARE(quizTolerance(bound, 0.0009), 0.0001); // so 0 is not right for 0.0009
        QVERIFY(!quizAccepts(bound, 0.0, 0.0009));
        QVERIFY(quizAccepts(bound, 0.0010, 0.0009));
        QCOMPARE(quizTolerance(bound, 0.5), 0.005); // 1% of 0.5
        QVERIFY(quizAccepts(bound, 0.505, 0.5));
        QVERIFY(!quizAccepts(bound, 0.506, 0.5));
        const QuizCellSpec twoDigits = quizFrom("answer: \"{{c.output[0][0]:2}}\"\n");
        QCOMPARE(quizTolerance(twoDigits, 0.1), 0.01);
        const QuizCellSpec typed = quizFrom("answer: 0.25\n");
        QCOMPARE(typed.answerDecimals, 2);
        QCOMPARE(quizTolerance(typed, 0.25), 0.01);
        // A whole number allows half a unit: 4 is not right for 5, 5.4 is.
        const QuizCellSpec whole = quizFrom("answer: 5\n");
        QVERIFY(!quizAccepts(whole, 4, 5));
        QVERIFY(quizAccepts(whole, 5.4, 5));
    }

    void writtenTolerances() {
        const QuizCellSpec absolute = quizFrom("answer: 5\ntolerance: 0.001\n");
        QVERIFY(quizAccepts(absolute, 5.001, 5));
        QVERIFY(!quizAccepts(absolute, 5.002, 5));
        const QuizCellSpec relative = quizFrom("answer: 200\ntolerance: 2%\n");
        QCOMPARE(quizTolerance(relative, 200), 4.0);
        QVERIFY(quizAccepts(relative, 196, 200));
        QVERIFY(!quizAccepts(relative, 195, 200));
        std::vector<Diagnostic> problems;
        quizFrom("answer: 5\ntolerance: -1\n", &problems);
        QVERIFY(hasErrors(problems));
        quizFrom("answer: 5\ntolerance: lots%\n", &problems);
        QVERIFY(hasErrors(problems));
        QCOMPARE(problems[0].line, 6);
    }

    void fractionsAreNumbers() {
        QCOMPARE(*parseAnswerNumber("1/2"), 0.5);
        QCOMPARE(*parseAnswerNumber(" -3 / 4 "), -0.75);
        QCOMPARE(*parseAnswerNumber("1.5/3"), 0.5);
        QCOMPARE(*parseAnswerNumber("0.25"), 0.25);
        QVERIFY(!parseAnswerNumber("1/0"));
        QVERIFY(!parseAnswerNumber("1/"));
        QVERIFY(!parseAnswerNumber("a/2"));
        QVERIFY(!parseAnswerNumber("1/2/3"));
        QVERIFY(!parseAnswerNumber("1e400"));
    }

    void cellKey() {
        QCOMPARE(quizFrom("answer: 5\ncell: colour\n").cell, std::string("colour"));
        std::vector<Diagnostic> problems;
        quizFrom("answer: 5\ncell: 9lives\n", &problems);
        QVERIFY(hasErrors(problems));
    }
};

QTEST_APPLESS_MAIN(TestQuizAnswer)
#include "test_quiz_answer.moc"
