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

        // Reading a long lesson builds the rows near the view only (the window is
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

        // Reading to the end lets the rows far behind go again (memory), each
        // keeping its height so that nothing moves; coming back builds them again.
        // The shot command's --cell shows one cell: only its row is built. Every other row is
        // hidden and takes no room, and all of them were built (a shot of one cell of a lesson
        // of 2,500 rows: 27 s and 1 GB).
        function test_oneCellBuildsOneRow() {
            lessonSession.open(sourceDir + "/documents/attention.md")
            const one = createTemporaryObject(lazyViewComponent, root, { onlyCell: "playground" })
            waitForRendering(one)
            const rows = findChild(one, "lessonRows")
            verify(rows.count > 20)
            wait(100) // the timers that build rows near the view
            let built = []
            for (let i = 0; i < rows.count; ++i) {
                if (rows.itemAt(i).built)
                    built.push(rows.itemAt(i).cellId)
            }
            compare(built, ["playground"])
        }

        function test_farRowsAreLetGo() {
            const lazy = openLazy()
            const rows = findChild(lazy, "lessonRows")
            const first = rows.itemAt(0)
            const firstHeight = first.height
            for (let y = 0; y < lazy.contentHeight; y += lazy.height / 2) {
                lazy.contentY = Math.min(y, lazy.contentHeight - lazy.height)
                wait(0)
            }
            tryVerify(() => !first.built, 2000, "the first row is let go at the end")
            compare(first.item, null)
            compare(first.height, firstHeight, "a row let go keeps its height")
            const pageHeight = lazy.pageHeight // every row built once: each at its own height
            let built = 0
            for (let i = 0; i < rows.count; ++i)
                built += rows.itemAt(i).built ? 1 : 0
            verify(built < rows.count / 2, "only the rows near the end: " + built + " of " + rows.count)
            lazy.contentY = 0
            tryVerify(() => first.built && first.item !== null, 2000, "built again at the top")
            compare(lazy.pageHeight, pageHeight, "nothing moved")
        }

        function openLazy() {
            lessonSession.open(sourceDir + "/documents/attention.md")
            const lazy = createTemporaryObject(lazyViewComponent, root)
            waitForRendering(lazy)
            tryVerify(() => lazy.rowsPlaced && findChild(lazy, "lessonRows").itemAt(0).built, 2000)
            // A new view holds its place while it is first laid out (LessonView.holding).
            tryVerify(() => !lazy.holding, 3000)
            return lazy
        }
        function topInView(view, item) {
            return item.mapToItem(view, 0, 0).y
        }

        // A lesson only opened builds what is on its first screen, and a row not built is an
        // empty item: none of its tools or content exist (a thousand rows cost a thousand
        // small items). Once the reader moves, the rows about to come into view are built.
        function test_openingBuildsTheFirstScreenOnly() {
            const lazy = openLazy()
            const rows = findChild(lazy, "lessonRows")
            wait(200) // time for any building the view would do on its own
            // A row in view is built; one below the view is not, unless it was in view when
            // the rows were built (the rows above it were placeholders then, of estimated
            // heights): none starts more than half a screen below the view.
            let firstOutOfView = -1
            for (let i = 0; i < rows.count; ++i) {
                const entry = rows.itemAt(i)
                const top = topInView(lazy, entry)
                if (top < lazy.height)
                    verify(entry.built, "row " + i + " is in view")
                else if (firstOutOfView < 0)
                    firstOutOfView = i
                if (top > 1.5 * lazy.height) {
                    verify(!entry.built, "row " + i + " is below the first screen")
                    compare(entry.children.length, 1, "row " + i + ": an empty loader only")
                    compare(findChild(entry, "edit_" + i), null)
                    compare(findChild(entry, "rowHighlight_" + i), null)
                    compare(entry.height, entry.estimatedHeight)
                }
            }
            verify(firstOutOfView > 0, "the first screen ends within the lesson")
            // The reader scrolls a little: the next screens are built, one row at a time.
            lazy.contentY = 40
            tryVerify(() => rows.itemAt(firstOutOfView).built, 3000, "the row below the view")
            verify(findChild(rows.itemAt(firstOutOfView), "rowHighlight_" + firstOutOfView) !== null)
            // … but not the far end of the lesson.
            wait(300)
            verify(!rows.itemAt(rows.count - 1).built, "the last row waits")
        }

        // Scroll anchoring: the reader scrolls up into rows not built yet (after a jump far
        // down); as they are built, their height changes from the estimate to their own, and
        // the row the reader was looking at stays where it was on screen.
        function test_anchorKeepsTheVisibleRowStill() {
            const lazy = openLazy()
            const rows = findChild(lazy, "lessonRows")
            const last = rows.count - 1
            lazy.showRow(last)
            // Let the rows around the jump be built, then find the highest built row of the run
            // that ends at the last row.
            let settled = -1
            tryVerify(() => {
                let first = last
                while (first > 0 && rows.itemAt(first - 1).built)
                    --first
                const same = first === settled
                settled = first
                wait(100)
                return same
            }, 10000, "the rows near the jump are built")
            const anchor = settled
            verify(anchor > 1, "rows above the jump are still placeholders: " + anchor)
            verify(!rows.itemAt(anchor - 1).built)
            // Scroll so that the anchor row starts in the lower half of the view, with
            // placeholders above it on screen.
            lazy.contentY = rows.itemAt(anchor).y + rows.itemAt(anchor).parent.y - lazy.height / 2
            const placeholders = []
            for (let i = anchor - 1; i >= 0 && topInView(lazy, rows.itemAt(i)) + rows.itemAt(i).height > -lazy.height; --i)
                placeholders.push({ row: i, estimate: rows.itemAt(i).height })
            const before = topInView(lazy, rows.itemAt(anchor))
            tryVerify(() => rows.itemAt(anchor - 1).built, 3000, "the row above the anchor is built")
            wait(300) // the rows settle (an attention cell lays itself out over frames)
            let moved = 0
            for (const p of placeholders) {
                if (rows.itemAt(p.row).built)
                    moved += rows.itemAt(p.row).height - p.estimate
            }
            // The test means something only if the rows built above changed height.
            verify(Math.abs(moved) > 20, "the rows above changed height by " + moved)
            fuzzyCompare(topInView(lazy, rows.itemAt(anchor)), before, 1)
        }

        // At the very end (Ctrl+End), the view stays at the end while the last rows are
        // built taller or shorter than their estimates.
        function test_theEndStaysAtTheEnd() {
            const lazy = openLazy()
            const rows = findChild(lazy, "lessonRows")
            const last = rows.count - 1
            const estimated = lazy.contentHeight
            lazy.contentY = lazy.contentHeight - lazy.height
            tryVerify(() => rows.itemAt(last).built, 3000)
            wait(300)
            verify(Math.abs(lazy.contentHeight - estimated) > 20, "the lesson's height changed by "
                   + (lazy.contentHeight - estimated))
            fuzzyCompare(lazy.contentY, lazy.contentHeight - lazy.height, 1)
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
        // its words; Reset clears the mark (docs/lesson-format.md).
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
            // A short mark; the claim and its values are in its link, shown on hover.
            verify(marked.indexOf("(#claim:") >= 0, marked)
            verify(decodeURIComponent(marked).indexOf("1.0000 vs 0.7673") >= 0, marked)
            verify(marked.indexOf("near(") < 0, marked) // the expression is not in the sentence
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

        // Zooming grew the body text but left the headings at the size the
        // document had set them to, so at 175 % an H2 was the size of the body.
        function test_headingsFollowTheZoom() {
            openLesson("window.md")
            let row = -1
            for (let r = 0; r < lessonSession.cells.count && row < 0; ++r) {
                const markdown = lessonSession.cells.data(lessonSession.cells.index(r, 0), CellListModel.MarkdownRole)
                if (String(markdown).startsWith("## "))
                    row = r
            }
            verify(row >= 0, "a prose row that starts with a heading")
            view.showRow(row)
            waitForRendering(view)
            const prose = findChild(view, "prose_" + row)
            verify(prose, "the prose row is rendered")
            const heading = prose.positionToRectangle(0).height
            const body = prose.positionToRectangle(prose.length - 1).height
            verify(heading > body * 1.2, heading + " vs " + body)
            Theme.zoom = 1.75
            waitForRendering(view)
            const zoomedHeading = prose.positionToRectangle(0).height
            const zoomedBody = prose.positionToRectangle(prose.length - 1).height
            Theme.zoom = 1.0
            verify(zoomedBody > body * 1.6, zoomedBody + " vs " + body)
            // The heading keeps its place above the body: it grew as much.
            verify(zoomedHeading > zoomedBody * 1.2, zoomedHeading + " vs " + zoomedBody)
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
            // The axes QtCharts draws carry the PDF's tick labels, every decade in one style and
            // the top one labelled: its LogValueAxis wrote "1e+06" beside "100000" and ended
            // at the data's 500,000.
            const yAxis = chart.axes.y
            compare(yAxis.categoriesLabels, ["10⁻¹", "10⁰", "10¹", "10²", "10³", "10⁴", "10⁵", "10⁶"])
            compare(yAxis.max, 6)
            compare(chart.axes.x.categoriesLabels, ["1", "10", "100", "1,000"])
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
