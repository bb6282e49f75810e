pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import Attnbook
import Attnbook.Models

// Rows of numbers as coloured squares, one row per token, each labelled: a signed value on the
// diverging scale of the heatmaps (blue below 0, red above), with the scale's ends below. When
// the row's numbers fit the width, each square shows its number (two decimals); else the number
// is on hover.
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
    // The width the grid may take: where its numbers fit, it shows them.
    property real availableWidth: 600
    readonly property int columns: rows.length > 0 ? (rows[0][valuesKey] || []).length : 0
    readonly property real labelWidth: Theme.scaled(64)
    readonly property real numberWidth: Theme.scaled(44)
    readonly property bool showsNumbers: columns > 0
        && labelWidth + 6 + columns * (numberWidth + 1) <= availableWidth
    // Each entry's width: its number's, else a square that keeps the row within the width.
    readonly property real cellWidth: showsNumbers ? numberWidth
        : Math.max(3, Math.min(square, (availableWidth - labelWidth - 6) / Math.max(1, columns) - 1))
    // A row is as tall as its label, however small the squares.
    readonly property real rowHeight: Math.max(square, Theme.smallSize + 4)
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
                width: grid.labelWidth
                height: grid.rowHeight
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
                        width: grid.cellWidth
                        height: grid.rowHeight
                        color: grid.cell.changeColour(grid.range > 0 ? modelData / grid.range : 0,
                                                      Theme.dark)
                        Text {
                            textFormat: Text.PlainText
                            visible: grid.showsNumbers
                            anchors.centerIn: parent
                            text: grid.cell.number(square.modelData, 2)
                            color: grid.cell.textOn(square.color)
                            font.family: Theme.monoFamily
                            font.pixelSize: Theme.smallSize - 1
                        }
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
    // The scale: the colours' ends and their values.
    Row {
        visible: grid.range > 0 && grid.rows.length > 0
        spacing: 6
        topPadding: 4
        Text {
            textFormat: Text.PlainText
            width: grid.labelWidth
            text: qsTr("scale")
            horizontalAlignment: Text.AlignRight
            color: Theme.mutedText
            font.pixelSize: Theme.smallSize
        }
        Text {
            textFormat: Text.PlainText
            text: grid.cell.number(-grid.range, 2)
            color: Theme.mutedText
            font.family: Theme.monoFamily
            font.pixelSize: Theme.smallSize
        }
        Rectangle {
            width: Theme.scaled(160)
            height: Theme.scaled(10)
            anchors.verticalCenter: parent.verticalCenter
            gradient: Gradient {
                orientation: Gradient.Horizontal
                GradientStop { position: 0; color: grid.cell.changeColour(-1, Theme.dark) }
                GradientStop { position: 0.5; color: grid.cell.changeColour(0, Theme.dark) }
                GradientStop { position: 1; color: grid.cell.changeColour(1, Theme.dark) }
            }
        }
        Text {
            textFormat: Text.PlainText
            text: grid.cell.number(grid.range, 2)
            color: Theme.mutedText
            font.family: Theme.monoFamily
            font.pixelSize: Theme.smallSize
        }
    }
}
