import QtQuick
import QtTest
import Attnbook
import Attnbook.Models

// The whole column: prose with live bindings, quizzes, charts, the outline
// and the problem list of a document with errors.
Item {
    id: root
    width: 1100
    height: 800

    LessonSession { id: lessonSession }
    Component {
        id: viewComponent
        // Every row built at once: these tests read cells anywhere in the lesson
        // (test_rowsAreBuiltNearTheView below covers building rows as they come near).
        LessonView {
            anchors.fill: parent
            session: lessonSession
            buildAll: true
        }
    }

    Component {
        id: lazyViewComponent
        LessonView {
            anchors.fill: parent
            session: lessonSession
        }
    }

    TestCase {
        name: "Lesson"
        when: windowShown

        property var view: null

        function openLesson(file) {
            lessonSession.open(sourceDir + "/tests/app/fixtures/" + file)
            view = createTemporaryObject(viewComponent, root)
            verify(view)
            waitForRendering(view)
        }
        function rowOf(id) {
            return lessonSession.cells.rowOfCell(id)
        }

        // Reading a long lesson builds the rows near the view only (issue 11: the window is
        // idle soon after opening); a jump builds its row, scrolling builds what comes near.
        function test_rowsAreBuiltNearTheView() {
            lessonSession.open(sourceDir + "/documents/attention.md")
            const lazy = createTemporaryObject(lazyViewComponent, root)
            waitForRendering(lazy)
            const rows = findChild(lazy, "lessonRows")
            const last = rows.count - 1
            const built = () => {
                let n = 0
                for (let i = 0; i < rows.count; ++i)
                    n += rows.itemAt(i).built ? 1 : 0
                return n
            }
            tryVerify(() => rows.itemAt(0).built, 2000, "the first row is built")
            verify(built() < rows.count / 2, "only the rows near the view: " + built() + " of " + rows.count)
            verify(!rows.itemAt(last).built, "the last row waits")
            // A jump builds its row, with its real content.
            lazy.showRow(last)
            verify(rows.itemAt(last).built)
            verify(rows.itemAt(last).item !== null)
            // Scrolling up from there builds the rows above as they come near.
            const middle = Math.floor(rows.count / 2)
            lazy.showRow(middle)
            lazy.contentY -= lazy.height
            tryVerify(() => rows.itemAt(lazy.rowAt(lazy.contentY + 1)).built, 2000,
                      "the row at the top is built")
            // The numbers shown are never a placeholder's: every built cell row has its item.
            for (let i = 0; i < rows.count; ++i) {
                if (rows.itemAt(i).built)
                    verify(rows.itemAt(i).item !== null, "row " + i)
            }
        }

        function test_proseBindingsFollowTheCell() {
            openLesson("window.md")
            compare(lessonSession.cells.data(lessonSession.cells.index(0, 0), CellListModel.KindRole), "prose")
            const before = lessonSession.cells.data(lessonSession.cells.index(0, 0), CellListModel.MarkdownRole)
            verify(before.indexOf("gives 0.2327 of its attention") >= 0, before)
            const changed = signalSpy.createObject(root, { target: lessonSession.cells, signalName: "dataChanged" })
            lessonSession.cell("colour").setHeads(2)
            const after = lessonSession.cells.data(lessonSession.cells.index(0, 0), CellListModel.MarkdownRole)
            verify(after.indexOf("gives 0.1978 of its attention") >= 0, after)
            // Only the prose that quotes the cell was rewritten.
            compare(changed.count, 1)
            // Bindings inside code blocks stay as typed.
            const code = lessonSession.cells.data(lessonSession.cells.index(rowOf("colour") + 1, 0), CellListModel.MarkdownRole)
            verify(code.indexOf("{{colour.output[0]}}") >= 0, code)
        }

        // A what-if that makes a claim false marks the sentence it guards, keeping
        // its words; Reset clears the mark (document-format.md).
        function test_falseClaimIsMarked() {
            openLesson("claims.md")
            const row = rowOf("colour") + 1
            function prose() {
                return lessonSession.cells.data(lessonSession.cells.index(row, 0), CellListModel.MarkdownRole)
            }
            verify(prose().indexOf("not true for your edit") < 0, prose())
            verify(prose().indexOf("The two red tokens end up exactly the same") >= 0, prose())
            lessonSession.cell("colour").setMask("causal")
            const marked = prose()
            verify(marked.indexOf("The two red tokens end up exactly the same") >= 0, marked)
            verify(marked.indexOf("not true for your edit") >= 0, marked)
            verify(marked.indexOf("1.0000 vs 0.7673") >= 0, marked)
            // Only the false claim is marked: blue still gets a share from the second red.
            compare(marked.split("not true for your edit").length, 2)
            // The rendered paragraph shows it too.
            view.showRow(row)
            waitForRendering(view)
            const shown = findChild(view, "prose_" + row)
            verify(shown, "the prose row is rendered")
            verify(shown.getText(0, shown.length).indexOf("not true for your edit") >= 0)
            lessonSession.cell("colour").reset()
            verify(prose().indexOf("not true for your edit") < 0, prose())
        }

        function test_choiceQuiz() {
            openLesson("window.md")
            const quiz = findChild(view, "quiz_zero_score")
            verify(quiz)
            view.showRow(rowOf("zero_score"))
            waitForRendering(view)
            const check = findChild(quiz, "check")
            verify(!check.enabled, "nothing chosen yet")
            mouseClick(findChild(quiz, "choice_0"))
            mouseClick(check)
            compare(quiz.quiz.verdict, "wrong")
            // A wrong try keeps the answer and the explanation hidden: try again.
            verify(!findChild(quiz, "explanation").visible)
            verify(findChild(quiz, "showAnswer").visible)
            mouseClick(findChild(quiz, "choice_1"))
            mouseClick(check)
            compare(quiz.quiz.verdict, "right")
            verify(findChild(quiz, "verdict").text.indexOf("✓") === 0)
            verify(findChild(quiz, "explanation").visible)
            verify(!findChild(quiz, "showAnswer").visible)
        }

        function test_numberQuizFollowsItsCell() {
            openLesson("window.md")
            const quiz = findChild(view, "quiz_blue_share")
            view.showRow(rowOf("blue_share"))
            waitForRendering(view)
            const field = findChild(quiz, "answer")
            mouseClick(field)
            keyClick(Qt.Key_0)
            keyClick(Qt.Key_Period)
            keyClick(Qt.Key_2)
            keyClick(Qt.Key_3)
            keyClick(Qt.Key_3)
            keyClick(Qt.Key_Return)
            compare(quiz.quiz.verdict, "right", quiz.quiz.feedback)
            // The bound cell changes: the answer moves, and the verdict with it.
            lessonSession.cell("colour").setHeads(2)
            compare(quiz.quiz.verdict, "wrong")
            verify(quiz.quiz.feedback.indexOf("0.1978") < 0, "the answer stays hidden: " + quiz.quiz.feedback)
            mouseClick(findChild(quiz, "showAnswer"))
            compare(quiz.quiz.verdict, "revealed")
            verify(quiz.quiz.feedback.indexOf("0.1978") >= 0, quiz.quiz.feedback)
            verify(findChild(quiz, "explanation").visible)
            // The card shows no cell id to students.
            verify(!findChild(quiz, "cardCellId") || !findChild(quiz, "cardCellId").visible
                   || findChild(quiz, "cardCellId").text === "")
            lessonSession.cell("colour").reset()
            quiz.quiz.checkNumber("0.2327")
            compare(quiz.quiz.verdict, "right")
            // A decimal comma is refused with the reason.
            quiz.quiz.checkNumber("0,2327")
            compare(quiz.quiz.verdict, "refused")
            verify(quiz.quiz.feedback.indexOf("use a point") >= 0)
        }

        function test_chart() {
            openLesson("window.md")
            const chart = findChild(view, "chart_cost")
            verify(chart)
            compare(chart.chart.series.length, 2)
            verify(chart.chart.xLog && chart.chart.yLog)
            compare(chart.chart.describe("whole text", 64, 2048), "n = 64: whole text 2,048")
        }

        function test_outlineJumps() {
            openLesson("window.md")
            compare(lessonSession.outline.count, 3)
            compare(lessonSession.outline.data(lessonSession.outline.index(2, 0), OutlineModel.TitleRole), "Quizzes")
            const target = lessonSession.outline.data(lessonSession.outline.index(2, 0), OutlineModel.TargetRowRole)
            view.showRow(target)
            verify(view.contentY > 0)
            compare(view.currentRow, target)
        }

        function test_brokenLessonStillOpens() {
            openLesson("broken.md")
            compare(lessonSession.problems.errorCount, 2)
            const panel = findChild(view, "problemPanel")
            verify(panel.visible)
            const first = lessonSession.problems.data(lessonSession.problems.index(0, 0), ProblemListModel.LocationRole)
            compare(first, "broken.md:10:15")
            // The cells with errors show their source; the valid one is live.
            compare(lessonSession.cells.data(lessonSession.cells.index(rowOf("bad"), 0), CellListModel.KindRole), "broken")
            compare(lessonSession.cells.data(lessonSession.cells.index(rowOf("good"), 0), CellListModel.KindRole), "attention")
            verify(findChild(view, "attention_good"))
            // Clicking the second problem scrolls to its cell.
            const problem = findChild(panel, "problem_1")
            verify(problem)
            compare(problem.targetRow, rowOf("wide"))
            view.height = 300
            mouseClick(problem)
            verify(view.contentY > 0)
        }
    }

    Component {
        id: signalSpy
        SignalSpy {}
    }
}
