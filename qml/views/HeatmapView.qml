pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Attnbook
import Attnbook.Models
import Attnbook.Window

// The weights of every head as heatmaps side by side, with the colour
// scale, the focus row outlined and the row check underneath. In change
// mode: the signed change from the lesson's own weights.
ColumnLayout {
    id: view
    required property AttentionCellModel cell
    property bool change: false
    property real availableWidth: 800
    spacing: 8

    readonly property int heads: cell.heads
    readonly property real gap: Theme.scaled(24)
    readonly property real eachWidth: Math.max(Theme.scaled(160), Math.min(
        (availableWidth - (heads - 1) * gap) / heads,
        Theme.scaled(110 + cell.m * 64)))

    // Shares spread thin over many tokens all look pale on a 0 … 1 scale.
    property bool stretched: cell.largestShare < 0.3
    Switch {
        objectName: "stretchColours"
        id: stretchSwitch
        indicator: Indicator { control: stretchSwitch; kind: "switch" }
        visible: !view.change && view.cell.largestShare < 0.5
        text: qsTr("Stretch the colours to the largest share, %1").arg(Number(view.cell.largestShare.toFixed(4)))
        checked: view.stretched
        onToggled: view.stretched = checked
        ToolTip.visible: hovered
        ToolTip.delay: 500
        ToolTip.text: qsTr("Off: the darkest colour is a share of 1. On: it is the largest share shown.")
        Accessible.name: qsTr("Stretch the colour scale")
    }

    Text {
        textFormat: Text.PlainText
        text: view.change
              ? qsTr("Change in each share against the lesson's own cell (warm: a larger share than before, cool: a smaller one)")
              : qsTr("Rows: the token that reads · columns: the token read · outlined: the focus row")
        color: Theme.mutedText
        font.pixelSize: Theme.smallSize
        wrapMode: Text.WordWrap
        Layout.maximumWidth: view.availableWidth
    }

    Flow {
        Layout.preferredWidth: view.availableWidth
        spacing: view.gap
        Repeater {
            model: view.heads
            delegate: Column {
                id: headColumn
                required property int index
                spacing: 4
                Text {
                    textFormat: Text.PlainText
                    visible: view.heads > 1
                    text: qsTr("Head %1").arg(headColumn.index + 1)
                    color: Theme.text
                    font.pixelSize: Theme.smallSize
                    font.bold: true
                }
                HeatmapItem {
                    id: heatmap
                    objectName: "heatmap_h" + headColumn.index
                    cell: view.cell
                    head: headColumn.index
                    change: view.change
                    scaleTop: view.stretched && !view.change ? view.cell.largestShare : 1
                    dark: Theme.dark
                    textColor: Theme.text
                    accentColor: Theme.accent
                    backgroundColor: Theme.surface
                    font.pixelSize: Theme.smallSize
                    maximumSquare: Theme.scaled(56)
                    width: view.eachWidth
                    height: implicitHeight
                    Accessible.role: Accessible.Graphic
                    Accessible.name: (view.change ? qsTr("Change in weights") : qsTr("Weights"))
                                     + (view.heads > 1 ? qsTr(", head %1").arg(headColumn.index + 1) : "")
                    HoverHandler { id: hover }
                    ToolTip.visible: hover.hovered && tip.length > 0
                    ToolTip.text: tip
                    property string tip: hover.hovered
                        ? heatmap.describeAt(hover.point.position.x, hover.point.position.y) : ""
                }
                SaveFigureButton {
                    visible: !view.change
                    objectName: "saveHeatmap_h" + headColumn.index
                    what: view.heads > 1 ? qsTr("heatmap of head %1").arg(headColumn.index + 1) : qsTr("heatmap")
                    suggestedName: FigureSaver.suggestedName(view.cell.cellId, view.heads > 1
                                   ? "heatmap-head" + (headColumn.index + 1) : "heatmap")
                    save: path => FigureSaver.saveHeatmap(view.cell, headColumn.index, path)
                }
            }
        }
    }

    ColourScaleItem {
        change: view.change
        range: view.change ? Math.max(view.cell.changeRange, 1e-9)
                           : view.stretched ? Math.max(view.cell.largestShare, 1e-9) : 1
        dark: Theme.dark
        textColor: Theme.mutedText
        font.pixelSize: Theme.scaled(11)
        Layout.preferredWidth: Theme.scaled(240)
        Layout.preferredHeight: Theme.scaled(34)
        Accessible.role: Accessible.Graphic
        Accessible.name: view.change ? qsTr("Colour scale: change from −%1 to +%1").arg(range)
                                     : qsTr("Colour scale: share from 0 to %1").arg(range)
    }
}
