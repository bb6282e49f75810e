pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import Attnbook
import Attnbook.Models

// The words generation appends, one per step, each with the chance it had when it was picked.
ColumnLayout {
    id: view
    required property TransformerCellModel cell
    spacing: 8
    readonly property var steps: view.cell.shown.generation

    Text {
        textFormat: Text.PlainText
        visible: view.cell.generationRefused.length > 0
        text: "⚠ " + view.cell.generationRefused
        color: Theme.warning
        font.pixelSize: Theme.smallSize
        wrapMode: Text.WordWrap
        Layout.fillWidth: true
    }
    Text {
        textFormat: Text.PlainText
        visible: view.steps.length === 0 && view.cell.generationRefused.length === 0
        text: view.cell.complete ? qsTr("Generation is off: choose a number of words to append.")
                                 : qsTr("Generating…")
        color: Theme.mutedText
        font.pixelSize: Theme.smallSize
    }
    Flow {
        Layout.fillWidth: true
        spacing: 6
        Repeater {
            model: view.cell.tokens
            delegate: Rectangle {
                required property string modelData
                width: promptWord.implicitWidth + 16
                height: Theme.scaled(44)
                radius: 4
                color: Theme.surfaceAlt
                border.color: Theme.border
                Text {
                    textFormat: Text.PlainText
                    id: promptWord
                    anchors.centerIn: parent
                    text: parent.modelData
                    color: Theme.text
                    font.pixelSize: Theme.proseSize
                }
            }
        }
        Repeater {
            model: view.steps
            delegate: Rectangle {
                id: chip
                required property var modelData
                required property int index
                width: Math.max(word.implicitWidth, chance.implicitWidth) + 16
                height: Theme.scaled(44)
                radius: 4
                color: Theme.focusRow
                border.color: Theme.accent
                Column {
                    anchors.centerIn: parent
                    Text {
                        textFormat: Text.PlainText
                        id: word
                        objectName: "generatedWord_" + chip.index
                        anchors.horizontalCenter: parent.horizontalCenter
                        text: chip.modelData.word
                        color: Theme.text
                        font.pixelSize: Theme.proseSize
                        font.bold: true
                    }
                    Text {
                        textFormat: Text.PlainText
                        id: chance
                        anchors.horizontalCenter: parent.horizontalCenter
                        text: qsTr("step %1 · %2").arg(chip.index + 1).arg(view.cell.number(chip.modelData.prob, 3))
                        color: Theme.mutedText
                        font.pixelSize: Theme.smallSize - 1
                    }
                }
            }
        }
    }
    Text {
        textFormat: Text.PlainText
        visible: view.steps.length > 0
        text: view.cell.pick === "greedy"
              ? qsTr("Greedy: each step takes the most likely word.")
              : qsTr("Sampled with seed %1: each step draws a word by its chance.").arg(view.cell.seed)
        color: Theme.mutedText
        font.pixelSize: Theme.smallSize
    }
}
