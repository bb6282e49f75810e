import QtQuick
import QtQuick.Controls
import QtTest
import Attnbook
import Attnbook.Models

// The window's trips that are its QML's: the palette that follows the theme
// (stated once, in Theme), contrast, edit mode that keeps the row under the pointer, and the frame
// of an outline jump with room around the text.
Item {
    id: root

    Component {
        id: mainComponent
        Main {}
    }

    TestCase {
        name: "WindowTrips"
        when: windowShown

        function openWindow(path, theme) {
            const window = createTemporaryObject(mainComponent, root,
                                                 { initialPath: path, themeName: theme || "light" })
            verify(window)
            tryVerify(() => window.session.loaded)
            window.editingLesson = false
            window.zoom = 1.0
            return window
        }
        function attention() { return sourceDir + "/documents/attention.md" }
        function fixture() { return sourceDir + "/tests/app/fixtures/window.md" }
        function named(window, name) {
            const view = findChild(window.contentItem, "lessonView")
            let found = null
            tryVerify(() => (found = findChild(view, name)) !== null, 5000, name)
            return found
        }
        function yInWindow(item) { return item.mapToItem(null, 0, 0).y }

        // WCAG 2's relative luminance and contrast ratio.
        function luminance(c) {
            const linear = v => v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4)
            return 0.2126 * linear(c.r) + 0.7152 * linear(c.g) + 0.0722 * linear(c.b)
        }
        function contrast(a, b) {
            const la = luminance(a)
            const lb = luminance(b)
            return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05)
        }
        // The colour `item` is seen in over `background`: its colour at the opacity of it and its
        // parents.
        function seen(item, colour, background) {
            let opacity = 1
            for (let at = item; at; at = at.parent)
                opacity *= at.opacity
            return Qt.rgba(opacity * colour.r + (1 - opacity) * background.r,
                           opacity * colour.g + (1 - opacity) * background.g,
                           opacity * colour.b + (1 - opacity) * background.b, 1)
        }

        // The theme's own pairs: text 4.5:1 or more on every background it is drawn on, the
        // edges of controls (enabled, disabled, and a switch that is on) 3:1 on a card.
        function test_themeContrast() {
            for (const colours of [Theme.lightColours, Theme.darkColours]) {
                const name = colours === Theme.darkColours ? "dark" : "light"
                for (const background of ["page", "surface", "surfaceAlt", "sunken"]) {
                    for (const text of ["text", "mutedText"]) {
                        const ratio = contrast(colours[text], colours[background])
                        verify(ratio >= 4.5, name + " " + text + " on " + background + ": " + ratio)
                    }
                }
                for (const background of ["surface", "surfaceAlt", "sunken"]) {
                    for (const edge of ["controlEdge", "disabledEdge", "accent"]) {
                        const ratio = contrast(colours[edge], colours[background])
                        verify(ratio >= 3, name + " " + edge + " on " + background + ": " + ratio)
                    }
                }
            }
        }

        // The palette is the theme's: the window's, a menu's and a dialog's follow each change of
        // theme, the disabled colours included (one Palette per theme in Theme.qml, copied).
        function test_paletteFollowsTheTheme() {
            const window = openWindow(fixture())
            const menu = window.menuBar.menus[0]
            const about = findChild(window, "aboutDialog")
            verify(menu)
            verify(about)
            for (const theme of ["dark", "light", "dark", "light"]) {
                window.themeName = theme
                compare(Theme.dark, theme === "dark")
                const colours = Theme.colours
                verify(Qt.colorEqual(window.palette.window, colours.page), theme + " window")
                verify(Qt.colorEqual(window.palette.active.buttonText, colours.text), theme + " text")
                verify(Qt.colorEqual(window.palette.disabled.buttonText, colours.disabledText),
                       theme + " disabled text")
                verify(Qt.colorEqual(menu.palette.base, colours.surface), theme + " menu")
                verify(Qt.colorEqual(menu.palette.active.text, colours.text), theme + " menu text")
                verify(Qt.colorEqual(about.palette.window, colours.surface), theme + " dialog")
                verify(Qt.colorEqual(about.palette.disabled.buttonText, colours.disabledText),
                       theme + " dialog disabled")
            }
        }

        // Light edit mode: a row's name above it (its id, "prose") is text, 4.5:1 on the page.
        // It was dimmed to 60 % until hovered: 2.3:1.
        function test_rowNamesReadInEditMode() {
            const window = openWindow(fixture())
            window.editingLesson = true
            // The row's tools, and the name that heads them.
            const tools = named(window, "edit_1").parent
            const label = tools.children[0]
            verify(label.text.length > 0, "the name of row 1")
            tryVerify(() => label.visible)
            const ratio = contrast(seen(label, label.color, Theme.page), Theme.page)
            verify(ratio >= 4.5, "row name at " + ratio + ":1")
        }

        // A dark card's Compare switch before any change is disabled, and still seen: its track's
        // edge was Theme.border, 1.44:1 on the card.
        function test_disabledSwitchIsSeen() {
            const window = openWindow(fixture(), "dark")
            const compareSwitch = named(window, "compare")
            verify(!compareSwitch.enabled)
            const track = compareSwitch.indicator
            const ratio = contrast(track.border.color, Theme.surface)
            verify(ratio >= 3, "disabled switch at " + ratio + ":1")
        }

        // Switching edit mode keeps what is under the pointer where it is: the tools shown above
        // every row pushed the row under the pointer down by theirs.
        function test_editModeKeepsTheRowUnderThePointer() {
            const window = openWindow(attention())
            window.requestActivate()
            tryVerify(() => window.active)
            const view = findChild(window.contentItem, "lessonView")
            const rows = findChild(view, "lessonRows")
            view.showRow(Math.floor(rows.count / 2))
            wait(800)
            for (const editing of [true, false]) {
                // The pointer two thirds of the way down the lesson; the row under it and its text.
                const point = view.mapToItem(window.contentItem, view.width / 2, view.height * 2 / 3)
                mouseMove(window.contentItem, point.x - 5, point.y)
                mouseMove(window.contentItem, point.x, point.y)
                tryVerify(() => view.pointerOver, 2000, "the pointer is over the lesson")
                const row = rows.itemAt(view.rowAt(view.contentY + view.height * 2 / 3))
                verify(row.item !== null, "the row under the pointer is built")
                const before = yInWindow(row.item)
                window.editingLesson = editing
                wait(1500)
                verify(Math.abs(yInWindow(row.item) - before) <= 2,
                       (editing ? "into" : "out of") + " edit mode: the row moved by "
                       + (yInWindow(row.item) - before))
            }
        }

        // The frame an outline jump draws around its row leaves room around the text (it
        // touched a heading: 2 pixels inside the border).
        function test_outlineFrameHasRoom() {
            const window = openWindow(fixture())
            const view = findChild(window.contentItem, "lessonView")
            const target = window.session.outline.data(window.session.outline.index(2, 0),
                                                       OutlineModel.TargetRowRole)
            view.showRow(target)
            const frame = named(window, "rowHighlight_" + target)
            tryVerify(() => frame.visible)
            const content = findChild(view, "lessonRows").itemAt(target).item
            const outer = frame.mapToItem(null, 0, 0)
            const inner = content.mapToItem(null, 0, 0)
            const room = 6
            verify(inner.x - (outer.x + frame.border.width) >= room, "left")
            verify(inner.y - (outer.y + frame.border.width) >= room, "top")
            verify(outer.x + frame.width - frame.border.width - (inner.x + content.width) >= room, "right")
            verify(outer.y + frame.height - frame.border.width - (inner.y + content.height) >= room,
                   "bottom")
        }
    }
}
