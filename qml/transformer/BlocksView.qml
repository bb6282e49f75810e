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
    // The choices are the cell's (they stay when the card scrolls away).
    readonly property TransformerShownViews shown: view.cell.shown
    readonly property int shownStep: view.shown.blocksStep
    spacing: 8
    // The family of ordinary text, for the label columns of the tables below.
    Text { textFormat: Text.PlainText; id: plainText; visible: false }

    readonly property var result: view.shown.blocks
    readonly property var steps: view.result.steps || []

    Flow {
        Layout.fillWidth: true
        spacing: 14
        RowLayout {
            visible: view.cell.layersRun > 1
            Text { textFormat: Text.PlainText; text: qsTr("Layer"); color: Theme.mutedText; font.pixelSize: Theme.smallSize }
            Choice {
                name: "blocksLayer"
                current: view.shown.blocksLayer
                options: Array.from({ length: view.cell.layersRun }, (_, i) => ({ value: i, label: String(i + 1) }))
                onChosen: value => view.shown.blocksLayer = value
            }
        }
        RowLayout {
            Text { textFormat: Text.PlainText; text: qsTr("Head"); color: Theme.mutedText; font.pixelSize: Theme.smallSize }
            Choice {
                name: "blocksHead"
                current: view.shown.blocksHead
                options: Array.from({ length: view.shown.blocksHeads },
                                    (_, i) => ({ value: i, label: String(i + 1) }))
                onChosen: value => view.shown.blocksHead = value
            }
        }
        RowLayout {
            Text { textFormat: Text.PlainText; text: qsTr("Query row"); color: Theme.mutedText; font.pixelSize: Theme.smallSize }
            ThemedComboBox {
                objectName: "blocksRow"
                model: Array.from(view.cell.tokens).map((t, i) => (i + 1) + ": " + t)
                currentIndex: view.shown.blocksRow
                onActivated: index => view.shown.blocksRow = index
            }
        }
        RowLayout {
            Text { textFormat: Text.PlainText; text: qsTr("Keys per block"); color: Theme.mutedText; font.pixelSize: Theme.smallSize }
            SpinBox {
                objectName: "blockSize"
                from: 1
                to: Math.max(1, view.cell.n)
                value: view.shown.blockSize
                onValueModified: view.shown.blockSize = value
            }
        }
    }
    RowLayout {
        spacing: 8
        Button {
            text: qsTr("◀ Back")
            enabled: view.shownStep > 0
            opacity: enabled ? 1 : 0.4
            onClicked: view.shown.blocksStep = view.shownStep - 1
        }
        Text {
            textFormat: Text.PlainText
            objectName: "blocksStep"
            text: view.shownStep >= view.steps.length ? ""
                  : qsTr("Block %1 of %2: keys %3–%4").arg(view.shownStep + 1).arg(view.steps.length)
                    .arg(view.steps[view.shownStep].first + 1).arg(view.steps[view.shownStep].end)
            color: Theme.text
            font.pixelSize: Theme.proseSize
            font.bold: true
        }
        Button {
            text: qsTr("Next ▶")
            enabled: view.shownStep < view.steps.length - 1
            opacity: enabled ? 1 : 0.4
            onClicked: view.shown.blocksStep = view.shownStep + 1
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
                textFormat: Text.PlainText
                required property string modelData
                text: modelData
                color: Theme.mutedText
                font.pixelSize: Theme.smallSize
                font.bold: true
            }
        }
        Repeater {
            model: Math.min(view.shownStep + 1, view.steps.length) * 4
            delegate: Text {
                textFormat: Text.PlainText
                required property int index
                readonly property var step: view.steps[Math.floor(index / 4)]
                text: index % 4 === 0 ? (step.first + 1) + "–" + step.end
                    : index % 4 === 1 ? (step.max === undefined || step.max === null ? qsTr("(nothing read yet)") : view.cell.number(step.max, 4))
                    : index % 4 === 2 ? view.cell.number(step.total, 4)
                    : "[" + step.out.map(v => view.cell.number(v, 3)).join(", ") + "]"
                color: Math.floor(index / 4) === view.shownStep ? Theme.text : Theme.mutedText
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
        textFormat: Text.PlainText
        objectName: "blocksResult"
        visible: view.steps.length > 0 && view.shownStep === view.steps.length - 1
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
        textFormat: Text.PlainText
        text: qsTr("Each row needs room for one block of scores and one output row (%1 + %2 numbers), never a whole row of %3 scores.")
              .arg(view.shown.blockSize).arg((view.result.output || []).length).arg(view.cell.n)
        color: Theme.mutedText
        font.pixelSize: Theme.smallSize
        wrapMode: Text.WordWrap
        Layout.fillWidth: true
    }
}
