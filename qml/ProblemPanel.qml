pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Attnbook
import Attnbook.Models
import Attnbook.Window

// The lesson's errors and warnings, FILE:LINE:COLUMN first; clicking one
// scrolls the lesson to its cell.
Rectangle {
    id: panel
    required property ProblemListModel problems
    property bool expanded: problems.errorCount > 0
    signal show(int row)

    visible: problems.count > 0
    implicitHeight: layout.implicitHeight + 16
    color: problems.errorCount > 0 ? Theme.badTint : Theme.warningTint
    radius: Theme.radius
    border.color: problems.errorCount > 0 ? Theme.bad : Theme.warning
    objectName: "problemPanel"
    Accessible.role: Accessible.List
    Accessible.name: summary.text

    ColumnLayout {
        id: layout
        anchors.fill: parent
        anchors.margins: 8
        spacing: 4

        RowLayout {
            Layout.fillWidth: true
            Text {
                textFormat: Text.PlainText
                id: summary
                Layout.fillWidth: true
                text: {
                    const e = panel.problems.errorCount, w = panel.problems.warningCount
                    const parts = []
                    if (e > 0)
                        parts.push(e === 1 ? qsTr("1 error") : qsTr("%1 errors").arg(e))
                    if (w > 0)
                        parts.push(w === 1 ? qsTr("1 warning") : qsTr("%1 warnings").arg(w))
                    return qsTr("This lesson has %1").arg(parts.join(qsTr(" and ")))
                           + (e > 0 ? qsTr(": the cells with errors show their source; the rest works.") : ".")
                }
                color: panel.problems.errorCount > 0 ? Theme.bad : Theme.warning
                font.pixelSize: Theme.smallSize + 1
                font.bold: true
                wrapMode: Text.WordWrap
            }
            Button {
                objectName: "toggleProblems"
                text: panel.expanded ? qsTr("Hide") : qsTr("Show")
                onClicked: panel.expanded = !panel.expanded
                ToolTip.visible: hovered
                ToolTip.delay: 500
                ToolTip.text: panel.expanded ? qsTr("Hide the list") : qsTr("Show the list")
                Accessible.name: panel.expanded ? qsTr("Hide problems") : qsTr("Show problems")
            }
        }
        Repeater {
            model: panel.expanded ? panel.problems : null
            delegate: ItemDelegate {
                id: problem
                required property string severity
                required property string location
                required property string message
                required property int targetRow
                required property int index
                objectName: "problem_" + index
                Layout.fillWidth: true
                padding: 4
                enabled: targetRow >= 0
                onClicked: panel.show(targetRow)
                ToolTip.visible: hovered && targetRow >= 0
                ToolTip.delay: 500
                ToolTip.text: qsTr("Show this place in the lesson")
                Accessible.name: location + ": " + severity + ": " + message
                contentItem: Text {
                    text: "<span style='font-family: monospace'>" + ProseFormatter.escapedMarkup(problem.location) + "</span>: <b>"
                          + problem.severity + "</b>: " + ProseFormatter.escapedMarkup(problem.message)
                    textFormat: Text.RichText // escapedMarkup writes character references StyledText lacks
                    color: problem.severity === "error" ? Theme.bad : Theme.warning
                    font.pixelSize: Theme.smallSize
                    wrapMode: Text.WordWrap
                }
                background: Rectangle {
                    color: problem.hovered || problem.activeFocus ? Theme.surface : "transparent"
                    radius: 3
                }
            }
        }
    }
}
