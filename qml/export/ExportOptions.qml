pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Attnbook
import Attnbook.Models

// The export dialog's left column: what to export, the paper, the worksheet's options, and
// why the options cannot be rendered, if they cannot. Held still while a render runs.
Rectangle {
    id: column
    required property ExportController exporter
    color: Theme.surface

    // Gives the keyboard to the chosen kind.
    function focusChosenKind() { kinds.focusChosen() }

    Rectangle { anchors.right: parent.right; width: 1; height: parent.height; color: Theme.border }

    ScrollView {
        id: optionsScroll
        anchors.fill: parent
        anchors.rightMargin: 1
        contentWidth: availableWidth
        clip: true

        ColumnLayout {
            id: options
            width: optionsScroll.availableWidth
            spacing: 6
            enabled: !column.exporter.busy

            ExportKinds {
                id: kinds
                exporter: column.exporter
                Layout.fillWidth: true
            }

            // A notebook and a web page have no paper.
            readonly property bool paged: column.exporter.kind !== ExportController.Notebook
                                          && column.exporter.kind !== ExportController.WebPage
            SectionTitle {
                visible: options.paged
                text: qsTr("PAPER")
                Layout.leftMargin: 16
                Layout.topMargin: 12
                font.letterSpacing: 0.8
            }
            Choice {
                visible: options.paged
                Layout.leftMargin: 16
                name: "paper"
                accessibleName: qsTr("Paper")
                current: column.exporter.paper
                options: [{ value: "a4", label: qsTr("A4"), tip: qsTr("210 × 297 mm") },
                          { value: "letter", label: qsTr("Letter"), tip: qsTr("8.5 × 11 in") }]
                onChosen: value => column.exporter.paper = value
            }

            ExportWorksheetOptions {
                visible: column.exporter.kind === ExportController.Worksheet
                exporter: column.exporter
                Layout.fillWidth: true
                Layout.leftMargin: 16
                Layout.rightMargin: 16
            }

            Text {
                textFormat: Text.PlainText
                Layout.fillWidth: true
                Layout.leftMargin: 16
                Layout.rightMargin: 16
                Layout.topMargin: 10
                visible: text.length > 0
                text: column.exporter.optionsProblem
                color: Theme.bad
                font.pixelSize: Theme.smallSize
                wrapMode: Text.Wrap
            }
            Item { Layout.fillHeight: true; implicitHeight: 12 }
        }
    }
}
