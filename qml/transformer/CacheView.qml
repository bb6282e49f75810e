pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import QtCharts
import Attnbook
import Attnbook.Models

// What the key/value cache saves: query–key comparisons per head and layer at each step, with
// the cache (the prompt once, then one row a step) and without it (every row again), side by
// side as numbers and as a chart; and the numbers the cache holds.
ColumnLayout {
    id: view
    required property TransformerCellModel cell
    spacing: 8
    readonly property var steps: view.cell.shown.generation
    readonly property real totalCached: view.steps.reduce((sum, s) => sum + s.costCached, 0)
    readonly property real totalFull: view.steps.reduce((sum, s) => sum + s.costFull, 0)

    Text {
        textFormat: Text.PlainText
        visible: view.steps.length === 0
        text: view.cell.generationRefused.length > 0 ? "⚠ " + view.cell.generationRefused
              : view.cell.complete ? qsTr("Generate some words to see what the cache saves.")
              : qsTr("Generating…")
        color: view.cell.generationRefused.length > 0 ? Theme.warning : Theme.mutedText
        font.pixelSize: Theme.smallSize
        wrapMode: Text.WordWrap
        Layout.fillWidth: true
    }
    GridLayout {
        visible: view.steps.length > 0
        columns: 4
        columnSpacing: Theme.scaled(18)
        rowSpacing: 2
        Repeater {
            model: [qsTr("step"), qsTr("keys read"), qsTr("with the cache"), qsTr("without")]
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
            model: view.steps.length * 4
            delegate: Text {
                textFormat: Text.PlainText
                required property int index
                readonly property var step: view.steps[Math.floor(index / 4)]
                objectName: "cache_" + Math.floor(index / 4) + "_" + index % 4
                text: [String(Math.floor(index / 4) + 1), String(step.keys),
                       String(step.costCached), String(step.costFull)][index % 4]
                color: index % 4 === 2 ? Theme.good : Theme.text
                font.family: Theme.monoFamily
                font.pixelSize: Theme.smallSize
                Layout.alignment: Qt.AlignRight
            }
        }
        Text { textFormat: Text.PlainText; text: qsTr("total"); color: Theme.text; font.pixelSize: Theme.smallSize; font.bold: true }
        Text { textFormat: Text.PlainText; text: "" }
        Text { textFormat: Text.PlainText; text: String(view.totalCached); color: Theme.good; font.family: Theme.monoFamily; font.pixelSize: Theme.smallSize; font.bold: true; Layout.alignment: Qt.AlignRight }
        Text { textFormat: Text.PlainText; text: String(view.totalFull); color: Theme.text; font.family: Theme.monoFamily; font.pixelSize: Theme.smallSize; font.bold: true; Layout.alignment: Qt.AlignRight }
    }
    ChartView {
        id: chart
        objectName: "cacheChart"
        visible: view.steps.length > 1
        Layout.preferredWidth: Theme.scaled(460)
        Layout.preferredHeight: Theme.scaled(220)
        antialiasing: true
        backgroundColor: Theme.surface
        plotAreaColor: Theme.surface
        legend.alignment: Qt.AlignBottom
        legend.labelColor: Theme.text
        legend.font.pixelSize: Theme.smallSize
        margins { left: 4; right: 8; top: 4; bottom: 4 }
        // Debian's QtCharts 6.4 type information lists QValueAxis twice: qmllint cannot resolve
        // the axes (as in ChartCell.qml).
        // qmllint disable type property import
        ValueAxis {
            id: stepAxis
            min: 1
            max: Math.max(2, view.steps.length)
            tickCount: Math.min(view.steps.length, 8)
            labelFormat: "%d"
            titleText: qsTr("step")
            labelsColor: Theme.text
            titleBrush: Theme.mutedText
            gridLineColor: Theme.border
        }
        ValueAxis {
            id: costAxis
            min: 0
            max: Math.max(1, ...view.steps.map(s => s.costFull)) * 1.1
            labelFormat: "%d"
            titleText: qsTr("comparisons")
            labelsColor: Theme.text
            titleBrush: Theme.mutedText
            gridLineColor: Theme.border
        }
        LineSeries {
            id: fullSeries
            name: qsTr("without the cache")
            axisX: stepAxis
            axisY: costAxis
            color: Theme.bad
            width: 2
        }
        LineSeries {
            id: cachedSeries
            name: qsTr("with the cache")
            axisX: stepAxis
            axisY: costAxis
            color: Theme.good
            width: 2
        }
        // qmllint enable type property import
        function fill() {
            fullSeries.clear()
            cachedSeries.clear()
            for (let i = 0; i < view.steps.length; ++i) {
                fullSeries.append(i + 1, view.steps[i].costFull)
                cachedSeries.append(i + 1, view.steps[i].costCached)
            }
            costAxis.applyNiceNumbers() // ticks at round counts
        }
        Component.onCompleted: fill()
        Connections {
            target: view
            function onStepsChanged() { chart.fill() }
        }
    }
    Text {
        textFormat: Text.PlainText
        visible: view.steps.length > 0
        text: qsTr("The cache holds %1 numbers after the last step: for each layer and head, a key and a value for each of the %2 positions fed in.")
              .arg(view.cell.cacheNumbers).arg(view.cell.n + view.steps.length - 1)
        color: Theme.mutedText
        font.pixelSize: Theme.smallSize
        wrapMode: Text.WordWrap
        Layout.fillWidth: true
    }
}
