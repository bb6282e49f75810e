import QtQuick
import QtQuick.Controls
import QtTest
import Attnbook
import Attnbook.Models

// The window under a teacher's hands (trips 7, 10 and 14): disabled controls look
// disabled, Ctrl+Z answers wherever the keyboard is, nothing moves under the pointer, tooltips
// get out of the way, and the words and menus say what they mean.
Item {
    id: root

    Component {
        id: mainComponent
        Main {}
    }

    TestCase {
        name: "WindowPolish"
        when: windowShown

        function activeWindow(path) {
            const window = createTemporaryObject(mainComponent, root,
                                                 { initialPath: path, themeName: "light" })
            verify(window)
            tryVerify(() => window.session.loaded)
            window.editingLesson = false
            window.zoom = 1.0
            window.requestActivate()
            tryVerify(() => window.active)
            return window
        }
        function lesson() { return sourceDir + "/tests/app/fixtures/window.md" }
        function named(window, name) {
            const view = findChild(window.contentItem, "lessonView")
            let found = null
            tryVerify(() => (found = findChild(view, name)) !== null, 5000, name)
            return found
        }
        function clickOn(window, item) {
            mouseClick(item, item.width / 2, item.height / 2)
        }

        // A disabled button is drawn in the theme's disabled colour, in both themes and after
        // the theme changes: `palette.buttonText` on the window also set the disabled group,
        // so Back at the first step and Keep with nothing kept read as enabled (trip 10).
        function test_disabledControlsLookDisabled() {
            const window = activeWindow(lesson())
            const back = named(window, "traceBack")
            const next = named(window, "traceNext")
            const keep = named(window, "keep")
            verify(!back.enabled, "Back at the first step")
            verify(next.enabled)
            verify(!keep.enabled, "nothing to keep in a lesson just opened")
            const light = { disabled: "#9aa0a8", enabled: String(Theme.text) }
            compare(String(back.palette.buttonText), light.disabled)
            compare(String(keep.palette.buttonText), light.disabled)
            compare(String(next.palette.buttonText), light.enabled)
            window.themeName = "dark"
            compare(String(back.palette.buttonText), "#6c727c")
            compare(String(keep.palette.buttonText), "#6c727c")
            compare(String(next.palette.buttonText), String(Theme.text))
            window.themeName = "light"
            compare(String(back.palette.buttonText), light.disabled, "after the theme changed back")
            compare(String(next.palette.buttonText), light.enabled)
        }

        // Where `item` is in the window.
        function yInWindow(window, item) { return item.mapToItem(window.contentItem, 0, 0).y }

        // Choosing 2 heads moves nothing under the pointer, at any width: the cell's summary
        // above the controls ("1 head, d_k = 4" → "2 heads, d_k = 2 each") takes another line
        // in a narrow window, which pushed the controls down under the pointer (trip 7).
        function test_headsStayUnderThePointer() {
            for (const width of [1180, 900, 760, 700, 640]) {
                const window = activeWindow(lesson())
                window.width = width
                const view = findChild(window.contentItem, "lessonView")
                view.showRow(window.session.cells.rowOfCell("colour"))
                wait(700)
                const cell = window.session.cell("colour")
                const two = named(window, "heads_2")
                const before = yInWindow(window, two)
                mouseClick(two, two.width / 2, two.height / 2)
                tryVerify(() => cell.heads === 2)
                wait(300)
                compare(yInWindow(window, two), before, "heads at " + width + " pixels")
                // The next click lands where it was aimed: back to one head.
                const one = named(window, "heads_1")
                const oneBefore = yInWindow(window, one)
                mouseClick(one, one.width / 2, one.height / 2)
                tryVerify(() => cell.heads === 1)
                wait(300)
                compare(yInWindow(window, one), oneBefore, "back to 1 head at " + width + " pixels")
                compare(cell.n, 3, "no token removed")
                window.destroy()
            }
        }

        // At the end of a lesson the view keeps to the end; opening a sample answer there
        // pushed its button up, out of view for a long answer (trip 7).
        function test_sampleAnswerButtonStays() {
            const window = activeWindow(sourceDir + "/documents/attention.md")
            window.height = 700
            const view = findChild(window.contentItem, "lessonView")
            view.forceActiveFocus()
            keyClick(Qt.Key_End, Qt.ControlModifier)
            wait(800)
            keyClick(Qt.Key_End, Qt.ControlModifier)
            wait(300)
            let button = null
            for (let row = window.session.cells.count - 1; row >= 0 && !button; --row)
                button = findChild(view, "showAnswer_" + row)
            verify(button, "a sample answer's button at the end")
            const before = yInWindow(window, button)
            verify(before > 0 && before < window.height, "in view: " + before)
            mouseClick(button, button.width / 2, button.height / 2)
            tryVerify(() => button.text === "Hide the sample answer")
            wait(400)
            compare(yInWindow(window, button), before, "the button stays under the pointer")
            mouseClick(button, button.width / 2, button.height / 2)
            tryVerify(() => button.text === "Show a sample answer")
        }

        // Ctrl+Z right after a value typed into a matrix and applied with Enter: the keyboard is
        // still in the matrix, whose text field took every Ctrl+Z for its own text (trip 10).
        function test_undoFromAMatrixEntry() {
            const window = activeWindow(lesson())
            const cell = window.session.cell("colour")
            verify(cell)
            const first = named(window, "entry_W_Q_0_0")
            window.session.cells // the lesson view shows the cell
            findChild(window.contentItem, "lessonView").showRow(window.session.cells.rowOfCell("colour"))
            wait(200)
            clickOn(window, first)
            tryVerify(() => first.activeFocus)
            keyClick(Qt.Key_5)
            keyClick(Qt.Key_Return)
            tryVerify(() => cell.edited)
            const below = named(window, "entry_W_Q_1_0")
            verify(below.activeFocus, "Enter moved to the entry below")
            keySequence(StandardKey.Undo)
            tryVerify(() => !cell.edited, 3000, "Ctrl+Z with the keyboard in the matrix")
            compare(first.text, "1")
            verify(below.activeFocus, "the keyboard stays where it was")

            // In the last row Enter leaves the keyboard in the entry it applied: after Ctrl+Z
            // the entry shows the value back, and leaving it applies nothing.
            const last = named(window, "entry_W_Q_3_3")
            clickOn(window, last)
            tryVerify(() => last.activeFocus)
            keyClick(Qt.Key_7)
            keyClick(Qt.Key_Return)
            tryVerify(() => cell.edited)
            verify(last.activeFocus)
            keySequence(StandardKey.Undo)
            tryVerify(() => !cell.edited)
            compare(last.text, "1")
            keyClick(Qt.Key_Tab)
            wait(100)
            verify(!cell.edited, "leaving the entry did not apply the undone value again")

            // Something typed and not applied is the field's own to undo.
            clickOn(window, first)
            tryVerify(() => first.activeFocus)
            keyClick(Qt.Key_9)
            keySequence(StandardKey.Undo)
            verify(!cell.edited)
            verify(first.text !== "9", "the typing was undone: " + first.text)
            keyClick(Qt.Key_Escape)
        }

        // A tooltip waits half a second even when its control asks for none, leaves after
        // five, and goes at the next press: the heads' tip stayed over the tokens above it
        // after the click that chose 2 heads (trip 14).
        function test_toolTipsGetOutOfTheWay() {
            const window = activeWindow(lesson())
            const tip = window.sharedToolTip
            verify(tip)
            const view = findChild(window.contentItem, "lessonView")
            view.ToolTip.show("asked with no delay")
            compare(tip.delay, 500)
            verify(!tip.visible, "not at once")
            tryVerify(() => tip.visible, 2000)
            compare(tip.timeout, 5000)
            tip.hide()

            const two = named(window, "heads_2")
            // (The offscreen platform asks for no hover effects: the controls are told to.)
            two.hoverEnabled = true
            mouseMove(two, two.width / 2, two.height / 2)
            tryVerify(() => tip.visible && tip.text === "2 heads, each 2 wide", 3000)
            mouseClick(two, two.width / 2, two.height / 2)
            tryVerify(() => !tip.visible, 1000, "a press hides the tooltip")
            compare(window.session.cell("colour").heads, 2, "the press still reached the button")
            // Back over a control: its tooltip shows again, then leaves on its own.
            const one = named(window, "heads_1")
            one.hoverEnabled = true
            mouseMove(one, one.width / 2, one.height / 2)
            tryVerify(() => tip.visible && tip.text === "1 head, 4 wide", 3000)
            tryVerify(() => !tip.visible, 7000, "gone after five seconds")
            window.session.cell("colour").reset()
        }

        // Every menu item made from an Action with a shortcut shows its keys (trip 14).
        function test_menusShowTheirShortcuts() {
            const window = activeWindow(lesson())
            function hintOf(name) {
                const item = findChild(window, name)
                verify(item, name)
                for (let i = 0; i < item.children.length; ++i) {
                    if (item.children[i].objectName === "shortcutHint")
                        return item.children[i].text
                }
                return ""
            }
            compare(hintOf("undoMenuItem"), "Ctrl+Z")
            compare(hintOf("redoMenuItem"), "Ctrl+Shift+Z")
            compare(hintOf("editLessonMenuItem"), "Ctrl+E")
            compare(hintOf("zoomInMenuItem"), "Ctrl++")
            compare(hintOf("printMenuItem"), "Ctrl+P")
            compare(hintOf("guideMenuItem"), "F1")
            compare(hintOf("exportMenuItem"), "Ctrl+Shift+E")
        }

        // Right-click a matrix → Copy: it says it copied, beside the table (trip 14).
        function test_copyingSaysSo() {
            const window = activeWindow(lesson())
            const matrix = named(window, "matrix_W_Q")
            findChild(window.contentItem, "lessonView").showRow(window.session.cells.rowOfCell("colour"))
            wait(300)
            const tip = findChild(matrix, "copiedTip")
            verify(tip, "a tip to say so")
            verify(!tip.visible)
            const entry = named(window, "entry_W_Q_1_1")
            mouseClick(entry, entry.width / 2, entry.height / 2, Qt.RightButton)
            const menu = findChild(matrix, "copyMenu")
            tryVerify(() => menu.opened)
            const item = menu.itemAt(0)
            mouseClick(item, item.width / 2, item.height / 2)
            tryVerify(() => tip.visible)
            compare(tip.text, "Copied the 4 × 4 values as shown")
            tryVerify(() => !tip.visible, 4000, "and goes")
        }

        // The window opens at the size it had when it last closed (trip 14).
        function test_windowSizeIsRemembered() {
            const window = activeWindow(lesson())
            window.width = 900
            window.height = 640
            window.close()
            wait(800) // Qt.labs.settings writes a moment later
            const again = activeWindow(lesson())
            compare(again.width, 900)
            compare(again.height, 640)
            // Back to the size the other tests expect.
            again.width = 1180
            again.height = 820
            again.close()
            wait(800)
        }
    }
}
