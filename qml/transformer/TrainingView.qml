pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
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
    property string refusal: ""
    function report(why: string) { view.refusal = why }

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
        // As wide as the card allows: the steps are what a reader scrubs along.
        Layout.fillWidth: true
        Layout.maximumWidth: Theme.scaled(900)
        Layout.preferredHeight: Theme.scaled(220)
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
                line(view.curve.heldOut, Theme.link) // a second hue: its rise is the point
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
        onWidthChanged: requestPaint()
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
            color: Theme.link
            font.pixelSize: Theme.smallSize
        }
        Text {
            textFormat: Text.PlainText
            text: qsTr("┆ the step shown")
            color: Theme.mutedText
            font.pixelSize: Theme.smallSize
        }
    }
    // The step every other view shows: a slider over the steps (docs/training.md). The
    // weights of the steps it offers are kept in memory; the first move keeps them by training
    // once more, watched.
    RowLayout {
        visible: view.ready && view.cell.allows("train")
        Layout.fillWidth: true
        Layout.maximumWidth: plot.Layout.maximumWidth
        Layout.topMargin: 6
        spacing: 8
        Text { textFormat: Text.PlainText; text: qsTr("Show step"); color: Theme.mutedText; font.pixelSize: Theme.smallSize }
        Slider {
            objectName: "shownStep"
            from: 0
            to: view.lastStep
            stepSize: Math.max(view.cell.keptEvery, 1)
            snapMode: Slider.SnapAlways
            value: view.cell.shownStep
            implicitWidth: Theme.scaled(300)
            Layout.fillWidth: true
            onMoved: view.report(view.cell.showStep(Math.round(value)))
            Accessible.name: qsTr("The training step every view shows")
        }
        Text {
            textFormat: Text.PlainText
            objectName: "shownStepReadout"
            // As wide as the last step, so nothing beside it moves.
            Layout.preferredWidth: widestStep.advanceWidth
            TextMetrics { id: widestStep; font.family: Theme.monoFamily; font.pixelSize: Theme.smallSize; text: String(view.lastStep) + "0" }
            text: String(view.cell.shownStep)
            color: Theme.text
            font.family: Theme.monoFamily
            font.pixelSize: Theme.smallSize
        }
        Text {
            textFormat: Text.PlainText
            objectName: "keptNote"
            text: view.cell.keptNote
            color: Theme.mutedText
            font.pixelSize: Theme.smallSize
        }
    }
    // Train again: the settings a reader may change; the latest Train wins, and Cancel keeps
    // the run on show.
    RowLayout {
        visible: view.ready && view.cell.allows("train")
        spacing: 8
        Text { textFormat: Text.PlainText; text: qsTr("Steps"); color: Theme.mutedText; font.pixelSize: Theme.smallSize }
        SpinBox {
            id: stepsBox
            objectName: "trainingSteps"
            from: 0
            to: 5000
            stepSize: 10
            editable: true
            value: view.cell.trainingSteps
            Accessible.name: qsTr("Training steps")
        }
        Choice {
            id: optimizerChoice
            name: "optimizer"
            accessibleName: qsTr("Optimizer")
            current: view.cell.trainingOptimizer
            options: [
                { value: "sgd", label: "SGD", tip: qsTr("Each step moves every weight by lr times its gradient") },
                { value: "adam", label: "Adam", tip: qsTr("Each step scales the move by the gradients seen so far") }
            ]
            onChosen: value => optimizerChoice.current = value
        }
        Text { textFormat: Text.PlainText; text: qsTr("lr"); color: Theme.mutedText; font.pixelSize: Theme.smallSize }
        TextField {
            id: lrField
            objectName: "trainingLr"
            text: String(view.cell.trainingLr)
            implicitWidth: Theme.scaled(70)
            selectByMouse: true
            Accessible.name: qsTr("Learning rate")
        }
        Text { textFormat: Text.PlainText; visible: view.cell.randomStart; text: qsTr("seed"); color: Theme.mutedText; font.pixelSize: Theme.smallSize }
        SpinBox {
            id: seedBox
            objectName: "trainingSeed"
            visible: view.cell.randomStart
            from: 0
            to: 999999
            editable: true
            value: view.cell.trainingSeed
            Accessible.name: qsTr("Seed of the random start")
        }
        Button {
            objectName: "trainAgain"
            text: qsTr("Train")
            onClicked: view.report(view.cell.train(stepsBox.value, optimizerChoice.current,
                                                   Number(lrField.text), seedBox.value))
            ToolTip.visible: hovered
            ToolTip.delay: 500
            ToolTip.text: qsTr("Train again from the start with these settings")
        }
        ProgressBar {
            objectName: "trainingProgress"
            // Its place is kept while no run goes, so that nothing beside it moves.
            opacity: view.cell.trainingRunning ? 1 : 0
            value: view.cell.trainingProgress
            implicitWidth: Theme.scaled(120)
            Accessible.name: qsTr("Training progress")
        }
        Button {
            objectName: "cancelTraining"
            text: qsTr("Cancel")
            opacity: view.cell.trainingRunning ? 1 : 0
            enabled: view.cell.trainingRunning
            onClicked: view.cell.cancelTraining()
        }
    }
    // A run, the slider or Reset changed the settings on show: the boxes say them again.
    Connections {
        target: view.cell
        function onTrainingChanged() {
            stepsBox.value = view.cell.trainingSteps
            optimizerChoice.current = view.cell.trainingOptimizer
            lrField.text = String(view.cell.trainingLr)
            seedBox.value = view.cell.trainingSeed
        }
    }
    // Keep (docs/training.md): the weights on show into a file beside the lesson, which the
    // cell then reads; an existing file is replaced only after asking.
    RowLayout {
        visible: view.ready
        spacing: 8
        Button {
            objectName: "keepWeights"
            text: qsTr("Keep these weights")
            enabled: !view.cell.trainingRunning
            opacity: enabled ? 1 : 0.4
            onClicked: {
                if (view.cell.weightsFileExists())
                    replaceWeights.open()
                else
                    view.report(view.cell.keepWeights(false))
            }
            ToolTip.visible: hovered
            ToolTip.delay: 500
            ToolTip.text: qsTr("Write the weights of step %1 into %2 beside the lesson; the cell then reads them from there and trains no more")
                              .arg(view.cell.shownStep).arg(view.cell.weightsFileName())
        }
    }
    ThemedDialog {
        id: replaceWeights
        objectName: "replaceWeightsDialog"
        title: qsTr("Replace %1?").arg(view.cell.weightsFileName())
        standardButtons: Dialog.Ok | Dialog.Cancel
        width: 440
        onAccepted: view.report(view.cell.keepWeights(true))
        Text {
            textFormat: Text.PlainText
            width: parent.width
            text: qsTr("A file of that name is already beside the lesson. Replace it with the weights of step %1?")
                      .arg(view.cell.shownStep)
            color: Theme.text
            wrapMode: Text.WordWrap
        }
    }
    Text {
        textFormat: Text.PlainText
        objectName: "trainingRefusal"
        visible: text.length > 0
        text: view.refusal.length > 0 ? view.refusal : view.cell.trainingProblem
        color: Theme.warning
        font.pixelSize: Theme.smallSize
    }
}
