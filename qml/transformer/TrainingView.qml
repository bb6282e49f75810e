pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import Attnbook
import Attnbook.Models

// Training (docs/training.md): the loss at every step on the lesson's sentences (and on the
// held-out ones, when the cell has them), with the step whose weights every other view shows.
ColumnLayout {
    id: view
    required property TransformerCellModel cell
    readonly property var curve: cell.shown.training
    readonly property bool ready: curve.loss !== undefined
    readonly property int lastStep: ready ? curve.loss.length - 1 : 0
    readonly property real highest: {
        if (!ready)
            return 1
        let most = 0
        for (const v of curve.loss) most = Math.max(most, v)
        for (const v of curve.heldOut) most = Math.max(most, v)
        return most > 0 ? most : 1
    }
    spacing: 6

    Text {
        textFormat: Text.PlainText
        objectName: "trainingCaption"
        Layout.fillWidth: true
        wrapMode: Text.WordWrap
        color: Theme.text
        font.pixelSize: Theme.proseSize
        text: !view.ready ? qsTr("This cell does not train (it has no train key).")
              : qsTr("The loss fell from %1 to %2 in %3 steps. Every other view shows the model after step %4 (loss %5).")
                .arg(view.cell.number(view.curve.loss[0], 4))
                .arg(view.cell.number(view.curve.loss[view.lastStep], 4))
                .arg(view.lastStep).arg(view.curve.shown)
                .arg(view.cell.number(view.curve.shownLoss, 4))
    }
    Text {
        textFormat: Text.PlainText
        visible: view.ready && view.curve.stopped !== ""
        text: view.ready ? view.curve.stopped : ""
        color: Theme.warning
        font.pixelSize: Theme.smallSize
    }
    Canvas {
        id: plot
        objectName: "trainingPlot"
        visible: view.ready
        Layout.preferredWidth: Theme.scaled(480)
        Layout.preferredHeight: Theme.scaled(200)
        readonly property real plotLeft: Theme.scaled(44)
        readonly property real plotBottom: Theme.scaled(22)
        onPaint: {
            const ctx = getContext("2d")
            ctx.reset()
            if (!view.ready)
                return
            const w = width - plotLeft - 8, h = height - plotBottom - 8
            const x = step => plotLeft + (view.lastStep > 0 ? step / view.lastStep : 0) * w
            const y = loss => 8 + h - (loss / view.highest) * h
            ctx.strokeStyle = Theme.border
            ctx.lineWidth = 1
            ctx.beginPath()
            ctx.moveTo(plotLeft, 8); ctx.lineTo(plotLeft, 8 + h); ctx.lineTo(plotLeft + w, 8 + h)
            ctx.stroke()
            ctx.fillStyle = Theme.mutedText
            ctx.font = Theme.smallSize + "px sans-serif"
            ctx.fillText(view.cell.number(view.highest, 2), 2, 14)
            ctx.fillText("0", plotLeft - 12, 8 + h)
            ctx.fillText("0", plotLeft, height - 4)
            ctx.fillText(String(view.lastStep), plotLeft + w - 16, height - 4)
            ctx.fillText(qsTr("step"), plotLeft + w / 2 - 12, height - 4)
            ctx.fillText(qsTr("loss"), 2, 8 + h / 2)
            const line = (values, colour) => {
                ctx.strokeStyle = colour
                ctx.lineWidth = 2
                ctx.beginPath()
                for (let i = 0; i < values.length; ++i) {
                    if (i === 0) ctx.moveTo(x(i), y(values[i]))
                    else ctx.lineTo(x(i), y(values[i]))
                }
                ctx.stroke()
            }
            if (view.curve.heldOut.length > 0)
                line(view.curve.heldOut, Theme.strongBorder)
            line(view.curve.loss, Theme.accent)
            ctx.strokeStyle = Theme.mutedText
            ctx.setLineDash([4, 3])
            ctx.beginPath()
            ctx.moveTo(x(view.curve.shown), 8); ctx.lineTo(x(view.curve.shown), 8 + h)
            ctx.stroke()
        }
        Connections {
            target: view
            function onCurveChanged() { plot.requestPaint() }
        }
    }
    RowLayout {
        visible: view.ready
        spacing: 16
        Text {
            textFormat: Text.PlainText
            text: qsTr("━ loss on the lesson's sentences")
            color: Theme.accent
            font.pixelSize: Theme.smallSize
        }
        Text {
            textFormat: Text.PlainText
            visible: view.ready && view.curve.heldOut.length > 0
            text: qsTr("━ on the held-out sentences")
            color: Theme.strongBorder
            font.pixelSize: Theme.smallSize
        }
        Text {
            textFormat: Text.PlainText
            text: qsTr("┆ the step shown")
            color: Theme.mutedText
            font.pixelSize: Theme.smallSize
        }
    }
}
