pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import Attnbook
import Attnbook.Models

// Rows of numbers as coloured squares, one row per token, each labelled: a signed value on the
// diverging scale of the heatmaps (blue below 0, red above), its number on hover.
Column {
    id: grid
    required property TransformerCellModel cell
    // [{label, values: [...]}]
    required property var rows
    // |value| at the ends of the scale; 0 draws every square neutral.
    required property real range
    property string valuesKey: "values"
    property real square: Theme.scaled(18)
    property string caption: ""
    spacing: 2

    Text {
        textFormat: Text.PlainText
        visible: grid.caption.length > 0
        text: grid.caption
        color: Theme.mutedText
        font.pixelSize: Theme.smallSize
    }
    Repeater {
        model: grid.rows
        delegate: Row {
            id: line
            required property var modelData
            spacing: 6
            Text {
                textFormat: Text.PlainText
                width: Theme.scaled(64)
                height: grid.square
                text: line.modelData.label
                elide: Text.ElideRight
                horizontalAlignment: Text.AlignRight
                verticalAlignment: Text.AlignVCenter
                color: Theme.text
                font.pixelSize: Theme.smallSize
                font.bold: true
            }
            Row {
                spacing: 1
                Repeater {
                    model: line.modelData[grid.valuesKey] || []
                    delegate: Rectangle {
                        id: square
                        required property var modelData
                        required property int index
                        width: grid.square
                        height: grid.square
                        color: grid.cell.changeColour(grid.range > 0 ? modelData / grid.range : 0,
                                                      Theme.dark)
                        HoverHandler { id: hover }
                        ToolTip.visible: hover.hovered
                        ToolTip.delay: 200
                        ToolTip.text: qsTr("%1, column %2: %3").arg(line.modelData.label)
                                      .arg(square.index).arg(grid.cell.number(square.modelData, 4))
                    }
                }
            }
        }
    }
}
