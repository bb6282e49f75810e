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
    property int stage: 0
    spacing: 8
    // The family of ordinary text, for the label columns of the tables below.
    Text { id: plainText; visible: false }

    readonly property var names: { view.cell.revision; return view.cell.stageNames() }
    readonly property var rows: { view.cell.revision; return view.cell.stageRows(view.stage) }
    onNamesChanged: if (view.stage >= view.names.length) view.stage = view.names.length - 1

    RowLayout {
        spacing: 8
        Button {
            objectName: "streamBack"
            text: qsTr("◀ Back")
            enabled: view.stage > 0
            opacity: enabled ? 1 : 0.4
            onClicked: view.stage -= 1
        }
        Text {
            objectName: "streamStage"
            text: qsTr("Stage %1 of %2: %3").arg(view.stage + 1).arg(view.names.length)
                  .arg(view.names[view.stage] || "")
            color: Theme.text
            font.pixelSize: Theme.proseSize
            font.bold: true
        }
        Button {
            objectName: "streamNext"
            text: qsTr("Next ▶")
            enabled: view.stage < view.names.length - 1
            opacity: enabled ? 1 : 0.4
            onClicked: view.stage += 1
        }
    }
    Flow {
        Layout.fillWidth: true
        spacing: Theme.scaled(24)
        HeatGrid {
            cell: view.cell
            rows: view.rows
            range: { view.cell.revision; return view.cell.stageRange(view.stage) }
            caption: view.cell.shownColumns < view.cell.d
                     ? qsTr("each token's vector after this stage: its first %1 of d = %2 numbers").arg(view.cell.shownColumns).arg(view.cell.d)
                     : qsTr("each token's vector after this stage (d = %1)").arg(view.cell.d)
        }
        HeatGrid {
            visible: view.stage > 0
            cell: view.cell
            rows: view.rows
            valuesKey: "change"
            range: { view.cell.revision; return view.cell.changeRange(view.stage) }
            caption: qsTr("what this stage added")
        }
    }
    // The length of each vector and of the change: how much each stage moves each token.
    GridLayout {
        columns: view.stage > 0 ? 3 : 2
        columnSpacing: Theme.scaled(18)
        rowSpacing: 2
        Text { text: qsTr("token"); color: Theme.mutedText; font.pixelSize: Theme.smallSize; font.bold: true }
        Text { text: qsTr("length of the vector"); color: Theme.mutedText; font.pixelSize: Theme.smallSize; font.bold: true }
        Text { visible: view.stage > 0; text: qsTr("length of the change"); color: Theme.mutedText; font.pixelSize: Theme.smallSize; font.bold: true }
        Repeater {
            model: view.rows.length * 3
            delegate: Text {
                required property int index
                readonly property var row: view.rows[Math.floor(index / 3)]
                visible: index % 3 !== 2 || view.stage > 0
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
