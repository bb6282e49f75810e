pragma ComponentBehavior: Bound
import QtQuick
import QtCharts
import Attnbook
import Attnbook.Models

// A chart cell: its formulas as lines, on linear or log axes, with a legend
// and the values under the pointer.
Card {
    id: card
    required property ChartCellModel chart
    objectName: "chart_" + chart.cellId
    kind: qsTr("Chart")
    cellId: chart.cellId
    Accessible.role: Accessible.Chart
    Accessible.name: chart.title

    SaveFigureButton {
        objectName: "saveChart"
        what: qsTr("chart")
        suggestedName: FigureSaver.suggestedName(card.chart.cellId, "chart")
        save: path => FigureSaver.saveChart(card.chart, path)
    }
    ChartView {
        id: view
        width: card.contentWidth
        height: Theme.scaled(340)
        antialiasing: true
        title: card.chart.title
        titleColor: Theme.text
        titleFont.pixelSize: Theme.proseSize - 2
        titleFont.bold: true
        backgroundColor: Theme.surface
        backgroundRoundness: 0
        plotAreaColor: Theme.surface
        legend.alignment: Qt.AlignBottom
        legend.labelColor: Theme.text
        legend.font.pixelSize: Theme.smallSize
        margins { left: 4; right: 8; top: 4; bottom: 4 }

        // Debian's QtCharts 6.4 type information lists QValueAxis twice, so qmllint cannot
        // resolve the axes: its type and property checks are off for them (the tests show them).
        // qmllint disable type property import
        ValueAxis {
            id: xLinear
            titleText: card.chart.xLabel
            min: card.chart.xMin
            max: card.chart.xMax
            labelFormat: "%g"
            labelsColor: Theme.text
            titleBrush: Theme.mutedText
            gridLineColor: Theme.border
            color: Theme.strongBorder
        }
        LogValueAxis {
            id: xLog
            titleText: card.chart.xLabel
            min: card.chart.xMin
            max: card.chart.xMax
            base: 10
            labelFormat: "%g"
            labelsColor: Theme.text
            labelsFont.pixelSize: Theme.smallSize
            titleFont.pixelSize: Theme.smallSize
            titleBrush: Theme.mutedText
            gridLineColor: Theme.border
            minorGridLineColor: Theme.surfaceAlt
            color: Theme.strongBorder
        }
        ValueAxis {
            id: yLinear
            titleText: card.chart.yLabel
            min: card.chart.yMin
            max: card.chart.yMax
            labelFormat: "%g"
            labelsColor: Theme.text
            titleBrush: Theme.mutedText
            gridLineColor: Theme.border
            color: Theme.strongBorder
        }
        LogValueAxis {
            id: yLog
            titleText: card.chart.yLabel
            min: card.chart.yMin
            max: card.chart.yMax
            base: 10
            labelFormat: "%g"
            labelsColor: Theme.text
            labelsFont.pixelSize: Theme.smallSize
            titleFont.pixelSize: Theme.smallSize
            titleBrush: Theme.mutedText
            gridLineColor: Theme.border
            color: Theme.strongBorder
        }
        // The value axis's fonts follow the zoom (set here: its grouped font properties
        // are beyond qmllint's reach).
        Binding { target: xLinear; property: "labelsFont"; value: Qt.font({ pixelSize: Theme.smallSize }) }
        Binding { target: xLinear; property: "titleFont"; value: Qt.font({ pixelSize: Theme.smallSize }) }
        // The value axis's fonts follow the zoom (set here: its grouped font properties
        // are beyond qmllint's reach).
        Binding { target: yLinear; property: "labelsFont"; value: Qt.font({ pixelSize: Theme.smallSize }) }
        Binding { target: yLinear; property: "titleFont"; value: Qt.font({ pixelSize: Theme.smallSize }) }
        // qmllint enable type property import

        readonly property var palette: Theme.dark
            ? ["#5aa9e6", "#f2a65a", "#8fd694", "#d68fd6", "#e6d35a"]
            : ["#2f6fb0", "#c05621", "#2e8540", "#8a3ea0", "#a08a00"]

        Component.onCompleted: {
            const xAxis = card.chart.xLog ? xLog : xLinear
            const yAxis = card.chart.yLog ? yLog : yLinear
            const all = card.chart.series
            for (let i = 0; i < all.length; ++i) {
                const line = view.createSeries(ChartView.SeriesTypeLine, all[i].label, xAxis, yAxis)
                line.color = palette[i % palette.length]
                line.width = 2.5
                const points = all[i].points
                for (let k = 0; k < points.length; ++k)
                    line.append(points[k].x, points[k].y)
                line.hovered.connect((point, state) => {
                    tip.text = state ? card.chart.describe(line.name, point.x, point.y)
                                     : qsTr("Point at a line to read its values.")
                })
            }
        }
    }
    Text {
        id: tip
        objectName: "chartValue"
        width: card.contentWidth
        text: qsTr("Point at a line to read its values.")
        color: Theme.mutedText
        font.pixelSize: Theme.smallSize
        Accessible.role: Accessible.StaticText
        Accessible.name: text
    }
}
