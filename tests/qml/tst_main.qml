import QtQuick
import QtTest
import Attnbook
import Attnbook.Models
import Attnbook.Window

// The window as a whole: the lesson it opens, its title, the recent files,
// the theme and the outline beside the lesson.
Item {
    id: root

    Component {
        id: mainComponent
        Main {}
    }

    TestCase {
        name: "Main"
        when: windowShown

        function openWindow(path) {
            const window = createTemporaryObject(mainComponent, root,
                                                 { initialPath: path, themeName: "light" })
            verify(window)
            tryVerify(() => window.session.loaded)
            return window
        }

        function test_titleAndFile() {
            const path = sourceDir + "/tests/app/fixtures/window.md"
            const window = openWindow(path)
            compare(window.title, "Window test lesson — window.md — attnbook")
            compare(findChild(window.contentItem, "lessonTitle").text, "Window test lesson")
        }

        // File → Print… (Ctrl+P), beside Export, for an open lesson. (What it prints is
        // test_lesson_printer's; the system print dialog itself needs a person.)
        function test_printInTheFileMenu() {
            const window = openWindow(sourceDir + "/tests/app/fixtures/window.md")
            const item = findChild(window, "printMenuItem")
            verify(item, "File → Print… is in the menu")
            const action = findChild(window, "printAction")
            verify(action)
            compare(item.action, action)
            compare(action.shortcut, StandardKey.Print)
            verify(action.enabled)
            compare(action.text, "&Print…")
        }

        function test_bundledLessonWithoutFile() {
            const window = openWindow("")
            verify(window.session.bundled)
            compare(window.session.title, "Attention")
            verify(window.session.outline.count > 10)
        }

        function test_recentFiles() {
            const recent = createTemporaryObject(recentComponent, root)
            recent.clear()
            const path = sourceDir + "/tests/app/fixtures/window.md"
            openWindow(path)
            const again = createTemporaryObject(recentComponent, root)
            compare(again.files[0], path)
            openWindow("")
            compare(createTemporaryObject(recentComponent, root).files.length, 1,
                    "the bundled lesson is not a recent file")
            again.clear()
        }

        // Reading mode: no authoring tools, and no key reaches a hidden
        // one; Ctrl+E (View → Edit lesson) shows them, and the choice is remembered.
        function test_readingMode() {
            const window = openWindow(sourceDir + "/tests/app/fixtures/window.md")
            window.editingLesson = false
            window.requestActivate()
            tryVerify(() => window.active)
            const view = findChild(window.contentItem, "lessonView")
            // A row's tools are made with the row, once the column has placed it.
            tryVerify(() => findChild(view, "edit_1") !== null)
            const edit = findChild(view, "edit_1")
            verify(!edit.visible, "no Edit above a paragraph while reading")
            verify(!findChild(window.contentItem, "editLessonButton").checked)
            // The keyboard walks the lesson; Space and Enter open nothing.
            for (let i = 0; i < 12; ++i) {
                keyClick(Qt.Key_Tab)
                const focused = window.activeFocusItem
                verify(!focused || !focused.objectName.startsWith("edit_"), focused ? focused.objectName : "")
                // Only what is in the lesson: the header's buttons (Edit lesson, Open…) do what
                // they say, and Open…'s file dialog would take the keys that follow.
                let inLesson = false
                for (let item = focused; item; item = item.parent)
                    inLesson = inLesson || item === view
                if (!inLesson)
                    continue
                keyClick(Qt.Key_Space)
                keyClick(Qt.Key_Return)
                verify(!window.editingLesson)
            }
            verify(!findChild(view, "proseEditor"), "no prose editor opened while reading")
            // A reader's control may have opened its menu (a token's words): closed, as a reader
            // would, before the shortcut below.
            keyClick(Qt.Key_Escape)
            keyClick(Qt.Key_Escape)
            view.editRow(1)
            verify(!findChild(view, "proseEditor"), "editRow does nothing while reading")

            keyClick(Qt.Key_E, Qt.ControlModifier)
            verify(window.editingLesson)
            tryVerify(() => edit.visible)
            verify(findChild(window.contentItem, "editLessonButton").checked)
            // Focus on a tool, then back to reading: Space must not press the hidden Edit.
            edit.forceActiveFocus()
            verify(edit.activeFocus)
            keyClick(Qt.Key_E, Qt.ControlModifier)
            verify(!window.editingLesson)
            tryVerify(() => !edit.activeFocus)
            keyClick(Qt.Key_Space)
            keyClick(Qt.Key_Return)
            verify(!findChild(view, "proseEditor"))

            // Not remembered: the next window opens in reading mode, as students see it, even
            // when this one was left editing. (Qt.labs.settings writes a moment later.)
            window.editingLesson = true
            wait(800)
            const again = openWindow("")
            verify(!again.editingLesson)
            window.editingLesson = false
        }

        function activeWindow(path) {
            const window = openWindow(path)
            window.requestActivate()
            tryVerify(() => window.active)
            return window
        }

        // Zoom scales the lesson's text and cells, and is remembered.
        function test_zoom() {
            const window = activeWindow(sourceDir + "/tests/app/fixtures/window.md")
            window.zoom = 1.0
            const prose = Theme.proseSize
            const view = findChild(window.contentItem, "lessonView")
            const height = view.contentHeight
            keyClick(Qt.Key_Plus, Qt.ControlModifier)
            fuzzyCompare(window.zoom, 1.1, 1e-9)
            compare(Theme.zoom, window.zoom)
            verify(Theme.proseSize > prose)
            keyClick(Qt.Key_Equal, Qt.ControlModifier)
            fuzzyCompare(window.zoom, 1.25, 1e-9)
            tryVerify(() => view.contentHeight > height * 1.1, 3000, "the lesson grew with the zoom")
            wait(300)
            grabImage(window.contentItem).save(shotsFolder + "/classroom-zoom-125.png")
            // The cells' tables follow: a row of a matrix is taller.
            const table = findChild(view, "matrix_weights_h0")
            verify(table)
            compare(table.rowHeight, Math.round(26 * 1.25))
            // Remembered for the next window (Qt.labs.settings writes a moment later).
            wait(800)
            const again = openWindow("")
            fuzzyCompare(again.zoom, 1.25, 1e-9)
            again.destroy()
            window.requestActivate()
            tryVerify(() => window.active)
            keyClick(Qt.Key_0, Qt.ControlModifier)
            compare(window.zoom, 1.0)
            compare(Theme.proseSize, prose)
            keyClick(Qt.Key_Minus, Qt.ControlModifier)
            fuzzyCompare(window.zoom, 0.9, 1e-9)
            window.zoom = 1.0
        }

        // F11 presents: full screen, the lesson alone and larger; Esc leaves.
        function test_presenting() {
            const window = activeWindow(sourceDir + "/tests/app/fixtures/window.md")
            window.zoom = 1.0
            const header = findChild(window, "headerTitle")
            verify(header.visible)
            // Something holds the keyboard from the start, so the first key is answered.
            tryVerify(() => window.activeFocusItem !== null)
            window.editingLesson = true
            keyClick(Qt.Key_F11)
            verify(window.presenting, "F11 as the first key")
            // Presenting reads: no row tools even in Edit lesson mode.
            const edit = findChild(findChild(window.contentItem, "lessonView"), "edit_1")
            verify(!edit.visible, "presenting shows no row tools")
            fuzzyCompare(Theme.zoom, window.presentingScale, 1e-9)
            verify(!header.visible, "the header is hidden while presenting")
            verify(!window.menuBar.visible)
            compare(window.visibility, Window.FullScreen)
            wait(300)
            grabImage(window.contentItem).save(shotsFolder + "/classroom-presenting.png")
            keyClick(Qt.Key_Escape)
            verify(!window.presenting)
            compare(Theme.zoom, 1.0)
            verify(header.visible)
            verify(window.visibility !== Window.FullScreen)
            window.editingLesson = false
        }

        // Ctrl+F: the find bar; Enter, Shift+Enter; the row of the hit outlined; Esc closes.
        function test_find() {
            const window = activeWindow(sourceDir + "/tests/app/fixtures/window.md")
            const view = findChild(window.contentItem, "lessonView")
            const bar = findChild(window.contentItem, "findBar")
            verify(!bar.visible)
            keyClick(Qt.Key_F, Qt.ControlModifier)
            verify(bar.visible)
            const field = findChild(bar, "findField")
            tryVerify(() => field.activeFocus)
            keyClick(Qt.Key_R)
            keyClick(Qt.Key_E)
            keyClick(Qt.Key_D)
            const status = findChild(bar, "findStatus")
            const total = Number(status.text.split(" of ")[1])
            verify(total >= 3, status.text)
            const first = view.searchRow
            verify(first >= 0)
            verify(findChild(view, "rowHighlight_" + first).visible, "the hit's row is outlined")
            keyClick(Qt.Key_Return, Qt.ShiftModifier)
            compare(status.text, total + " of " + total)
            keyClick(Qt.Key_Return)
            compare(status.text, "1 of " + total)
            // The second hit is the colour cell's first token: the view shows that row.
            keyClick(Qt.Key_Return)
            compare(status.text, "2 of " + total)
            const row = view.searchRow
            compare(row, window.session.cells.rowOfCell("colour"))
            const entryTop = findChild(view, "rowHighlight_" + row).mapToItem(view, 0, 0).y
            verify(entryTop > -view.height && entryTop < view.height, "the hit's row is in view: " + entryTop)
            wait(300)
            grabImage(window.contentItem).save(shotsFolder + "/classroom-find.png")
            keyClick(Qt.Key_Escape)
            verify(!bar.visible)
            compare(view.searchRow, -1)
            verify(!findChild(view, "rowHighlight_" + row).visible)
        }

        // Help → Guide opens the guide, a lesson of its own, in a window of its own.
        function test_helpGuideAndAbout() {
            const window = openWindow(sourceDir + "/tests/app/fixtures/window.md")
            const guide = window.openGuide()
            verify(guide)
            tryVerify(() => guide.session.loaded)
            compare(guide.session.title, "The attnbook guide")
            compare(guide.session.problems.errorCount, 0)
            verify(guide.session.cell("try"), "the guide has a live cell")
            compare(window.session.title, "Window test lesson", "the lesson taught stays open")
            guide.close()
            const about = findChild(window, "aboutDialog")
            about.open()
            tryVerify(() => about.opened)
            verify(findChild(about, "aboutVersion").text.match(/^attnbook \d+\.\d+\.\d+$/),
                   findChild(about, "aboutVersion").text)
            about.close()
        }

        // The reader's place survives Insert, Duplicate, a YAML edit with an error and the theme.
        function test_placeIsKept() {
            const window = activeWindow(sourceDir + "/tests/app/fixtures/window.md")
            window.editingLesson = true
            window.zoom = 1.0
            window.height = 500
            const view = findChild(window.contentItem, "lessonView")
            const session = window.session
            const colour = session.cells.rowOfCell("colour")
            const below = colour + 2
            view.showRow(below)
            wait(300)
            verify(view.contentY > 200, "scrolled into the lesson")
            // The place: where the row `below` sits in the view. (Rows above it may change
            // height, as the problem list does when an error comes or goes: the row stays put.)
            function placeOf() { return findChild(view, "rowHighlight_" + below).mapToItem(view, 0, 0).y }
            let placed = placeOf()
            function kept(what) {
                wait(100)
                tryVerify(() => !view.holding, 5000)
                const atEnd = view.contentY >= view.contentHeight - view.height - 1
                verify(atEnd || Math.abs(placeOf() - placed) < 40, what + ": " + placeOf() + " vs " + placed)
                placed = placeOf()
            }
            // An edit shows its row, scrolling only when it is out of view; never to the top.
            function shown(what, row) {
                wait(100)
                tryVerify(() => !view.holding, 5000)
                verify(view.contentY > 200, what + ": not back at the top")
                const top = findChild(view, "rowHighlight_" + row).mapToItem(view, 0, 0).y
                verify(top > -40 && top < view.height, what + ": the row is in view: " + top)
                placed = placeOf()
            }
            session.editor.insertBelow(below, "prose")
            shown("Insert below", below + 1)
            window.undo()
            kept("Undo of Insert below")
            session.editor.duplicate("cost")
            shown("Duplicate", session.cells.rowOfCell("cost") + 1)
            window.undo()
            kept("Undo of Duplicate")
            window.themeName = "dark"
            kept("Dark theme")
            window.themeName = "light"
            kept("Light theme")
            // A YAML edit with an error: its row (now the source and the error) in view.
            const body = session.editor.cellSource("cost")
            session.editor.setCellSource("cost", body + "\nnot: [valid")
            shown("YAML with an error", session.cells.rowOfCell("cost"))
            window.undo()
            kept("Undo of the YAML edit")
        }

        // Dark theme: the popup menus are dark too (their background is the theme's surface).
        function test_darkMenus() {
            const window = openWindow(sourceDir + "/tests/app/fixtures/window.md")
            window.themeName = "dark"
            window.editingLesson = true
            const view = findChild(window.contentItem, "lessonView")
            tryVerify(() => findChild(view, "insert_1").visible)
            const button = findChild(view, "insert_1")
            button.clicked()
            let menu = null
            for (let i = 0; i < button.data.length; ++i) {
                if (button.data[i].objectName === "insertMenu_1")
                    menu = button.data[i]
            }
            verify(menu, "the Insert below menu")
            tryVerify(() => menu.opened)
            compare(String(menu.background.color), String(Theme.surface))
            menu.close()
            window.editingLesson = false
            window.themeName = "light"
        }

        // Dark theme: a combo box's list is dark too, though the box was made in the light
        // theme (Qt 6.4 kept the popup's first palette: a white list with light text).
        function test_darkComboBoxLists() {
            const window = openWindow(sourceDir + "/tests/app/fixtures/window.md")
            const view = findChild(window.contentItem, "lessonView")
            let box = null
            tryVerify(() => (box = findChild(view, "focusPicker")) !== null)
            window.themeName = "dark"
            box.popup.open()
            tryVerify(() => box.popup.opened)
            compare(String(box.popup.background.color), String(Theme.surface))
            const list = box.popup.contentItem
            // A row that is not the highlighted one: its text in the theme's text colour.
            const other = box.currentIndex === 0 ? 1 : 0
            tryVerify(() => list.itemAtIndex(other) !== null) // qmllint disable type
            const item = list.itemAtIndex(other) // qmllint disable type
            item.highlighted = false
            compare(String(item.contentItem.color), String(Theme.text))
            box.popup.close()
            window.themeName = "light"
            box.popup.open()
            tryVerify(() => box.popup.opened)
            compare(String(box.popup.background.color), String(Theme.surface), "back to light")
            box.popup.close()
        }

        // Visible items under `item` that end right of `limit` (in `view`'s coordinates), as
        // "objectName or type: right edge". Text is measured by its lines, not its box: a code
        // line that does not wrap runs past its box. Clipped items keep their children in.
        function overflowing(view, item, limit, found) {
            if (!item.visible || item.width <= 0)
                return found
            const isText = item.textFormat !== undefined && item.contentWidth !== undefined
            const width = isText ? Math.max(item.width, item.contentWidth) : item.width
            const right = item.mapToItem(view, width, 0).x
            if (right > limit + 1)
                found.push((item.objectName || String(item).split("(")[0]) + ": " + Math.round(right)
                           + (isText ? " «" + String(item.text).slice(0, 40) + "»" : ""))
            if (!item.clip) {
                for (let i = 0; i < item.children.length; ++i)
                    overflowing(view, item.children[i], limit, found)
            }
            return found
        }

        // At 900 pixels with the outline beside it, the lesson stays in its column: a cell's
        // buttons beside a long cell id and a code block's long lines used to run past it.
        function test_narrowWindowKeepsTheColumn() {
            for (const name of ["transformers.md", "attention.md"]) {
                // The theme turns while the lesson is laid out (a window left dark closes just
                // before): Qt 6.4 gave up laying out the column then ("Polish loop detected")
                // and left its rows at the wide window's width when it narrowed.
                const dark = createTemporaryObject(mainComponent, root, { initialPath: "", themeName: "dark" })
                tryVerify(() => dark.session.loaded)
                dark.destroy()
                const window = createTemporaryObject(mainComponent, root,
                                                     { initialPath: sourceDir + "/documents/" + name,
                                                       themeName: "light", shotMode: true })
                tryVerify(() => window.session.loaded)
                // Made wide, then narrowed, as a teacher shrinks the window beside a projector's.
                wait(300)
                window.width = 900
                const view = findChild(window.contentItem, "lessonView")
                tryVerify(() => view.width > 500 && view.width < 660, 3000, "the outline beside the lesson")
                wait(2000)
                const limit = (view.width + view.columnWidth) / 2
                const found = overflowing(view, findChild(view, "lessonTitle").parent.parent, limit, [])
                compare(found.length, 0, name + " past the column's right edge at " + Math.round(limit)
                        + ": " + found.slice(0, 8).join("; "))
                window.destroy()
            }
        }

        // The window's settings are this run's own (tests/qml/main.cpp sets the folders): not
        // the user's, nor a file another checkout's suite writes at the same time.
        function test_settingsAreTheRunsOwn() {
            verify(userFolders.length > 0)
            verify(settingsFile.startsWith(userFolders + "/config/"), settingsFile)
        }

        function test_theme() {
            const window = openWindow("")
            verify(!Theme.dark)
            window.themeName = "dark"
            verify(Theme.dark)
            window.themeName = "light"
            verify(!Theme.dark)
        }
    }

    Component {
        id: recentComponent
        RecentFiles {}
    }
}
