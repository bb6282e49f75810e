pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Attnbook
import Attnbook.Models

// One head's output for one query row, computed the way fast kernels do: keys a block at a
// time, keeping only a running maximum m, a running total ℓ and a running output o. Step
// through the blocks; the last step's o / ℓ equals the plain softmax path.
ColumnLayout {
    id: view
    required property TransformerCellModel cell
    property int layerIndex: 0
    property int head: 0
    property int row: Math.max(0, view.cell.n - 1)
    property int blockSize: view.cell.blockSize
    property int shown: 0
    spacing: 8
    // The family of ordinary text, for the label columns of the tables below.
    Text { id: plainText; visible: false }

    readonly property var result: {
        view.cell.revision
        return view.cell.blocks(Math.min(view.layerIndex, view.cell.layersRun - 1),
                                Math.min(view.head, view.cell.headsOf(Math.min(view.layerIndex, view.cell.layersRun - 1)) - 1),
                                Math.min(view.row, view.cell.n - 1), view.blockSize)
    }
    readonly property var steps: view.result.steps || []
    onStepsChanged: view.shown = Math.min(view.shown, Math.max(0, view.steps.length - 1))

    Flow {
        Layout.fillWidth: true
        spacing: 14
        RowLayout {
            visible: view.cell.layersRun > 1
            Text { text: qsTr("Layer"); color: Theme.mutedText; font.pixelSize: Theme.smallSize }
            Choice {
                name: "blocksLayer"
                current: view.layerIndex
                options: Array.from({ length: view.cell.layersRun }, (_, i) => ({ value: i, label: String(i + 1) }))
                onChosen: value => view.layerIndex = value
            }
        }
        RowLayout {
            Text { text: qsTr("Head"); color: Theme.mutedText; font.pixelSize: Theme.smallSize }
            Choice {
                name: "blocksHead"
                current: view.head
                options: Array.from({ length: view.cell.headsOf(Math.min(view.layerIndex, view.cell.layersRun - 1)) },
                                    (_, i) => ({ value: i, label: String(i + 1) }))
                onChosen: value => view.head = value
            }
        }
        RowLayout {
            Text { text: qsTr("Query row"); color: Theme.mutedText; font.pixelSize: Theme.smallSize }
            ThemedComboBox {
                objectName: "blocksRow"
                model: Array.from(view.cell.tokens).map((t, i) => (i + 1) + ": " + t)
                currentIndex: Math.min(view.row, view.cell.n - 1)
                onActivated: index => view.row = index
            }
        }
        RowLayout {
            Text { text: qsTr("Keys per block"); color: Theme.mutedText; font.pixelSize: Theme.smallSize }
            SpinBox {
                objectName: "blockSize"
                from: 1
                to: Math.max(1, view.cell.n)
                value: view.blockSize
                onValueModified: view.blockSize = value
            }
        }
    }
    RowLayout {
        spacing: 8
        Button {
            text: qsTr("◀ Back")
            enabled: view.shown > 0
            opacity: enabled ? 1 : 0.4
            onClicked: view.shown -= 1
        }
        Text {
            objectName: "blocksStep"
            text: view.steps.length === 0 ? ""
                  : qsTr("Block %1 of %2: keys %3–%4").arg(view.shown + 1).arg(view.steps.length)
                    .arg(view.steps[view.shown].first + 1).arg(view.steps[view.shown].end)
            color: Theme.text
            font.pixelSize: Theme.proseSize
            font.bold: true
        }
        Button {
            text: qsTr("Next ▶")
            enabled: view.shown < view.steps.length - 1
            opacity: enabled ? 1 : 0.4
            onClicked: view.shown += 1
        }
    }
    GridLayout {
        Layout.fillWidth: true
        columns: 4
        columnSpacing: Theme.scaled(16)
        rowSpacing: 2
        Repeater {
            model: [qsTr("after keys"), qsTr("running max m"), qsTr("running total ℓ"), qsTr("running output o")]
            delegate: Text {
                required property string modelData
                text: modelData
                color: Theme.mutedText
                font.pixelSize: Theme.smallSize
                font.bold: true
            }
        }
        Repeater {
            model: Math.min(view.shown + 1, view.steps.length) * 4
            delegate: Text {
                required property int index
                readonly property var step: view.steps[Math.floor(index / 4)]
                text: index % 4 === 0 ? (step.first + 1) + "–" + step.end
                    : index % 4 === 1 ? (step.max === undefined || step.max === null ? qsTr("(nothing read yet)") : view.cell.number(step.max, 4))
                    : index % 4 === 2 ? view.cell.number(step.total, 4)
                    : "[" + step.out.map(v => view.cell.number(v, 3)).join(", ") + "]"
                color: Math.floor(index / 4) === view.shown ? Theme.text : Theme.mutedText
                font.family: index % 4 === 0 ? plainText.font.family : Theme.monoFamily
                font.pixelSize: Theme.smallSize
                // The running output is a whole row of d_v numbers: it wraps within the card.
                wrapMode: index % 4 === 3 ? Text.Wrap : Text.NoWrap
                Layout.fillWidth: index % 4 === 3
                Layout.maximumWidth: index % 4 === 3 ? view.width * 0.55 : -1
            }
        }
    }
    Text {
        visible: view.steps.length > 0 && view.shown === view.steps.length - 1
        text: qsTr("o / ℓ = [%1], the plain path gives [%2]: they differ by at most %3.")
              .arg((view.result.output || []).map(v => view.cell.number(v, 4)).join(", "))
              .arg((view.result.plain || []).map(v => view.cell.number(v, 4)).join(", "))
              .arg(Number(view.result.difference || 0).toExponential(1))
        color: Theme.good
        font.pixelSize: Theme.smallSize
        wrapMode: Text.WordWrap
        Layout.fillWidth: true
    }
    Text {
        text: qsTr("Each row needs room for one block of scores and one output row (%1 + %2 numbers), never a whole row of %3 scores.")
              .arg(view.blockSize).arg((view.result.output || []).length).arg(view.cell.n)
        color: Theme.mutedText
        font.pixelSize: Theme.smallSize
        wrapMode: Text.WordWrap
        Layout.fillWidth: true
    }
}
