pragma ComponentBehavior: Bound
import QtQuick
import QtCharts
import Attnbook
import Attnbook.Models
import Attnbook.Window

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
    // The axes QtCharts draws, for the tests that read their labels.
    readonly property var axes: ({ x: xAxis, y: yAxis })

    SaveFigureButton {
        objectName: "saveChart"
        what: qsTr("chart")
        suggestedName: FigureSaver.suggestedName(card.chart.cellId, "chart")
        save: path => FigureSaver.saveChart(card.chart, path)
    }
    // The title above the chart, not QtCharts' own: that one sat on the top tick's label.
    Text {
        textFormat: Text.PlainText
        objectName: "chartTitle"
        width: card.contentWidth
        horizontalAlignment: Text.AlignHCenter
        text: card.chart.title
        visible: text.length > 0
        color: Theme.text
        font.pixelSize: Theme.proseSize - 2
        font.bold: true
        wrapMode: Text.WordWrap
    }
    ChartView {
        id: view
        width: card.contentWidth
        height: Theme.scaled(340)
        antialiasing: true
        backgroundColor: Theme.surface
        backgroundRoundness: 0
        plotAreaColor: Theme.surface
        legend.alignment: Qt.AlignBottom
        legend.labelColor: Theme.text
        legend.font.pixelSize: Theme.smallSize
        // Room on the right for half the last x label ("10,000"), centred on the plot's edge,
        // and above for half the top y label, centred on the plot's top.
        margins { left: 4; right: Theme.scaled(28); top: Theme.smallSize; bottom: 4 }

        // The axes are the PDF's (ChartCellModel: chart_axis.h): their ends and ticks, each
        // tick labelled in one style. A category axis puts our labels at our ticks; a log axis
        // is drawn over log10 of the values, which the model gives.
        // Debian's QtCharts 6.4 type information lists QValueAxis twice, so qmllint cannot
        // resolve the axes: its type and property checks are off for them (the tests show them).
        // qmllint disable type property import
        CategoryAxis {
            id: xAxis
            objectName: "xAxis"
            titleText: ProseFormatter.escapedMarkup(card.chart.xLabel) + (card.chart.xLog ? qsTr(" (log scale)") : "")
            min: card.chart.xMin
            max: card.chart.xMax
            startValue: card.chart.xMin
            labelsPosition: CategoryAxis.AxisLabelsPositionOnValue
            labelsColor: Theme.text
            titleBrush: Theme.mutedText
            gridLineColor: Theme.border
            color: Theme.strongBorder
        }
        CategoryAxis {
            id: yAxis
            objectName: "yAxis"
            titleText: ProseFormatter.escapedMarkup(card.chart.yLabel) + (card.chart.yLog ? qsTr(" (log scale)") : "")
            min: card.chart.yMin
            max: card.chart.yMax
            startValue: card.chart.yMin
            labelsPosition: CategoryAxis.AxisLabelsPositionOnValue
            labelsColor: Theme.text
            titleBrush: Theme.mutedText
            gridLineColor: Theme.border
            color: Theme.strongBorder
        }
        // The axes' fonts follow the zoom (set here: their grouped font properties are beyond
        // qmllint's reach).
        Binding { target: xAxis; property: "labelsFont"; value: Qt.font({ pixelSize: Theme.smallSize }) }
        Binding { target: xAxis; property: "titleFont"; value: Qt.font({ pixelSize: Theme.smallSize }) }
        Binding { target: yAxis; property: "labelsFont"; value: Qt.font({ pixelSize: Theme.smallSize }) }
        Binding { target: yAxis; property: "titleFont"; value: Qt.font({ pixelSize: Theme.smallSize }) }
        // qmllint enable type property import

        readonly property var palette: Theme.dark
            ? ["#5aa9e6", "#f2a65a", "#8fd694", "#d68fd6", "#e6d35a"]
            : ["#2f6fb0", "#c05621", "#2e8540", "#8a3ea0", "#a08a00"]

        Component.onCompleted: {
            for (const tick of card.chart.xTicks)
                xAxis.append(ProseFormatter.escapedMarkup(tick.label), tick.value)
            for (const tick of card.chart.yTicks)
                yAxis.append(ProseFormatter.escapedMarkup(tick.label), tick.value)
            const all = card.chart.series
            for (let i = 0; i < all.length; ++i) {
                const label = all[i].label
                // Qt Charts reads a series' name as markup: the lesson's words are escaped.
                const line = view.createSeries(ChartView.SeriesTypeLine, ProseFormatter.escapedMarkup(label), xAxis, yAxis)
                line.color = palette[i % palette.length]
                line.width = 2.5
                card.chart.fillSeries(line, i)
                line.hovered.connect((point, state) => {
                    tip.text = state ? card.chart.describeAt(label, point.x, point.y)
                                     : qsTr("Point at a line to read its values.")
                })
            }
        }
    }
    Text {
        textFormat: Text.PlainText
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
