pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import QtCharts
import Attnbook
import Attnbook.Models

// The focus token's shares of attention per head, as a bar chart.
ColumnLayout {
    id: view
    required property AttentionCellModel cell
    property real availableWidth: 700
    spacing: 6

    ChartView {
        id: chart
        objectName: "sharesChart"
        Layout.preferredWidth: Math.min(view.availableWidth, 180 + view.cell.m * 70 * Math.max(1, view.cell.heads * 0.6))
        Layout.preferredHeight: 250
        antialiasing: true
        legend.visible: view.cell.heads > 1
        legend.alignment: Qt.AlignBottom
        legend.labelColor: Theme.text
        backgroundColor: Theme.surface
        backgroundRoundness: 0
        plotAreaColor: Theme.surface
        margins { left: 4; right: 4; top: 4; bottom: 4 }
        title: heading
        titleColor: Theme.text
        titleFont.pixelSize: Theme.smallSize
        titleFont.bold: true
        Accessible.role: Accessible.Chart
        Accessible.name: heading
        readonly property string heading: qsTr("Shares of “%1”").arg(view.cell.queryLabels[view.cell.focus] || "")

        BarCategoryAxis {
            id: keysAxis
            labelsColor: Theme.text
            gridVisible: false
            color: Theme.strongBorder
            titleText: qsTr("token read")
            titleBrush: Theme.mutedText
        }
        ValueAxis {
            id: shareAxis
            min: 0
            max: 1
            tickCount: 5
            labelFormat: "%.2f"
            labelsColor: Theme.text
            gridLineColor: Theme.border
            color: Theme.strongBorder
            titleText: qsTr("share")
            titleBrush: Theme.mutedText
        }
        BarSeries {
            id: bars
            axisX: keysAxis
            axisY: shareAxis
            labelsVisible: view.cell.m * view.cell.heads <= 24
            labelsPosition: AbstractBarSeries.LabelsOutsideEnd
            labelsPrecision: 3
            labelsFormat: "@value"
        }

        readonly property var palette: Theme.dark
            ? ["#5aa9e6", "#f2a65a", "#8fd694", "#d68fd6", "#e6d35a", "#5ae6d3"]
            : ["#2f6fb0", "#c05621", "#2e8540", "#8a3ea0", "#a08a00", "#00897b"]

        function rebuild() {
            bars.clear()
            keysAxis.categories = view.cell.keyLabels.map((label, i) => (i + 1) + " " + label)
            for (let h = 0; h < view.cell.heads; ++h) {
                const set = bars.append(qsTr("head %1").arg(h + 1), view.cell.focusShares(h))
                set.color = palette[h % palette.length]
                set.borderColor = palette[h % palette.length]
                set.labelColor = Theme.text
            }
        }
        Connections {
            target: view.cell
            function onRecomputed() { chart.rebuild() }
        }
        Connections {
            target: Theme
            function onDarkChanged() { chart.rebuild() }
        }
        Component.onCompleted: rebuild()
    }
}
