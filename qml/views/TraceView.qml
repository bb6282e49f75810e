pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Attnbook
import Attnbook.Models

// The focus token's computation as numbered steps, walked with Back/Next.
ColumnLayout {
    id: view
    required property AttentionCellModel cell
    property real availableWidth: 700
    property int head: 0
    property int step: 0
    spacing: 8

    readonly property var steps: {
        view.cell.revision
        return view.cell.trace(Math.min(view.head, view.cell.heads - 1), 4)
    }
    readonly property int shownStep: Math.min(step, Math.max(steps.length - 1, 0))

    RowLayout {
        spacing: 12
        visible: view.cell.heads > 1
        HeadPicker {
            heads: view.cell.heads
            head: Math.min(view.head, view.cell.heads - 1)
            onHeadChanged: view.head = head
        }
    }
    RowLayout {
        spacing: 8
        Button {
            objectName: "traceBack"
            text: qsTr("◀ Back")
            enabled: view.shownStep > 0
            onClicked: view.step = view.shownStep - 1
            ToolTip.visible: hovered
            ToolTip.delay: 500
            ToolTip.text: qsTr("The previous step")
            Accessible.name: qsTr("Previous step")
        }
        Button {
            objectName: "traceNext"
            text: qsTr("Next ▶")
            enabled: view.shownStep < view.steps.length - 1
            onClicked: view.step = view.shownStep + 1
            ToolTip.visible: hovered
            ToolTip.delay: 500
            ToolTip.text: qsTr("The next step")
            Accessible.name: qsTr("Next step")
        }
        Text {
            text: qsTr("Step %1 of %2").arg(view.shownStep + 1).arg(view.steps.length)
            color: Theme.mutedText
            font.pixelSize: Theme.smallSize
        }
        // Dots: one per step, the current one filled.
        Row {
            spacing: 4
            Repeater {
                model: view.steps.length
                delegate: Rectangle {
                    required property int index
                    width: 8
                    height: 8
                    radius: 4
                    color: index <= view.shownStep ? Theme.accent : Theme.border
                }
            }
        }
    }
    // A fixed floor, so that Back and Next stay put while steps differ in length.
    Rectangle {
        implicitWidth: Math.min(Math.max(stepLines.implicitWidth + 24, 420), view.availableWidth)
        implicitHeight: Math.max(stepLines.implicitHeight + 20, 110)
        color: Theme.surfaceAlt
        radius: 4
        WorkedLines {
            id: stepLines
            x: 12
            y: 10
            objectName: "traceStep"
            visible: view.steps.length > 0
            title: view.steps.length > 0 ? view.steps[view.shownStep].title : ""
            lines: view.steps.length > 0 ? view.steps[view.shownStep].lines : []
            availableWidth: view.availableWidth - 24
        }
    }
}
