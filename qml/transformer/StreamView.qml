pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Attnbook
import Attnbook.Models

// The residual stream: each token's vector after one stage (tokens + positions, each layer's
// attention and FFN, the final LayerNorm) and what that stage added to it. A stage adds to the
// stream; it never replaces it.
ColumnLayout {
    id: view
    required property TransformerCellModel cell
    // The chosen stage is the cell's (it stays when the card scrolls away).
    readonly property int stage: view.cell.shown.stage
    spacing: 8
    // The family of ordinary text, for the label columns of the tables below.
    Text { textFormat: Text.PlainText; id: plainText; visible: false }

    readonly property var names: view.cell.shown.stageNames
    readonly property var rows: view.cell.shown.stageRows
    // The final LayerNorm rescales the stream rather than adding to it: it has no "added".
    readonly property bool adds: view.stage > 0 && view.stage < view.names.length - 1

    // Back and Next side by side before the stage's name, so neither moves when the name's
    // length changes.
    RowLayout {
        spacing: 8
        Button {
            objectName: "streamBack"
            text: qsTr("◀ Back")
            enabled: view.stage > 0
            opacity: enabled ? 1 : 0.4
            onClicked: view.cell.shown.stage = view.stage - 1
        }
        Button {
            objectName: "streamNext"
            text: qsTr("Next ▶")
            enabled: view.stage < view.names.length - 1
            opacity: enabled ? 1 : 0.4
            onClicked: view.cell.shown.stage = view.stage + 1
        }
        Text {
            objectName: "streamStage"
            text: qsTr("Stage %1 of %2: %3").arg(view.stage + 1).arg(view.names.length)
                  .arg(view.names[view.stage] || "")
            textFormat: Text.PlainText
            color: Theme.text
            font.pixelSize: Theme.proseSize
            font.bold: true
        }
    }
    Flow {
        Layout.fillWidth: true
        spacing: Theme.scaled(24)
        HeatGrid {
            cell: view.cell
            rows: view.rows
            range: view.cell.shown.streamRange
            availableWidth: view.width
            caption: view.cell.shownColumns < view.cell.d
                     ? qsTr("each token's vector after this stage: its first %1 of d = %2 numbers (one colour scale for every stage)").arg(view.cell.shownColumns).arg(view.cell.d)
                     : qsTr("each token's vector after this stage (d = %1; one colour scale for every stage)").arg(view.cell.d)
        }
        HeatGrid {
            visible: view.adds
            cell: view.cell
            rows: view.rows
            valuesKey: "change"
            range: view.cell.shown.streamRange
            availableWidth: view.width
            caption: qsTr("what this stage added")
        }
    }
    Text {
        textFormat: Text.PlainText
        visible: view.stage > 0 && !view.adds
        text: qsTr("The final LayerNorm rescales each vector rather than adding to it: the next-word chances are read from these.")
        color: Theme.mutedText
        font.pixelSize: Theme.smallSize
        wrapMode: Text.WordWrap
        Layout.fillWidth: true
    }
    // The length of each vector and of the change: how much each stage moves each token.
    GridLayout {
        columns: view.adds ? 3 : 2
        columnSpacing: Theme.scaled(18)
        rowSpacing: 2
        Text { textFormat: Text.PlainText; text: qsTr("token"); color: Theme.mutedText; font.pixelSize: Theme.smallSize; font.bold: true }
        Text { textFormat: Text.PlainText; text: qsTr("length of the vector"); color: Theme.mutedText; font.pixelSize: Theme.smallSize; font.bold: true }
        Text { textFormat: Text.PlainText; visible: view.adds; text: qsTr("length of the change"); color: Theme.mutedText; font.pixelSize: Theme.smallSize; font.bold: true }
        Repeater {
            model: view.rows.length * 3
            delegate: Text {
                textFormat: Text.PlainText
                required property int index
                readonly property var row: view.rows[Math.floor(index / 3)]
                objectName: ["streamToken_", "streamLength_", "streamChange_"][index % 3] + Math.floor(index / 3)
                visible: index % 3 !== 2 || view.adds
                text: index % 3 === 0 ? row.label
                    : index % 3 === 1 ? view.cell.number(row.norm, 3)
                    : (row.changeNorm !== undefined ? view.cell.number(row.changeNorm, 3) : "")
                color: Theme.text
                font.family: index % 3 === 0 ? plainText.font.family : Theme.monoFamily
                font.pixelSize: Theme.smallSize
                Layout.alignment: index % 3 === 0 ? Qt.AlignLeft : Qt.AlignRight
            }
        }
    }
}
