pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import Attnbook
import Attnbook.Models

// The FFN's hidden activations, act(G W₁ᵀ + b₁), one row per token: the same network at every
// position, so each row is computed from its own token alone.
ColumnLayout {
    id: view
    required property TransformerCellModel cell
    spacing: 8

    RowLayout {
        visible: view.cell.layersRun > 1
        spacing: 6
        Text { textFormat: Text.PlainText; text: qsTr("Layer"); color: Theme.mutedText; font.pixelSize: Theme.smallSize }
        Choice {
            name: "ffnLayer"
            current: view.cell.shown.ffnLayer
            options: Array.from({ length: view.cell.layersRun }, (_, i) => ({ value: i, label: String(i + 1) }))
            onChosen: value => view.cell.shown.ffnLayer = value
        }
    }
    Text {
        textFormat: Text.PlainText
        visible: !view.cell.ffn
        text: qsTr("The FFN is switched off: each layer adds its attention only.")
        color: Theme.mutedText
        font.pixelSize: Theme.smallSize
    }
    HeatGrid {
        objectName: "ffnGrid"
        visible: view.cell.ffn
        cell: view.cell
        rows: view.cell.shown.ffnRows
        range: view.cell.shown.ffnRange
        availableWidth: view.width
        square: Theme.scaled(11)
        caption: qsTr("hidden units after the activation (each row is one token)")
    }
}
