pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import Attnbook
import Attnbook.Models

// Knock-outs (docs/transformer.md): the whole model's top word for the focus row, and its
// chance when each part is removed in turn, as bars beside the whole model's. A bar that keeps
// its length belongs to a part this word did not need.
ColumnLayout {
    id: view
    required property TransformerCellModel cell
    readonly property var knockout: cell.shown.knockout
    readonly property bool ready: knockout.bars !== undefined
    readonly property real labelWidth: Theme.scaled(130)
    readonly property real trackWidth: Theme.scaled(300)
    spacing: 4

    Text {
        textFormat: Text.PlainText
        objectName: "knockoutCaption"
        visible: view.ready
        text: view.ready
              ? qsTr("After “%1”, the whole model gives “%2” a chance of %3. Run again with one part removed:")
                .arg(Array.from(view.cell.tokens).slice(0, view.knockout.row + 1).join(" "))
                .arg(view.knockout.word).arg(view.cell.number(view.knockout.full, 4))
              : ""
        color: Theme.text
        font.pixelSize: Theme.proseSize
        wrapMode: Text.WordWrap
        Layout.fillWidth: true
    }
    Text {
        textFormat: Text.PlainText
        visible: !view.ready
        text: qsTr("The knock-outs are being computed…")
        color: Theme.mutedText
        font.pixelSize: Theme.smallSize
    }
    component Bar: RowLayout {
        id: bar
        property string part
        property real prob
        property string instead
        property bool whole: false
        spacing: 8
        Text {
            textFormat: Text.PlainText
            Layout.preferredWidth: view.labelWidth
            text: bar.part
            horizontalAlignment: Text.AlignRight
            elide: Text.ElideRight
            color: Theme.text
            font.pixelSize: Theme.proseSize - 2
            font.bold: bar.whole
        }
        Rectangle {
            Layout.preferredWidth: view.trackWidth
            Layout.preferredHeight: Theme.scaled(16)
            color: Theme.sunken
            radius: 2
            Rectangle {
                width: Math.max(2, Math.min(1, bar.prob) * parent.width)
                height: parent.height
                radius: 2
                color: bar.whole ? Theme.accent : Theme.strongBorder
            }
        }
        Text {
            textFormat: Text.PlainText
            objectName: "knockoutProb"
            text: view.cell.number(bar.prob, 4)
            color: bar.whole ? Theme.accent : Theme.text
            font.family: Theme.monoFamily
            font.pixelSize: Theme.smallSize
        }
        Text {
            textFormat: Text.PlainText
            visible: bar.instead !== ""
            text: qsTr("→ “%1” comes first").arg(bar.instead)
            color: Theme.warning
            font.pixelSize: Theme.smallSize
        }
    }
    Bar {
        visible: view.ready
        objectName: "knockoutWhole"
        part: qsTr("whole model")
        prob: view.ready ? view.knockout.full : 0
        instead: ""
        whole: true
    }
    Repeater {
        model: view.ready ? view.knockout.bars : []
        delegate: Bar {
            required property var modelData
            required property int index
            objectName: "knockoutBar_" + index
            part: modelData.part
            prob: modelData.prob
            instead: modelData.topChanged ? modelData.topWord : ""
        }
    }
    Text {
        textFormat: Text.PlainText
        visible: view.ready
        text: qsTr("A head removed: its output is zero before W_O. Attention or FFN removed: it adds nothing to the stream. Block removed: its input passes straight on.")
        color: Theme.mutedText
        font.pixelSize: Theme.smallSize
        wrapMode: Text.WordWrap
        Layout.fillWidth: true
    }
}
