pragma ComponentBehavior: Bound
import QtQuick
import Attnbook

// A cell that could not be read or computed: why, and its source as typed.
Card {
    id: card
    required property string source
    required property var problems
    required property string name
    kind: qsTr("Cell with errors")
    cellId: name
    edge: Theme.bad
    Accessible.role: Accessible.Grouping
    Accessible.name: qsTr("Cell %1 has errors").arg(name)

    Repeater {
        model: card.problems
        delegate: Text {
            textFormat: Text.PlainText
            required property string modelData
            width: card.contentWidth
            text: "✗ " + modelData
            color: Theme.bad
            font.pixelSize: Theme.smallSize
            wrapMode: Text.WordWrap
        }
    }
    Rectangle {
        width: card.contentWidth
        implicitHeight: sourceText.implicitHeight + 16
        color: Theme.sunken
        radius: 4
        border.color: Theme.border
        Text {
            id: sourceText
            x: 8
            y: 8
            width: Math.max(parent.width - 16, 0)
            text: card.source
            textFormat: Text.PlainText
            color: Theme.text
            font.family: Theme.monoFamily
            font.pixelSize: Theme.monoSize
            wrapMode: Text.WrapAnywhere
        }
    }
}
