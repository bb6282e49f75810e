pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import Attnbook
import Attnbook.Models

// The four worked steps for the focus token, from the live numbers.
ColumnLayout {
    id: view
    required property AttentionCellModel cell
    property real availableWidth: 700
    spacing: 8

    HeadPicker {
        heads: view.cell.heads
        head: view.cell.arithmeticHead
        onHeadChanged: view.cell.arithmeticHead = head
    }
    Repeater {
        // A property of the cell: it says when a what-if or another head changes the steps.
        model: view.cell.arithmeticSteps
        delegate: WorkedLines {
            required property var modelData
            title: modelData.title
            lines: modelData.lines
            availableWidth: view.availableWidth
        }
    }
}
