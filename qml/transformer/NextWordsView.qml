pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import Attnbook
import Attnbook.Models

// The chances for the word after the last token, largest first, as bars; the word the cell
// picks is marked.
ColumnLayout {
    id: view
    required property TransformerCellModel cell
    spacing: 4

    Text {
        textFormat: Text.PlainText
        objectName: "nextCaption"
        text: qsTr("After “%1”, the next word:").arg(Array.from(view.cell.tokens).join(" "))
        color: Theme.text
        font.pixelSize: Theme.proseSize
        wrapMode: Text.WordWrap
        Layout.fillWidth: true
    }
    Repeater {
        model: view.cell.shown.nextWords
        delegate: RowLayout {
            id: bar
            required property var modelData
            required property int index
            spacing: 8
            Text {
                textFormat: Text.PlainText
                objectName: "nextWord_" + bar.index
                Layout.preferredWidth: Theme.scaled(80)
                text: bar.modelData.word
                horizontalAlignment: Text.AlignRight
                elide: Text.ElideRight
                color: Theme.text
                font.pixelSize: Theme.proseSize - 2
                font.bold: bar.modelData.chosen
            }
            Rectangle {
                Layout.preferredWidth: Math.max(2, bar.modelData.prob * Theme.scaled(360))
                Layout.preferredHeight: Theme.scaled(18)
                color: bar.modelData.chosen ? Theme.accent : Theme.strongBorder
                radius: 2
            }
            Text {
                textFormat: Text.PlainText
                objectName: "nextProb_" + bar.index
                text: view.cell.number(bar.modelData.prob, 4)
                      + (bar.modelData.chosen ? "  " + qsTr("← picked") : "")
                color: bar.modelData.chosen ? Theme.accent : Theme.mutedText
                font.family: Theme.monoFamily
                font.pixelSize: Theme.smallSize
            }
        }
    }
    Text {
        textFormat: Text.PlainText
        text: qsTr("Temperature %1: the logits are divided by it before the softmax.")
              .arg(view.cell.number(view.cell.temperature, 2))
        color: Theme.mutedText
        font.pixelSize: Theme.smallSize
    }
}
