pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Attnbook
import Attnbook.Models
import Attnbook.Window

// The export dialog's bottom row: while rendering, how far it is and Cancel; otherwise what
// happened last, Open and Show in folder after a save, and Render, Print, Close and Save.
Rectangle {
    id: footer
    required property ExportController exporter
    // The file the preview shows, whether it is the answer key, and whether it is drawn yet.
    required property url shownUrl
    required property bool showingKey
    required property bool showing
    // The file the last save wrote, for Open and Show in folder.
    required property string savedPath
    signal saveRequested()
    signal closeRequested()
    // The Render and Save buttons, for the dialog's shortcuts.
    readonly property alias renderEnabled: renderButton.enabled
    readonly property alias saveEnabled: saveButton.enabled

    implicitHeight: footerRow.implicitHeight + 20
    color: Theme.surface
    Rectangle { width: parent.width; height: 1; color: Theme.border }

    // Print: the PDF the preview shows (the lesson, the worksheet or its key) on the paper of
    // the system print dialog.
    LessonPrinter {
        id: printer
    }

    RowLayout {
        id: footerRow
        anchors.fill: parent
        anchors.leftMargin: 16
        anchors.rightMargin: 16
        spacing: 10

        RowLayout {
            visible: footer.exporter.busy
            spacing: 10
            Layout.fillWidth: true
            ProgressBar {
                objectName: "exportProgress"
                from: 0
                to: 1
                value: footer.exporter.progress
                Layout.preferredWidth: 220
                Accessible.name: qsTr("Export progress")
                Accessible.description: footer.exporter.stage
            }
            Text {
                textFormat: Text.PlainText
                text: footer.exporter.stage
                color: Theme.mutedText
                font.pixelSize: Theme.smallSize
                elide: Text.ElideRight
                Layout.fillWidth: true
            }
            Button {
                objectName: "cancelExport"
                text: qsTr("Cancel")
                onClicked: footer.exporter.cancel()
                ToolTip.visible: hovered
                ToolTip.delay: 500
                ToolTip.text: qsTr("Stop rendering (Esc); nothing is written")
                Accessible.name: qsTr("Cancel the export")
            }
        }
        // Otherwise: what happened last. "Rendered" only once the pages are on show.
        Text {
            textFormat: Text.PlainText
            objectName: "exportStatus"
            visible: !footer.exporter.busy
            Layout.fillWidth: true
            text: footer.exporter.error.length > 0 ? footer.exporter.error
                  : !footer.showing ? qsTr("Drawing the pages…") : footer.exporter.message
            color: footer.exporter.error.length > 0 ? Theme.bad
                   : footer.exporter.message.startsWith(qsTr("Saved")) ? Theme.good : Theme.mutedText
            font.pixelSize: Theme.smallSize
            font.bold: footer.exporter.error.length > 0
            wrapMode: Text.Wrap
            maximumLineCount: 3
            elide: Text.ElideRight
            Accessible.role: Accessible.StaticText
            Accessible.name: text
        }
        Button {
            objectName: "openSaved"
            text: qsTr("Open")
            visible: !footer.exporter.busy && footer.savedPath.length > 0
                     && footer.exporter.message.startsWith(qsTr("Saved"))
            onClicked: SaveDialog.openFile(footer.savedPath)
            ToolTip.visible: hovered
            ToolTip.delay: 500
            ToolTip.text: qsTr("Open what was saved in the desktop's program for it")
            Accessible.name: qsTr("Open the saved file")
        }
        Button {
            objectName: "showSavedFolder"
            text: qsTr("Show in folder")
            visible: !footer.exporter.busy && footer.savedPath.length > 0
                     && footer.exporter.message.startsWith(qsTr("Saved"))
            onClicked: SaveDialog.showFolder(footer.savedPath)
            Accessible.name: qsTr("Show the folder it was saved in")
        }
        Button {
            id: renderButton
            objectName: "renderPreview"
            text: footer.exporter.previewReady ? qsTr("Render again") : qsTr("Render preview")
            visible: !footer.exporter.busy
            enabled: !footer.exporter.busy && footer.exporter.exportable
                     && footer.exporter.optionsProblem.length === 0
                     && (footer.exporter.kind !== ExportController.Worksheet || footer.exporter.worksheetAvailable)
            highlighted: !footer.exporter.previewCurrent
            onClicked: footer.exporter.renderPreview()
            ToolTip.visible: hovered
            ToolTip.delay: 500
            ToolTip.text: qsTr("Render with these options and show the result (Ctrl+R)")
            Accessible.name: qsTr("Render the preview")
        }
        Button {
            objectName: "printExport"
            text: qsTr("Print…")
            visible: !footer.exporter.busy && (footer.exporter.kind === ExportController.LessonPdf
                                               || footer.exporter.kind === ExportController.Worksheet)
            enabled: footer.exporter.previewCurrent && String(footer.shownUrl).length > 0
            readonly property string what: footer.exporter.kind === ExportController.LessonPdf ? qsTr("the lesson")
                                           : footer.showingKey ? qsTr("the answer key") : qsTr("the worksheet")
            onClicked: printer.printPdf(footer.shownUrl, what)
            ToolTip.visible: hovered
            ToolTip.delay: 500
            ToolTip.text: qsTr("Print %1 as the preview shows it").arg(what)
            Accessible.name: qsTr("Print %1").arg(what)
        }
        Button {
            objectName: "closeExport"
            text: qsTr("Close")
            onClicked: footer.closeRequested()
            Accessible.name: qsTr("Close the export dialog")
            ToolTip.visible: hovered
            ToolTip.delay: 500
            ToolTip.text: footer.exporter.busy ? qsTr("Cancel the render and close") : qsTr("Close (Esc)")
        }
        Button {
            id: saveButton
            objectName: "saveExport"
            text: qsTr("Save…")
            visible: !footer.exporter.busy
            enabled: footer.exporter.previewCurrent && !footer.exporter.busy
            highlighted: footer.exporter.previewCurrent
            onClicked: footer.saveRequested()
            ToolTip.visible: hovered
            ToolTip.delay: 500
            ToolTip.text: footer.exporter.kind === ExportController.Worksheet
                          ? qsTr("Save the worksheet; the key and the roster CSV go beside it (Ctrl+S)")
                          : qsTr("Save what the preview shows (Ctrl+S)")
            Accessible.name: qsTr("Save the export")
        }
    }
}
