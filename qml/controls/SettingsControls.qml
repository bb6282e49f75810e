pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Attnbook
import Attnbook.Models

// Heads, mask and padding, positional encoding and scaling, each shown only
// when the cell's `controls` allow it. Heads offers only the counts that
// divide the width.
ColumnLayout {
    id: settings
    required property AttentionCellModel cell
    property string refusal: ""
    spacing: 8

    function report(reason: string) { settings.refusal = reason }
    // The width the heads share: d, or in direct mode the columns of Q.
    function sharedWidth(): int {
        return settings.cell.direct ? settings.cell.dK * settings.cell.heads : settings.cell.d
    }

    Flow {
        Layout.fillWidth: true
        spacing: 14

        RowLayout {
            visible: settings.cell.allows("heads")
            spacing: 6
            Text { textFormat: Text.PlainText; text: qsTr("Heads"); color: Theme.mutedText; font.pixelSize: Theme.smallSize }
            Choice {
                name: "heads"
                accessibleName: qsTr("Heads")
                current: settings.cell.heads
                options: Array.from(settings.cell.allowedHeads).map(h => ({
                    value: h, label: String(h),
                    tip: h === 1 ? qsTr("1 head, %1 wide").arg(settings.sharedWidth())
                                 : qsTr("%1 heads, each %2 wide").arg(h).arg(settings.sharedWidth() / h)
                }))
                onChosen: value => settings.report(settings.cell.setHeads(value))
            }
        }
        RowLayout {
            visible: settings.cell.allows("mask")
            spacing: 6
            Text { textFormat: Text.PlainText; text: qsTr("Mask"); color: Theme.mutedText; font.pixelSize: Theme.smallSize }
            Choice {
                name: "mask"
                accessibleName: qsTr("Mask")
                current: settings.cell.mask
                options: [
                    { value: "none", label: qsTr("none"), tip: qsTr("Every token reads every token") },
                    { value: "causal", label: qsTr("causal"), tip: qsTr("A token reads only itself and the tokens before it") }
                ]
                onChosen: value => settings.report(settings.cell.setMask(value))
            }
        }
        RowLayout {
            visible: settings.cell.allows("positional") && !settings.cell.direct
            spacing: 6
            Text { textFormat: Text.PlainText; text: qsTr("Positional"); color: Theme.mutedText; font.pixelSize: Theme.smallSize }
            Choice {
                name: "positional"
                accessibleName: qsTr("Positional encoding")
                current: settings.cell.positional
                options: {
                    const out = [
                        { value: "none", label: qsTr("none"), tip: qsTr("Tokens enter attention as they are") },
                        { value: "sinusoidal", label: qsTr("sinusoidal"), tip: qsTr("Add sin/cos of the position to each token") }
                    ]
                    if (settings.cell.hasLearnedPositional)
                        out.push({ value: "learned", label: qsTr("learned"), tip: qsTr("The lesson's own positional matrix") })
                    return out
                }
                onChosen: value => settings.report(settings.cell.setPositional(value))
            }
        }
        RowLayout {
            visible: settings.cell.allows("scale")
            spacing: 6
            Text { textFormat: Text.PlainText; text: qsTr("Scaling"); color: Theme.mutedText; font.pixelSize: Theme.smallSize }
            Choice {
                name: "scale"
                accessibleName: qsTr("Scaling")
                current: settings.cell.scaleMode
                options: [
                    { value: "sqrt", label: "1/√d_k", tip: qsTr("Divide the scores by the square root of the head width") },
                    { value: "off", label: qsTr("off"), tip: qsTr("Use the raw dot products") },
                    { value: "divisor", label: qsTr("÷ c"), tip: qsTr("Divide the scores by a number you choose") }
                ]
                onChosen: value => settings.report(settings.cell.setScale(value, divisor.text))
            }
            TextField {
                id: divisor
                objectName: "scaleDivisor"
                visible: settings.cell.scaleMode === "divisor"
                text: String(settings.cell.scaleDivisor)
                implicitWidth: Theme.scaled(70)
                selectByMouse: true
                onAccepted: settings.report(settings.cell.setScale("divisor", text))
                onEditingFinished: settings.report(settings.cell.setScale("divisor", text))
                ToolTip.visible: hovered
                ToolTip.delay: 500
                ToolTip.text: qsTr("The divisor c: a finite number above 0")
                Accessible.name: qsTr("Scale divisor")
            }
        }
    }

    // Padding: a flagged token is never read by any row.
    Flow {
        visible: settings.cell.allows("mask") && settings.cell.m <= 64
        spacing: 6
        Layout.fillWidth: true
        Text {
            textFormat: Text.PlainText
            text: qsTr("Padding (never read)")
            color: Theme.mutedText
            font.pixelSize: Theme.smallSize
            height: Theme.scaled(28)
            verticalAlignment: Text.AlignVCenter
        }
        Repeater {
            model: settings.cell.m <= 64 ? settings.cell.keyLabels : []
            delegate: CheckBox {
                id: paddingBox
                indicator: Indicator { control: paddingBox; kind: "check" }
                required property string modelData
                required property int index
                objectName: "padding_" + index
                text: modelData
                // The token is a lesson word: plain text, never markup.
                contentItem: Text {
                    leftPadding: paddingBox.indicator.width + paddingBox.spacing
                    text: paddingBox.text
                    textFormat: Text.PlainText
                    font: paddingBox.font
                    color: paddingBox.palette.windowText
                    verticalAlignment: Text.AlignVCenter
                }
                checked: settings.cell.padding[index] === true
                onToggled: {
                    settings.report(settings.cell.setPadding(index, checked))
                    checked = Qt.binding(() => settings.cell.padding[index] === true)
                }
                ToolTip.visible: hovered
                ToolTip.delay: 500
                ToolTip.text: qsTr("Mark “%1” as padding: no token may read it").arg(modelData)
                Accessible.name: qsTr("Padding for token %1, %2").arg(index + 1).arg(modelData)
            }
        }
    }
    Refusal {
        objectName: "settingsRefusal"
        text: settings.refusal
        Layout.fillWidth: true
    }
}
