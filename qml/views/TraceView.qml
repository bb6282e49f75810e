pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Attnbook
import Attnbook.Models

// The focus token's computation as numbered steps, walked with Back/Next or,
// once the steps have the keyboard, the Left and Right arrow keys. The box
// is as large as the largest step, so the buttons never move.
ColumnLayout {
    id: view
    required property AttentionCellModel cell
    property real availableWidth: 700
    spacing: 8

    // Properties of the cell: they say when a what-if, another head or another step changes
    // them, and the cell keeps the choices while the lesson is open.
    readonly property var steps: view.cell.traceSteps
    readonly property int shownStep: view.cell.traceStep
    readonly property bool atFirst: shownStep <= 0
    readonly property bool atLast: shownStep >= steps.length - 1
    function go(delta: int) {
        // A button that is about to be disabled hands the keyboard to the box.
        const keyboardHere = backButton.activeFocus || nextButton.activeFocus
        view.cell.traceStep = Math.max(0, Math.min(view.shownStep + delta, view.steps.length - 1))
        if (keyboardHere && (view.atFirst || view.atLast))
            stepBox.forceActiveFocus()
    }
    // From the box or from Back and Next: Left and Right walk, Home and End jump.
    Keys.onLeftPressed: view.go(-1)
    Keys.onRightPressed: view.go(1)
    Keys.onPressed: event => {
        if (event.key === Qt.Key_Home) { view.cell.traceStep = 0; event.accepted = true }
        else if (event.key === Qt.Key_End) { view.cell.traceStep = view.steps.length - 1; event.accepted = true }
    }

    RowLayout {
        spacing: 12
        visible: view.cell.heads > 1
        HeadPicker {
            heads: view.cell.heads
            head: view.cell.traceHead
            onHeadChanged: view.cell.traceHead = head
        }
    }
    RowLayout {
        spacing: 8
        Button {
            id: backButton
            objectName: "traceBack"
            text: qsTr("◀ Back")
            enabled: !view.atFirst
            onClicked: view.go(-1)
            ToolTip.visible: hovered
            ToolTip.delay: 500
            ToolTip.text: qsTr("The previous step")
            Accessible.name: qsTr("Previous step")
        }
        Button {
            id: nextButton
            objectName: "traceNext"
            text: qsTr("Next ▶")
            enabled: !view.atLast
            onClicked: view.go(1)
            ToolTip.visible: hovered
            ToolTip.delay: 500
            ToolTip.text: qsTr("The next step")
            Accessible.name: qsTr("Next step")
        }
        Text {
            textFormat: Text.PlainText
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
    // Every step laid out unseen, to size the box for the largest.
    Item {
        id: measure
        visible: false
        Layout.preferredWidth: 0
        Layout.preferredHeight: 0
        readonly property real widest: {
            let w = 0
            for (let i = 0; i < everyStep.count; ++i)
                w = Math.max(w, everyStep.itemAt(i) ? everyStep.itemAt(i).implicitWidth : 0)
            return w
        }
        readonly property real tallest: {
            let h = 0
            for (let i = 0; i < everyStep.count; ++i)
                h = Math.max(h, everyStep.itemAt(i) ? everyStep.itemAt(i).implicitHeight : 0)
            return h
        }
        Repeater {
            id: everyStep
            model: view.steps
            delegate: WorkedLines {
                required property var modelData
                title: modelData.title
                lines: modelData.lines
                availableWidth: view.availableWidth - 24
            }
        }
    }
    Rectangle {
        id: stepBox
        objectName: "traceBox"
        implicitWidth: Math.min(Math.max(measure.widest, stepLines.implicitWidth) + 24, view.availableWidth)
        implicitHeight: Math.max(measure.tallest, stepLines.implicitHeight) + 20
        color: Theme.surfaceAlt
        radius: 4
        // The steps take the keyboard: Left and Right walk them.
        activeFocusOnTab: true
        border.color: activeFocus ? Theme.accent : "transparent"
        border.width: 2
        TapHandler { onTapped: stepBox.forceActiveFocus() }
        Accessible.role: Accessible.Grouping
        Accessible.name: qsTr("Trace, step %1 of %2; Left and Right arrows walk the steps")
                         .arg(view.shownStep + 1).arg(view.steps.length)
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
