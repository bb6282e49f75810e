// Not `pragma ComponentBehavior: Bound`: Qt 6.4's Loader refuses to create
// bound components ("outside its creation context"), and the rows below
// pick their component with a Loader. Without it, qmllint 6.4 takes every use of an
// outer id inside those components for an unqualified access: that one check is off here.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Attnbook
import Attnbook.Models
// qmllint disable unqualified
// (qmllint 6.4 also reads Qt.callLater as a property, and a Repeater's item as a bare Item:
// those lines switch its type check off around them.)

// Over 500 lines, as one file: keeping the reader's place (the anchor, the held place, the rows
// built near the view) reads and moves the same rows of the same Flickable; apart, each part
// would reach into the other's rows.
//
// The lesson as one scrolling column: its title, the problem list when there
// is one, then every row of prose and every cell. Every row has a place in the
// column from the start, so jumping to a row is exact; what a row shows is made
// when it comes near the view (see buildNear).
Flickable {
    id: view
    required property LessonSession session
    // Only this cell (the shot command's --cell), or "" for the whole lesson.
    property string onlyCell: ""
    // The authoring tools above each row (edit, insert, move, …).
    property bool authoring: false
    // What the rows show: `authoring`, followed once the reader's place is taken (see
    // onAuthoringChanged), so that the place is read from the rows as they were.
    property bool toolsShown: false
    Component.onCompleted: toolsShown = authoring
    // The row that the Edit menu's cell items act on: the last one used, or
    // the one at the top of the view.
    property int activeRow: -1
    readonly property int targetRow: activeRow >= 0 && activeRow < rows.count ? activeRow : currentRow
    // An edit that was refused, for the window to show.
    signal refused(string message)
    readonly property real pageHeight: column.implicitHeight + 2 * margin
    readonly property real margin: 28
    readonly property real columnWidth: Math.min(width - 2 * margin, Theme.columnWidth)
    readonly property int currentRow: rowAt(contentY + 40)

    contentWidth: width
    contentHeight: pageHeight
    boundsBehavior: Flickable.StopAtBounds
    clip: true
    // The shot command scrolls the view a screen at a time: no scroll bar on its page.
    property bool scrollBarShown: true
    ScrollBar.vertical: ScrollBar {
        id: scrollBar
        policy: view.scrollBarShown ? ScrollBar.AsNeeded : ScrollBar.AlwaysOff
        onPressedChanged: stillUnderPointer.stop() // the reader scrolls
    }
    Accessible.role: Accessible.Document
    Accessible.name: session.title

    // Rows are built when they come within a screen of the view and let go again when they
    // are far from it (unbuildFar), so that opening a long lesson builds its first screens only
    // and reading it to the end keeps a few screens of rows. Until then a
    // row is a placeholder: an empty item of about its height (its own, once it was built),
    // with nothing inside (the row's tools, its cell and its highlight are made when it is
    // built), so that a lesson of a thousand rows makes a thousand small items, not a thousand
    // rows. Every row is built with `buildAll`, in authoring mode and after the first edit, so
    // that an author's edits keep their place as they always did; reading is what stays lazy.
    // The shot command scrolls the view over the page and draws it a screen at a time.
    property bool buildAll: false
    // False while the rows are being made: until the column has placed them, every row sits
    // at y = 0 and would count as near the view.
    property bool rowsPlaced: false
    function placeRows() {
        column.forceLayout() // the column places the rows now, not at the next frame
        rowsPlaced = true
        buildNear()
    }
    Timer { id: placeLater; interval: 0; onTriggered: view.placeRows() }
    // Builds the rows in view at once, so that the frame shows them. Run from a timer after a
    // scroll or a change of height, never inside a layout pass. The rows built above the
    // reader change height; the anchor (keepAnchor) keeps what the reader looks at still.
    function buildNear() {
        if (!rowsPlaced || buildAll || builtByEdit || toolsShown)
            return
        buildRows(Math.max(0, rowAt(contentY)), Math.max(0, rowAt(contentY + height)))
        unbuildFar()
        if (readerMoved)
            aheadLater.restart()
    }
    // Rows more than `keptScreens` screens above or below the view are let go again: their
    // cells' views (heatmaps, tables, charts) are most of the window's memory, and a lesson
    // read to its end kept every one of them (530 MB for attention.md). A
    // row let go keeps the height it had, so nothing on screen moves; what the reader changed
    // lives in the cell's model, not in the row, and is there when the row is built again.
    readonly property real keptScreens: 3
    function unbuildFar() {
        const above = contentY - keptScreens * height
        const below = contentY + (keptScreens + 1) * height
        for (let row = 0; row < rows.count; ++row) {
            const entry = rows.itemAt(row)
            // qmllint disable type
            if (entry && entry.built && !entry.editing &&
                    (entry.y + entry.height < above || entry.y > below))
                entry.built = false
            // qmllint enable type
        }
    }
    // Builds rows `first` to `last`; the number built. A hidden row (all but one with the shot
    // command's --cell) takes no room, so every one of them counted as near the view: a shot
    // of one cell of a lesson of 2,500 rows built all 2,500 (27 s, 1 GB).
    function buildRows(first: int, last: int): int {
        let built = 0
        for (let row = first; row <= last && row < rows.count; ++row) {
            const entry = rows.itemAt(row)
            // qmllint disable type
            if (entry && entry.visible && !entry.built) {
                entry.built = true
                ++built
            }
            // qmllint enable type
        }
        return built
    }
    // Once the reader moves, the rows about to come into view are built too: up to two
    // screens below the view, then up to one above, nearest first and one row per turn of
    // the event loop, so that scrolling stays smooth while they are made. A lesson that is
    // only opened builds what is on its first screen and goes idle.
    property bool readerMoved: false
    function buildAhead() {
        if (!rowsPlaced || buildAll || builtByEdit || toolsShown)
            return
        const below = Math.max(0, rowAt(contentY + height))
        const farBelow = Math.max(0, rowAt(contentY + 2 * height))
        for (let row = below; row <= farBelow; ++row) {
            if (buildRows(row, row) > 0) {
                aheadLater.restart()
                return
            }
        }
        const farAbove = Math.max(0, rowAt(contentY - height))
        for (let row = Math.max(0, rowAt(contentY)); row >= farAbove; --row) {
            if (buildRows(row, row) > 0) {
                aheadLater.restart()
                return
            }
        }
    }
    Timer { id: aheadLater; interval: 0; onTriggered: view.buildAhead() }
    Timer { id: buildNearLater; interval: 0; onTriggered: view.buildNear() }

    // Scroll anchoring: the row the reader looks at, and how far the view's top is from its
    // top. When rows above it change height (a placeholder built into its row, an attention
    // cell that settles a frame later, a paragraph laid out again), the row moves in the
    // column and the view moves with it by as much, so that the text on screen stays still.
    // Not at the very top of the lesson: there the title stays in view; at the very end the
    // view stays at the end (Ctrl+End, then the last rows built taller or shorter than their
    // estimates).
    property bool anchorAtEnd: false
    property Item anchorItem: null
    property real anchorOffset: 0
    // True while the view moves itself to follow the anchor (not a scroll to re-anchor on).
    property bool followingAnchor: false
    // Where the anchor was last picked or followed to: a move of less than a pixel from there
    // is no scroll (the Flickable rounds a place it was moved to a moment later).
    property real anchoredAt: -1
    // The first built row that shows in the view (its content is what the reader sees); a
    // placeholder at the top when no built row shows.
    function pickAnchor() {
        if (followingAnchor || holding || !rowsPlaced || Math.abs(contentY - anchoredAt) < 1)
            return
        anchoredAt = contentY
        const top = Math.max(0, rowAt(contentY))
        anchorAtEnd = contentY > 0 && contentY >= contentHeight - height - 1
        if (contentY <= 0 || anchorAtEnd || !validRow(top)) {
            anchorItem = null
            return
        }
        let row = top
        // qmllint disable type
        while (validRow(row + 1) && !rows.itemAt(row).built
               && rows.itemAt(row + 1).y + column.y < contentY + height)
            ++row
        if (!rows.itemAt(row).built)
            row = top
        // qmllint enable type
        anchorItem = rows.itemAt(row)
        anchorOffset = contentY - (anchorItem.y + column.y)
    }
    function keepAnchor() {
        if (holding || !rowsPlaced)
            return
        if (anchorItem === null && !anchorAtEnd)
            return
        const top = anchorAtEnd ? Math.max(0, contentHeight - height)
                                : Math.max(0, anchorItem.y + column.y + anchorOffset)
        if (Math.abs(top - contentY) < 0.5)
            return
        followingAnchor = true
        anchoredAt = top
        contentY = top
        followingAnchor = false
    }
    Connections {
        target: view.anchorItem
        function onYChanged() { view.keepAnchor() }
    }
    onContentHeightChanged: {
        if (anchorAtEnd)
            keepAnchor()
    }
    // A reset makes every row again: they are not placed until the layout has run.
    Connections {
        target: view.session.cells
        function onModelAboutToBeReset() {
            view.rowsPlaced = false
            view.readerMoved = false
            view.anchorAtEnd = false
        }
    }
    // A change of height anywhere (a row built, text laid out) can bring rows near.
    Connections {
        target: column
        function onImplicitHeightChanged() { buildNearLater.restart() }
    }
    onHeightChanged: buildNearLater.restart()
    // Set by the first edit of the lesson (see buildAll); a lesson opened anew starts lazy again.
    property bool builtByEdit: false
    // Builds row `row` now (a jump, a search hit, an edit) and lays it out, so that its
    // place and height are its own, not its placeholder's.
    function buildRow(row: int) {
        const item = rows.itemAt(row)
        // qmllint disable type
        if (!item.built) {
            item.built = true
            item.settle()
            column.forceLayout()
        }
        // qmllint enable type
    }

    // Scrolls so that row `row` starts at the top, and flashes it.
    function showRow(row: int) {
        stillUnderPointer.stop() // a jump: the view goes where it is sent
        if (!validRow(row))
            return
        buildRow(row)
        const item = rows.itemAt(row)
        // Room above the row for its frame (rowHighlight) and a little more.
        contentY = Math.max(0, Math.min(item.y + column.y - 20, contentHeight - height))
        anchorPlace(row)
        // qmllint disable type
        item.flash()
        // qmllint enable type
    }
    // The last row that starts at or above `y`. The rows are laid out top to bottom, so a
    // binary search: a binding on it (currentRow) reads a dozen rows, not all of them, and a
    // lesson of thousands of rows scrolls without re-reading every row's place.
    function rowAt(y: real): int {
        let low = 0
        let high = rows.count - 1
        let found = -1
        while (low <= high) {
            const middle = (low + high) >> 1
            const item = rows.itemAt(middle)
            if (!item)
                break
            if (item.y + column.y <= y) {
                found = middle
                low = middle + 1
            } else {
                high = middle - 1
            }
        }
        return found
    }
    // Opens the editor of row `row` (prose: Markdown; a cell: its YAML);
    // only in authoring mode.
    function editRow(row: int) {
        if (validRow(row) && view.authoring) {
            buildRow(row)
            const item = rows.itemAt(row)
            activeRow = row
            item.editing = true
            showRow(row)
        }
    }
    function renameCell(id: string) {
        renameDialog.cellId = id
        renameDialog.open()
    }
    // Switching edit mode shows or hides the tools above every row: each row between the top of
    // the view and the pointer grows or shrinks, and the row under the pointer slid away (issue
    // 25). What is under the pointer stays there; with the pointer off the lesson (on the
    // header's button), what is in the middle of the view.
    // Reading mode hides the tools: the keyboard leaves them too, so that
    // Space or Enter cannot press a hidden "Edit".
    HoverHandler { id: pointer }
    readonly property bool pointerOver: pointer.hovered
    onAuthoringChanged: {
        stillUnderPointer.stop()
        // (The handler sits in the Flickable's content: its point is in the content's coordinates.)
        holdRowAt(pointer.hovered ? view.mapFromItem(pointer.parent, pointer.point.position).y : height / 2)
        toolsShown = authoring
        if (!authoring)
            keyboardLater.restart()
    }
    // Work left for once the rows are laid out again. Timers, not
    // Qt.callLater: they go away with the view, so nothing runs on a view
    // that is gone.
    // While holding, the place is put back on every frame until the layout settles.
    Timer {
        id: restoreLater
        interval: 16
        repeat: true
        running: holdTimer.running
        triggeredOnStart: true
        onTriggered: view.restorePlace()
    }
    Timer { id: keyboardLater; interval: 0; onTriggered: view.keepKeyboard() }
    // The row an edit made or changed, shown once the place is settled.
    property int revealAfterEdit: -1
    // The reader's place: the row at the top of the view and how far into it.
    // An edit rebuilds every row, a theme or zoom change or a resize lays
    // them out again; for a moment the column is short and the view would
    // fall to the top. While `holding`, every frame puts the same row back at
    // the same place. The place is read from the rows only from timers and
    // deliberate actions, never from a geometry signal, which also fires
    // while the window is being torn down.
    property int placeRow: -1
    property real placeOffset: 0
    readonly property bool holding: holdTimer.running
    // Whether row `row` exists. Checked before rows.itemAt rather than testing
    // its result: Qt 6.4's compiled QML takes a null item for a true one.
    function validRow(row: int): bool { return row >= 0 && row < rows.count }
    // Where row `row`'s content starts in the column: below its tools in edit mode, so that a
    // place kept is the text's, whether the tools show or not.
    function contentTop(row: int): real {
        const entry = rows.itemAt(row)
        // qmllint disable type
        const content = entry.item
        // qmllint enable type
        return entry.y + column.y + (content !== null ? content.mapToItem(entry, 0, 0).y : 0)
    }
    function recordPlace() {
        if (holding)
            return
        const row = rowAt(contentY + 1)
        if (validRow(row) && contentY > 0) {
            placeRow = row
            placeOffset = contentY - contentTop(row)
        } else {
            placeRow = -1
            placeOffset = contentY
        }
    }
    Timer { id: recordLater; interval: 100; onTriggered: view.recordPlace() }
    onContentYChanged: {
        buildNearLater.restart()
        if (rowsPlaced && !followingAnchor)
            readerMoved = true
        pickAnchor()
        if (!holding)
            recordLater.restart()
    }
    // Keeps the place last recorded (`now`: record it first).
    function holdPlace(now: bool) {
        if (now)
            recordPlace()
        recordLater.stop()
        holdTimer.restart()
    }
    // A jump: the place to keep is the new one.
    function anchorPlace(row: int) {
        if (validRow(row)) {
            placeRow = row
            placeOffset = contentY - contentTop(row)
        }
    }
    // Keeps the row at `y` in the view where it is on screen, its content rather than its top
    // (see onAuthoringChanged).
    function holdRowAt(y: real) {
        const row = rowAt(contentY + y)
        if (!validRow(row) || contentY <= 0) {
            holdPlace(true)
            return
        }
        placeRow = row
        placeOffset = contentY - contentTop(row)
        holdPlace(false)
    }
    function restorePlace() {
        if (!rowsPlaced)
            placeRows() // rows made a moment ago still sit at y = 0
        anchorItem = null // the place held is this one
        let top = placeRow < 0 ? 0 : contentY
        if (validRow(placeRow))
            top = contentTop(placeRow) + placeOffset
        contentY = Math.max(0, Math.min(top, contentHeight - height))
    }
    Timer {
        id: holdTimer
        interval: 600
        onTriggered: {
            view.restorePlace()
            if (view.revealAfterEdit >= 0)
                view.revealRow(view.revealAfterEdit)
            view.revealAfterEdit = -1
            recordLater.restart()
            // The place held is the reader's again: anchor on it.
            view.anchoredAt = -1
            view.pickAnchor()
        }
    }
    onWidthChanged: holdPlace(false)
    Connections {
        target: Theme
        function onDarkChanged() { view.holdPlace(true); relayoutLater.restart() }
        function onZoomChanged() { view.holdPlace(true); relayoutLater.restart() }
    }
    // Qt 6.4's layouts give up on a column whose rows change height while it lays them out
    // ("Polish loop detected": the theme changing as the window narrows does it) and then never
    // lay it out again, so the rows kept an old width, past the view's right edge. Once the
    // width, the theme or the zoom has settled, the column is laid out once more.
    onColumnWidthChanged: relayoutLater.restart()
    Timer { id: relayoutLater; interval: 150; onTriggered: column.ensurePolished() }
    // The current hit of Find: its row outlined; in prose, its words selected.
    property int searchRow: -1
    property var searchItem: null
    function showHit(row: int, occurrence: int, text: string) {
        stillUnderPointer.stop() // a jump: the view goes where it is sent
        if (view.searchItem !== null)
            view.searchItem.deselect()
        view.searchItem = null
        view.searchRow = row
        if (!validRow(row))
            return
        buildRow(row)
        const entry = rows.itemAt(row)
        // qmllint disable type
        const item = entry.item
        // qmllint enable type
        let top = entry.y + column.y
        let bottom = top + Math.min(entry.height, height * 0.6)
        if (entry.kind === "prose" && entry.item !== null && entry.item.getText !== undefined) {
            // The k-th occurrence in the text as shown, as LessonSearch counted it.
            const shown = item.getText(0, item.length).toLowerCase()
            const needle = text.toLowerCase()
            let at = -1
            for (let k = 0; k <= occurrence; ++k) {
                at = shown.indexOf(needle, at + (k === 0 ? 0 : needle.length))
                if (at < 0)
                    break
            }
            if (at >= 0) {
                item.select(at, at + text.length)
                view.searchItem = item
                const place = item.mapToItem(column, item.positionToRectangle(at))
                top = place.y + column.y - height * 0.3
                bottom = place.y + column.y + place.height
            }
        }
        if (top < contentY || bottom > contentY + height)
            contentY = Math.max(0, Math.min(Math.max(top, entry.y + column.y - 20), contentHeight - height))
        anchorPlace(row)
    }
    function clearHit() { showHit(-1, 0, "") }

    // Scrolls as little as needed for row `row` to show, and flashes it.
    function revealRow(row: int) {
        stillUnderPointer.stop() // a jump: the view goes where it is sent
        if (!validRow(row))
            return
        buildRow(row)
        const item = rows.itemAt(row)
        const top = item.y + column.y
        if (top < contentY || top + Math.min(item.height, height * 0.8) > contentY + height) {
            contentY = Math.max(0, Math.min(top - 20, contentHeight - height))
            anchorPlace(row)
        }
        item.flash()
    }
    // After a rebuild the row that had the keyboard (Duplicate, Keep) is gone:
    // the view takes it, so that the next key (Ctrl+Z) works at once.
    function keepKeyboard() {
        const focused = view.Window.activeFocusItem
        if (!focused || !focused.visible || !focused.enabled)
            view.forceActiveFocus()
    }
    Connections {
        target: view.session
        function onAboutToRebuild() {
            view.builtByEdit = true
            view.holdPlace(true)
        }
        function onOpened() { view.builtByEdit = false }
        function onRebuilt() { keyboardLater.restart() }
    }
    Connections {
        target: view.session.editor
        function onEdited(row: int) {
            if (row >= 0) {
                view.activeRow = row
                // Once the rows are laid out again and the place restored.
                view.revealAfterEdit = row
                view.holdPlace(false)
            }
        }
    }
    RenameDialog {
        id: renameDialog
        editor: view.session.editor
    }

    function itemOfCell(id: string): Item {
        for (let i = 0; i < rows.count; ++i) {
            const item = rows.itemAt(i)
            if (item && item.cellId === id) {
                buildRow(i)
                return item.item
            }
        }
        return null
    }

    Keys.onPressed: event => {
        stillUnderPointer.stop() // a key that reaches the view is the reader's: the view is theirs
        if (event.key === Qt.Key_PageDown) { contentY = Math.min(contentY + height * 0.9, contentHeight - height); event.accepted = true }
        else if (event.key === Qt.Key_PageUp) { contentY = Math.max(contentY - height * 0.9, 0); event.accepted = true }
        else if (event.key === Qt.Key_Home && event.modifiers & Qt.ControlModifier) { contentY = 0; event.accepted = true }
        else if (event.key === Qt.Key_End && event.modifiers & Qt.ControlModifier) { contentY = Math.max(contentHeight - height, 0); event.accepted = true }
    }
    // The controls in the lesson (buttons, fields, menus) take their font
    // from here, so that they follow the zoom like the text around them.
    Control {
        id: fontScope
        width: view.width
        height: view.pageHeight
        padding: 0
        font: {
            const base = Qt.application.font
            return base.pointSize > 0 ? Qt.font({ family: base.family, pointSize: base.pointSize * Theme.zoom })
                                      : Qt.font({ family: base.family, pixelSize: Math.round(base.pixelSize * Theme.zoom) })
        }

    // A Column, not a ColumnLayout: it places a thousand rows in one cheap pass, where a
    // layout asked every row for its size hints on every change.
    Column {
        id: column
        x: (view.width - view.columnWidth) / 2
        y: view.margin
        width: view.columnWidth
        spacing: 18

        ColumnLayout {
            visible: view.onlyCell.length === 0
            spacing: 4
            width: Math.min(column.width, Theme.proseWidth)
            Text {
                textFormat: Text.PlainText
                objectName: "lessonTitle"
                text: view.session.title
                color: Theme.text
                font.pixelSize: Theme.titleSize
                font.bold: true
                wrapMode: Text.WordWrap
                Layout.fillWidth: true
                Accessible.role: Accessible.Heading
            }
            Text {
                textFormat: Text.PlainText
                visible: text.length > 0
                text: view.session.subtitle
                color: Theme.mutedText
                font.pixelSize: Theme.subtitleSize
                wrapMode: Text.WordWrap
                Layout.fillWidth: true
            }
            Text {
                textFormat: Text.PlainText
                visible: text.length > 0
                text: view.session.author
                color: Theme.mutedText
                font.pixelSize: Theme.smallSize
                Layout.topMargin: 4
            }
        }

        ProblemPanel {
            problems: view.session.problems
            visible: problems.count > 0 && view.onlyCell.length === 0
            width: column.width
            onShow: row => view.showRow(row)
        }

        Repeater {
            id: rows
            objectName: "lessonRows"
            model: view.session.cells
            onItemAdded: {
                view.rowsPlaced = false
                placeLater.restart() // once, after the last row of a reset
            }
            // A row: until built, an empty item of its estimated height; once built, the
            // body below (tools, the cell or prose, the highlight) and the body's height.
            delegate: Item {
                id: entry
                required property int index
                required property string kind
                required property string cellId
                required property string markdown
                required property var problems
                required property QtObject cellObject
                required property bool folded
                property bool flashing: false
                property bool editing: false
                // See buildAll, buildNear and unbuildFar.
                // With --cell, that cell alone is built (see buildRows).
                property bool built: view.onlyCell.length > 0 ? view.onlyCell === cellId
                                     : view.buildAll || view.builtByEdit || view.toolsShown
                // The height the row had when built last: its placeholder's once let go.
                property real builtHeight: 0
                readonly property real estimatedHeight: builtHeight > 0 ? builtHeight : kind === "prose"
                    ? 1.6 * Theme.proseSize * Math.ceil(markdown.length / Math.max(40, Theme.proseWidth / (0.5 * Theme.proseSize))) + 10
                    : ({ attention: 900, transformer: 900, quiz: 260, chart: 420, broken: 160 })[kind] || 200
                // The cell or prose shown (null until built).
                // qmllint disable type
                readonly property Item item: body.item ? body.item.content : null
                // qmllint enable type
                function flash() {
                    flashing = false // restarts the body's timer
                    flashing = true
                }
                // Lays the built body out now, so that the row's height is its own.
                function settle() {
                    if (body.item)
                        body.item.ensurePolished() // qmllint disable type
                }

                visible: view.onlyCell.length === 0 || view.onlyCell === cellId
                readonly property bool wide: kind !== "prose" || editing
                width: wide ? view.columnWidth : Math.min(Theme.proseWidth, view.columnWidth)
                height: body.item ? body.item.implicitHeight : estimatedHeight // qmllint disable type
                onHeightChanged: if (body.item) builtHeight = height

                Loader {
                    id: body
                    active: entry.built || entry.editing
                    width: entry.width
                    sourceComponent: rowBody
                }

                Component {
                    id: rowBody
                    ColumnLayout {
                        readonly property alias content: loader.item
                        spacing: 2
                        TapHandler {
                            gesturePolicy: TapHandler.DragThreshold
                            onTapped: view.activeRow = entry.index
                        }
                        Timer {
                            interval: 900
                            running: entry.flashing
                            onTriggered: entry.flashing = false
                        }

                        RowTools {
                            visible: view.toolsShown
                            Layout.fillWidth: true
                            editor: view.session.editor
                            row: entry.index
                            kind: entry.kind
                            cellId: entry.cellId
                            editing: entry.editing
                            onEdit: view.editRow(entry.index)
                            onRename: view.renameCell(entry.cellId)
                            onRefused: message => view.refused(message)
                        }
                        Loader {
                            id: loader
                            Layout.fillWidth: true
                            sourceComponent: entry.editing
                                ? (entry.kind === "prose" ? proseEditorRow : yamlEditorRow)
                                : (({
                                    // A sample answer is folded while reading; an author edits it open.
                                    prose: entry.folded && !view.toolsShown ? foldedProseRow : proseRow,
                                    attention: attentionRow,
                                    quiz: quizRow,
                                    chart: chartRow,
                                    transformer: transformerRow,
                                    broken: brokenRow
                                })[entry.kind] || null)
                            Rectangle {
                                objectName: "rowHighlight_" + entry.index
                                // Room between the frame and the text it marks: 8 pixels inside
                                // the border (at 2 the frame touched a heading), within
                                // the 18 between rows.
                                anchors.fill: parent
                                anchors.margins: -(border.width + 8)
                                color: "transparent"
                                border.color: Theme.accent
                                border.width: 2
                                radius: Theme.radius
                                visible: entry.flashing || view.searchRow === entry.index
                            }
                        }

                        Component {
                            id: proseRow
                            ProseBlock { objectName: "prose_" + entry.index; markdown: entry.markdown }
                        }
                        Component {
                            id: foldedProseRow
                            SampleAnswer { objectName: "answer_" + entry.index; row: entry.index; markdown: entry.markdown }
                        }
                        Component {
                            id: proseEditorRow
                            ProseEditor {
                                editor: view.session.editor
                                row: entry.index
                                onDone: entry.editing = false
                            }
                        }
                        Component {
                            id: yamlEditorRow
                            YamlEditor {
                                editor: view.session.editor
                                cellId: entry.cellId
                                kind: entry.kind
                                onDone: entry.editing = false
                            }
                        }
                        Component {
                            id: attentionRow
                            AttentionCell { cell: entry.cellObject as AttentionCellModel }
                        }
                        Component {
                            id: quizRow
                            QuizCell { quiz: entry.cellObject as QuizCellModel }
                        }
                        Component {
                            id: transformerRow
                            TransformerCell { cell: entry.cellObject as TransformerCellModel; authoring: view.toolsShown }
                        }
                        Component {
                            id: chartRow
                            ChartCell { chart: entry.cellObject as ChartCellModel }
                        }
                        Component {
                            id: brokenRow
                            BrokenCell {
                                name: entry.cellId
                                source: entry.markdown
                                problems: entry.problems
                            }
                        }
                    }
                }
            }
        }
    }
    // What the reader clicks stays under the pointer while the click changes the lesson: an
    // area over the column that sees each press and passes it on.
    StillUnderPointer {
        id: stillUnderPointer
        anchors.fill: parent
        view: view
        content: column
        viewMovesItself: view.followingAnchor || view.holding
    }
    }
}
