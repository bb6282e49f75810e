pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import QtCharts
import Attnbook
import Attnbook.Models
import Attnbook.Window

// The focus token's shares of attention per head, as a bar chart.
ColumnLayout {
    id: view
    required property AttentionCellModel cell
    property real availableWidth: 700
    spacing: 6

    // The heading above the chart, not its title: a label above a bar of the whole share (1)
    // stands above the plot, where QtCharts draws its title, and covered it.
    Text {
        textFormat: Text.PlainText
        objectName: "sharesHeading"
        Layout.preferredWidth: chart.Layout.preferredWidth
        horizontalAlignment: Text.AlignHCenter
        text: chart.heading
        color: Theme.text
        font.pixelSize: Theme.smallSize
        font.bold: true
        elide: Text.ElideRight
    }
    ChartView {
        id: chart
        objectName: "sharesChart"
        Layout.preferredWidth: Math.min(view.availableWidth,
                                        Theme.scaled(180 + Math.min(view.cell.m, maximumBars) * 70 * Math.max(1, view.cell.heads * 0.6)))
        Layout.preferredHeight: Theme.scaled(250)
        antialiasing: true
        legend.visible: view.cell.heads > 1
        legend.alignment: Qt.AlignBottom
        legend.labelColor: Theme.text
        legend.font.pixelSize: Theme.smallSize
        backgroundColor: Theme.surface
        backgroundRoundness: 0
        plotAreaColor: Theme.surface
        // Room above the plot for the label of a bar that reaches the top.
        margins { left: 4; right: 4; top: Theme.smallSize + 8; bottom: 4 }
        Accessible.role: Accessible.Chart
        Accessible.name: heading
        readonly property string heading: qsTr("Shares of “%1”").arg(view.cell.queryLabels[view.cell.focus] || "")
                                          + (note.length > 0 ? " · " + note : "")

        // Debian's QtCharts 6.4 type information lists QValueAxis twice, so qmllint cannot
        // resolve the axes: its type and property checks are off for them (the tests show them).
        // qmllint disable type property import
        BarCategoryAxis {
            id: keysAxis
            labelsColor: Theme.text
            labelsFont.pixelSize: Theme.smallSize
            titleFont.pixelSize: Theme.smallSize
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
            // The values are written above the bars by the Repeater below.
            labelsVisible: false
        }
        // The value axis's fonts follow the zoom (set here: its grouped font properties
        // are beyond qmllint's reach).
        Binding { target: shareAxis; property: "labelsFont"; value: Qt.font({ pixelSize: Theme.smallSize }) }
        Binding { target: shareAxis; property: "titleFont"; value: Qt.font({ pixelSize: Theme.smallSize }) }
        // qmllint enable type property import

        // Each bar's value above it, every label in one format (NumberText.tableTexts: four
        // decimals, as the arithmetic above the chart writes them; two beside other heads'
        // bars). QtCharts' own labels count significant digits: "0.00197" beside "0.0396".
        property var barLabels: []
        readonly property int labelDigits: view.cell.heads > 1 ? 2 : 4
        Repeater {
            model: Math.min(view.cell.m, chart.maximumBars) * view.cell.heads <= 24 ? chart.barLabels : []
            delegate: Text {
                textFormat: Text.PlainText
                required property var modelData
                objectName: "shareLabel_" + modelData.head + "_" + modelData.key
                // Where QtCharts puts the bar: a category's bars share half its width.
                readonly property point tip: {
                    if (chart.plotArea.width <= 0) // (read so that a resize moves the label)
                        return Qt.point(0, 0)
                    const share = 0.5 / view.cell.heads
                    return chart.mapToPosition(Qt.point(modelData.slot - 0.25 + (modelData.head + 0.5) * share,
                                                        modelData.value), bars)
                }
                x: tip.x - width / 2
                y: tip.y - height - 2
                text: modelData.text
                color: Theme.text
                font.pixelSize: Theme.smallSize
            }
        }

        readonly property var palette: Theme.dark
            ? ["#5aa9e6", "#f2a65a", "#8fd694", "#d68fd6", "#e6d35a", "#5ae6d3"]
            : ["#2f6fb0", "#c05621", "#2e8540", "#8a3ea0", "#a08a00", "#00897b"]

        // With many keys a bar each is unreadable: the cell says which to show (the largest
        // shares over the heads, in the keys' order), as the paper shows them.
        readonly property int maximumBars: view.cell.maxSharesShown
        property string note: ""
        function rebuild() {
            bars.clear()
            const shares = []
            for (let h = 0; h < view.cell.heads; ++h)
                shares.push(view.cell.focusShares(h))
            const keys = view.cell.shownKeys()
            note = keys.length < view.cell.m
                ? qsTr("The %1 largest of %2 shares").arg(keys.length).arg(view.cell.m) : ""
            keysAxis.categories = keys.map(i => (i + 1) + " " + view.cell.keyLabels[i])
            // Shares spread thin over many tokens would hug the floor of a
            // 0 … 1 axis: end the axis at a round number above the largest.
            const top = Math.max(...keys.map(i => Math.max(...shares.map(s => s[i]))), 0)
            // (Shares a lesson's few tokens get keep the whole 0 … 1 axis.)
            const ends = [[0.01, 6, "%.3f"], [0.02, 5, "%.3f"], [0.05, 6, "%.2f"], [0.1, 6, "%.2f"],
                          [0.2, 5, "%.2f"]]
            const end = top > 0.2 ? [1, 5, "%.2f"] : ends.find(e => e[0] >= top)
            shareAxis.max = end[0]
            shareAxis.tickCount = end[1]
            shareAxis.labelFormat = end[2]
            const labels = []
            for (let h = 0; h < view.cell.heads; ++h)
                keys.forEach((key, slot) => labels.push({ head: h, key: key, slot: slot, value: shares[h][key] }))
            const texts = NumberText.tableTexts(labels.map(l => l.value), labelDigits)
            labels.forEach((l, i) => { l.text = texts[i] })
            barLabels = labels
            for (let h = 0; h < view.cell.heads; ++h) {
                const set = bars.append(qsTr("head %1").arg(h + 1), keys.map(i => shares[h][i]))
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
    SaveFigureButton {
        objectName: "saveShares"
        what: qsTr("shares chart")
        suggestedName: FigureSaver.suggestedName(view.cell.cellId, "shares-" + (view.cell.queryLabels[view.cell.focus] || ""))
        // What the chart shows: the shares of every head.
        save: path => FigureSaver.saveShares(view.cell, path)
    }
}
