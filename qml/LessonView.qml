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

// The lesson as one scrolling column: its title, the problem list when there
// is one, then every row of prose and every cell. All rows are made at once
// (lessons are a few dozen rows), so jumping to a row is exact.
Flickable {
    id: view
    required property LessonSession session
    // Only this cell (the shot command's --cell), or "" for the whole lesson.
    property string onlyCell: ""
    // The authoring tools above each row (edit, insert, move, …).
    property bool authoring: false
    // The row that the Edit menu's cell items act on: the last one used, or
    // the one at the top of the view.
    property int activeRow: -1
    readonly property int targetRow: activeRow >= 0 && activeRow < rows.count ? activeRow : currentRow
    // An edit that was refused, for the window to show.
    signal refused(string message)
    property real keptY: 0
    readonly property real pageHeight: column.implicitHeight + 2 * margin
    readonly property real margin: 28
    readonly property real columnWidth: Math.min(width - 2 * margin, Theme.columnWidth)
    readonly property int currentRow: rowAt(contentY + 40)

    contentWidth: width
    contentHeight: pageHeight
    boundsBehavior: Flickable.StopAtBounds
    clip: true
    ScrollBar.vertical: ScrollBar { id: scrollBar }
    Accessible.role: Accessible.Document
    Accessible.name: session.title

    // Scrolls so that row `row` starts at the top, and flashes it.
    function showRow(row: int) {
        const item = rows.itemAt(row)
        if (!item)
            return
        contentY = Math.max(0, Math.min(item.y + column.y - 12, contentHeight - height))
        // qmllint disable type
        item.flash()
        // qmllint enable type
    }
    function rowAt(y: real): int {
        let found = -1
        for (let i = 0; i < rows.count; ++i) {
            const item = rows.itemAt(i)
            if (item && item.y + column.y <= y)
                found = i
        }
        return found
    }
    // Opens the editor of row `row` (prose: Markdown; a cell: its YAML).
    function editRow(row: int) {
        const item = rows.itemAt(row)
        if (item) {
            activeRow = row
            item.editing = true
            showRow(row)
        }
    }
    function renameCell(id: string) {
        renameDialog.cellId = id
        renameDialog.open()
    }
    Connections {
        target: view.session
        function onAboutToRebuild() { view.keptY = view.contentY }
        function onRebuilt() {
            // qmllint disable type
            Qt.callLater(() => view.contentY = Math.max(0, Math.min(view.keptY, view.contentHeight - view.height)))
            // qmllint enable type
        }
    }
    Connections {
        target: view.session.editor
        function onEdited(row: int) {
            if (row >= 0) {
                view.activeRow = row
                // qmllint disable type
                Qt.callLater(() => view.showRow(row))
                // qmllint enable type
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
            if (item && item.cellId === id)
                return item.item
        }
        return null
    }

    Keys.onPressed: event => {
        if (event.key === Qt.Key_PageDown) { contentY = Math.min(contentY + height * 0.9, contentHeight - height); event.accepted = true }
        else if (event.key === Qt.Key_PageUp) { contentY = Math.max(contentY - height * 0.9, 0); event.accepted = true }
        else if (event.key === Qt.Key_Home && event.modifiers & Qt.ControlModifier) { contentY = 0; event.accepted = true }
        else if (event.key === Qt.Key_End && event.modifiers & Qt.ControlModifier) { contentY = Math.max(contentHeight - height, 0); event.accepted = true }
    }
    ColumnLayout {
        id: column
        x: (view.width - view.columnWidth) / 2
        y: view.margin
        width: view.columnWidth
        spacing: 18

        ColumnLayout {
            visible: view.onlyCell.length === 0
            spacing: 4
            Layout.maximumWidth: Theme.proseWidth
            Text {
                objectName: "lessonTitle"
                text: view.session.title
                color: Theme.text
                font.pixelSize: 34
                font.bold: true
                wrapMode: Text.WordWrap
                Layout.fillWidth: true
                Accessible.role: Accessible.Heading
            }
            Text {
                visible: text.length > 0
                text: view.session.subtitle
                color: Theme.mutedText
                font.pixelSize: 19
                wrapMode: Text.WordWrap
                Layout.fillWidth: true
            }
            Text {
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
            Layout.fillWidth: true
            onShow: row => view.showRow(row)
        }

        Repeater {
            id: rows
            model: view.session.cells
            delegate: ColumnLayout {
                id: entry
                required property int index
                required property string kind
                required property string cellId
                required property string markdown
                required property var problems
                required property QtObject cellObject
                property bool flashing: false
                property bool editing: false
                readonly property alias item: loader.item
                function flash() { flashing = true; flashTimer.restart() }
                TapHandler {
                    gesturePolicy: TapHandler.DragThreshold
                    onTapped: view.activeRow = entry.index
                }

                visible: view.onlyCell.length === 0 || view.onlyCell === cellId
                spacing: 2
                readonly property bool wide: kind !== "prose" || editing
                Layout.fillWidth: wide
                Layout.maximumWidth: wide ? view.columnWidth : Theme.proseWidth
                Layout.preferredWidth: wide ? view.columnWidth : Math.min(Theme.proseWidth, view.columnWidth)

                RowTools {
                    visible: view.authoring
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
                            prose: proseRow,
                            attention: attentionRow,
                            quiz: quizRow,
                            chart: chartRow,
                            broken: brokenRow
                        })[entry.kind] || null)
                    Rectangle {
                        anchors.fill: parent
                        anchors.margins: -4
                        color: "transparent"
                        border.color: Theme.accent
                        border.width: 2
                        radius: Theme.radius
                        visible: entry.flashing
                    }
                }
                Timer { id: flashTimer; interval: 900; onTriggered: entry.flashing = false }

                Component {
                    id: proseRow
                    ProseBlock { objectName: "prose_" + entry.index; markdown: entry.markdown }
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
