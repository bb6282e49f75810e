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
    property int head: 0
    property int digits: 4
    spacing: 8

    HeadPicker {
        heads: view.cell.heads
        head: Math.min(view.head, view.cell.heads - 1)
        onHeadChanged: view.head = head
    }
    Repeater {
        model: {
            view.cell.revision
            return view.cell.arithmetic(Math.min(view.head, view.cell.heads - 1), view.digits)
        }
        delegate: WorkedLines {
            required property var modelData
            title: modelData.title
            lines: modelData.lines
            availableWidth: view.availableWidth
        }
    }
}
