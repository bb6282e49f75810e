// Not `pragma ComponentBehavior: Bound`: Qt 6.4's Loader refuses to create
// bound components ("outside its creation context"), and the rows below
// pick their component with a Loader.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Attnbook
import Attnbook.Models

// The lesson as one scrolling column: its title, the problem list when there
// is one, then every row of prose and every cell. All rows are made at once
// (lessons are a few dozen rows), so jumping to a row is exact.
Flickable {
    id: view
    required property LessonSession session
    // Only this cell (the shot command's --cell), or "" for the whole lesson.
    property string onlyCell: ""
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
        item.flash()
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
            delegate: Loader {
                id: row
                required property int index
                required property string kind
                required property string cellId
                required property string markdown
                required property var problems
                required property QtObject cellObject
                property bool flashing: false
                function flash() { flashing = true; flashTimer.restart() }

                visible: view.onlyCell.length === 0 || view.onlyCell === cellId
                Layout.fillWidth: kind !== "prose"
                Layout.maximumWidth: kind === "prose" ? Theme.proseWidth : view.columnWidth
                Layout.preferredWidth: kind === "prose" ? Math.min(Theme.proseWidth, view.columnWidth) : view.columnWidth
                sourceComponent: ({
                    prose: proseRow,
                    attention: attentionRow,
                    quiz: quizRow,
                    chart: chartRow,
                    broken: brokenRow
                })[kind] || null

                Timer { id: flashTimer; interval: 900; onTriggered: row.flashing = false }
                Rectangle {
                    anchors.fill: parent
                    anchors.margins: -4
                    color: "transparent"
                    border.color: Theme.accent
                    border.width: 2
                    radius: Theme.radius
                    visible: row.flashing
                }

                Component {
                    id: proseRow
                    ProseBlock { markdown: row.markdown }
                }
                Component {
                    id: attentionRow
                    AttentionCell { cell: row.cellObject as AttentionCellModel }
                }
                Component {
                    id: quizRow
                    QuizCell { quiz: row.cellObject as QuizCellModel }
                }
                Component {
                    id: chartRow
                    ChartCell { chart: row.cellObject as ChartCellModel }
                }
                Component {
                    id: brokenRow
                    BrokenCell {
                        name: row.cellId
                        source: row.markdown
                        problems: row.problems
                    }
                }
            }
        }
    }
}
