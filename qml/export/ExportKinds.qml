pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Attnbook
import Attnbook.Models

// What to export: a radio button per kind, with a line below saying what it gives. The kinds
// are exclusive through the controller's kind, which every button follows; while the dialog
// is open, choosing one renders its preview (ExportController.renderOnChoice).
ColumnLayout {
    id: kinds
    required property ExportController exporter
    spacing: 6

    // Gives the keyboard to the chosen kind's button (the dialog does, when it opens).
    signal focusRequested()
    function focusChosen() { kinds.focusRequested() }

    SectionTitle {
        text: qsTr("WHAT TO EXPORT")
        Layout.leftMargin: 16
        Layout.topMargin: 14
        font.letterSpacing: 0.8
    }
    Repeater {
        model: [
            { value: ExportController.LessonPdf, name: "kindLessonPdf", available: true,
              title: qsTr("Lesson PDF"),
              detail: qsTr("The lesson as a printable document: the prose with its live values and every cell.") },
            { value: ExportController.Worksheet, name: "kindWorksheet", available: kinds.exporter.worksheetAvailable,
              title: qsTr("Worksheet and answer key"),
              detail: kinds.exporter.worksheetAvailable
                      ? qsTr("Boxes to fill in by hand and the quizzes, in variants if you like; the key matches page for page.")
                      : qsTr("This lesson has no worksheet options and no quizzes.") },
            { value: ExportController.Bundle, name: "kindBundle", available: true,
              title: qsTr("Bundle (.zip)"),
              detail: qsTr("The lesson, its PDFs, notebook and web page, every matrix as CSV and the figures, with a manifest of hashes.") },
            { value: ExportController.Notebook, name: "kindNotebook", available: true,
              title: qsTr("Jupyter notebook (.ipynb)"),
              detail: qsTr("The prose and quizzes, and NumPy code that recomputes every cell: the same numbers, runnable anywhere.") },
            { value: ExportController.WebPage, name: "kindWebPage", available: true,
              title: qsTr("Web page (.html)"),
              detail: qsTr("One offline page for a course site or an LMS: the prose, every figure, answers folded, light or dark as the reader's system.") }
        ]
        delegate: ColumnLayout {
            id: kindRow
            required property var modelData
            Layout.fillWidth: true
            Layout.leftMargin: 8
            Layout.rightMargin: 12
            spacing: 0
            RadioButton {
                id: choice
                indicator: Indicator { control: choice; kind: "radio" }
                objectName: kindRow.modelData.name
                Layout.fillWidth: true
                autoExclusive: false
                enabled: kindRow.modelData.available
                checked: kinds.exporter.kind === kindRow.modelData.value
                onToggled: {
                    kinds.exporter.kind = kindRow.modelData.value
                    checked = Qt.binding(() => kinds.exporter.kind === kindRow.modelData.value)
                }
                text: kindRow.modelData.title
                topPadding: 4
                bottomPadding: 1
                font.pixelSize: Theme.smallSize + 2
                font.bold: checked
                Accessible.name: kindRow.modelData.title
                Accessible.description: kindRow.modelData.detail
            }
            Text {
                textFormat: Text.PlainText
                Layout.fillWidth: true
                Layout.leftMargin: choice.leftPadding + choice.indicator.width + choice.spacing
                text: kindRow.modelData.detail
                color: Theme.mutedText
                font.pixelSize: Theme.smallSize
                wrapMode: Text.Wrap
                TapHandler {
                    enabled: choice.enabled
                    onTapped: kinds.exporter.kind = kindRow.modelData.value
                }
            }
            Connections {
                target: kinds
                function onFocusRequested() {
                    if (choice.checked)
                        choice.forceActiveFocus()
                }
            }
        }
    }
}
