import QtQuick
import QtQuick.Controls
import QtTest
import Attnbook
import Attnbook.Models

// The transformer lesson's playground in front of a class: typing a word in "+ add a word" adds
// one token (not one per keystroke), one drag of the temperature slider is one Undo step, no
// control moves when a neighbour's value changes, and the cell keeps its chosen view and stage
// when it scrolls away and back.
Item {
    id: root

    Component {
        id: mainComponent
        Main {}
    }

    TestCase {
        name: "TransformerControls"
        when: windowShown

        function openPlayground() {
            const window = createTemporaryObject(mainComponent, root, {
                initialPath: sourceDir + "/documents/transformer.md", themeName: "light"
            })
            verify(window)
            window.width = 1180
            window.height = 900
            tryVerify(() => window.session.loaded)
            window.editingLesson = false
            const view = findChild(window.contentItem, "lessonView")
            // Shown as the outline shows a cell: at the top of the view, where clicks land on it
            // and it stays built.
            view.showRow(window.session.cells.rowOfCell("playground"))
            wait(500)
            const card = view.itemOfCell("playground")
            verify(card)
            return { window: window, view: view, card: card, cell: card.cell }
        }
        function named(item, name) {
            let found = null
            tryVerify(() => (found = findChild(item, name)) !== null, 5000, name)
            return found
        }
        function xIn(window, item) { return item.mapToItem(window.contentItem, 0, 0).x }

        function test_typedWordAddsOneToken() {
            const p = openPlayground()
            const box = named(p.card, "addToken")
            const before = p.cell.n
            box.forceActiveFocus()
            for (const key of [Qt.Key_U, Qt.Key_N, Qt.Key_I, Qt.Key_C, Qt.Key_O, Qt.Key_R, Qt.Key_N])
                keyClick(key)
            wait(50)
            compare(p.cell.n, before, "typing picks nothing yet")
            verify(box.popup.visible, "typing opened the list")
            keyClick(Qt.Key_Return)
            tryCompare(p.cell, "n", before + 1)
            verify(p.cell.undoWhatIf())
            compare(p.cell.n, before)
            verify(!p.cell.canUndoWhatIf, "one word, one step")
        }

        function test_oneDragIsOneUndoStep() {
            const p = openPlayground()
            const slider = named(p.card, "temperature")
            const authored = p.cell.temperature
            const y = slider.height / 2
            mousePress(slider, slider.width / 2, y)
            for (let i = 1; i <= 15; ++i)
                mouseMove(slider, slider.width / 2 + i * 4, y)
            mouseRelease(slider, slider.width / 2 + 60, y)
            verify(p.cell.temperature > authored, "the drag raised the temperature")
            verify(p.cell.undoWhatIf())
            compare(p.cell.temperature, authored)
            verify(!p.cell.canUndoWhatIf, "the whole drag was one step")
        }

        function test_noControlMovesWhenANeighbourChanges() {
            const p = openPlayground()
            const generate = named(p.card, "generateSteps")
            const nextTab = named(p.card, "view_next")
            const streamTab = named(p.card, "view_stream")
            const generateX = xIn(p.window, generate)
            const nextX = xIn(p.window, nextTab)
            // The temperature's readout grows from "1" to "0.25"; Generate stays.
            compare(p.cell.setTemperature(0.25), "")
            wait(50)
            compare(xIn(p.window, generate), generateX)
            // Running one layer of two: the view buttons stay.
            compare(p.cell.setLayersRun(1), "")
            wait(50)
            compare(xIn(p.window, nextTab), nextX)
            // The chosen view is drawn bold: its neighbours stay.
            mouseClick(streamTab)
            wait(50)
            compare(xIn(p.window, nextTab), nextX)
            // The stream's Next button stays as the stage's name changes.
            const next = named(p.card, "streamNext")
            const nextButtonX = xIn(p.window, next)
            mouseClick(next)
            wait(50)
            compare(xIn(p.window, named(p.card, "streamNext")), nextButtonX)
            // Keep makes an unsaved change: Save is enabled where it stood, Edit lesson stays.
            const edit = named(p.window.contentItem, "editLessonButton")
            const save = named(p.window.contentItem, "saveButton")
            const editX = xIn(p.window, edit)
            const saveX = xIn(p.window, save)
            verify(!save.enabled)
            verify(p.cell.keep().startsWith("Kept"))
            tryVerify(() => p.window.session.unsavedChanges)
            wait(50)
            verify(save.enabled)
            compare(xIn(p.window, edit), editX)
            compare(xIn(p.window, save), saveX)
            p.cell.reset()
        }

        function test_viewAndStageStayWhenTheCellScrollsAway() {
            const p = openPlayground()
            mouseClick(named(p.card, "view_stream"))
            mouseClick(named(p.card, "streamNext"))
            mouseClick(named(p.card, "streamNext"))
            const stage = named(p.card, "streamStage").text
            verify(stage.startsWith("Stage 3 of"), stage)
            // To the top and back: the card is made again.
            p.view.contentY = 0
            wait(300)
            const card = p.view.itemOfCell("playground")
            verify(card)
            compare(named(card, "streamStage").text, stage)
        }

        // At the top of a lesson the outline highlights its first heading, the section in view.
        function test_outlineHighlightsTheSectionInView() {
            const window = createTemporaryObject(mainComponent, root, {
                initialPath: sourceDir + "/documents/transformer.md", themeName: "light"
            })
            window.width = 1180
            window.height = 900
            tryVerify(() => window.session.loaded)
            wait(200)
            const list = findChild(window.contentItem, "outline")
            verify(list)
            compare(list.currentIndex, 0)
        }
    }
}
