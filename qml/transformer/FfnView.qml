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
    property int layerIndex: 0
    spacing: 8

    RowLayout {
        visible: view.cell.layersRun > 1
        spacing: 6
        Text { text: qsTr("Layer"); color: Theme.mutedText; font.pixelSize: Theme.smallSize }
        Choice {
            name: "ffnLayer"
            current: view.layerIndex
            options: Array.from({ length: view.cell.layersRun }, (_, i) => ({ value: i, label: String(i + 1) }))
            onChosen: value => view.layerIndex = value
        }
    }
    Text {
        visible: !view.cell.ffn
        text: qsTr("The FFN is switched off: each layer adds its attention only.")
        color: Theme.mutedText
        font.pixelSize: Theme.smallSize
    }
    HeatGrid {
        visible: view.cell.ffn
        cell: view.cell
        rows: { view.cell.revision; return view.cell.ffnRows(Math.min(view.layerIndex, view.cell.layersRun - 1)) }
        range: { view.cell.revision; return view.cell.ffnRange(Math.min(view.layerIndex, view.cell.layersRun - 1)) }
        square: Theme.scaled(11)
        caption: qsTr("hidden units after the activation (each row is one token)")
    }
}
