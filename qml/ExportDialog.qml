pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import Attnbook
import Attnbook.Models
import Attnbook.Window

// File → Export: the open lesson as a lesson PDF, a worksheet with its answer key, a bundle, a
// Jupyter notebook or a web page. The options on the left (export/ExportOptions), the rendered
// pages or a notebook's summary on the right (export/ExportPreview); rendering runs in the
// background with a progress bar and Cancel (export/ExportFooter), and Save writes what the
// preview shows, all files or none. This file puts them together and asks where to save.
Dialog {
    id: dialog
    objectName: "exportDialog"
    property LessonSession session
    readonly property ExportController controller: exporter
    // Which file the preview shows: the worksheet (or lesson PDF) or the answer key.
    property bool showingKey: false
    readonly property url shownUrl: showingKey && String(exporter.answersPreviewUrl).length > 0
                                    ? exporter.answersPreviewUrl : exporter.previewUrl
    // The file the last Save wrote, for Open and Show in folder.
    property string savedPath: ""

    parent: Overlay.overlay
    anchors.centerIn: parent
    width: Math.min(1080, parent ? parent.width - 40 : 1080)
    height: Math.min(780, parent ? parent.height - 40 : 780)
    modal: true
    padding: 0
    topPadding: 0
    closePolicy: exporter.busy ? Popup.NoAutoClose : Popup.CloseOnEscape
    // A popup does not take the window's palette: the theme's, for a popup (Theme.qml).
    palette: Theme.popupPalette

    background: Rectangle {
        color: Theme.surface
        border.color: Theme.strongBorder
        radius: 4
    }
    Overlay.modal: Rectangle { color: Theme.dark ? "#99000000" : "#59000000" }
    onOpened: {
        if (!exporter.previewCurrent && !exporter.busy && exporter.exportable)
            exporter.renderPreview()
        options.focusChosenKind()
    }
    onClosed: exporter.cancel()

    ExportController {
        id: exporter
        session: dialog.session
        // While the dialog is open, a click on a kind, a paper or the key renders it.
        renderOnChoice: dialog.opened
        // A worksheet cannot be chosen for a lesson without one.
        onLessonChanged: if (exporter.kind === ExportController.Worksheet && !exporter.worksheetAvailable)
                             exporter.kind = ExportController.LessonPdf
    }

    // Save…: where, asked in the system's save dialog (SaveDialog: the typed name survives moving
    // between folders, every file that would be replaced is asked about); it starts in the last
    // export's folder, else the lesson's.
    function startSave() {
        if (!exporter.previewCurrent || exporter.busy)
            return
        const kind = exporter.kind
        const filter = kind === ExportController.Bundle ? qsTr("Bundles (*.zip)")
                     : kind === ExportController.Notebook ? qsTr("Jupyter notebooks (*.ipynb)")
                     : kind === ExportController.WebPage ? qsTr("Web pages (*.html)")
                     : qsTr("PDF documents (*.pdf)")
        const suffix = kind === ExportController.Bundle ? "zip"
                     : kind === ExportController.Notebook ? "ipynb"
                     : kind === ExportController.WebPage ? "html" : "pdf"
        const title = kind === ExportController.Bundle ? qsTr("Save the bundle")
                    : kind === ExportController.Worksheet ? qsTr("Save the worksheet")
                    : kind === ExportController.Notebook ? qsTr("Save the notebook")
                    : kind === ExportController.WebPage ? qsTr("Save the web page")
                    : qsTr("Save the lesson PDF")
        const folder = SaveDialog.lastExportFolder() || String(exporter.suggestedFolder())
        const path = SaveDialog.ask(title, folder, exporter.suggestedFileName(), [filter], [suffix])
        // The keyboard comes back here (Esc, Ctrl+R), not to the window under the dialog.
        dialog.forceActiveFocus()
        if (path.length === 0 || !SaveDialog.confirmOthers(exporter.targetsFor(path), path))
            return
        if (exporter.save(path)) {
            SaveDialog.rememberExportFolder(path)
            dialog.savedPath = exporter.targetsFor(path)[0]
        }
    }

    Shortcut {
        sequences: [StandardKey.Save] // qmllint disable unqualified
        enabled: dialog.opened && footerBar.saveEnabled
        onActivated: dialog.startSave()
    }
    Shortcut {
        sequences: ["Ctrl+R", "F5"]
        enabled: dialog.opened && footerBar.renderEnabled
        onActivated: exporter.renderPreview()
    }
    Shortcut {
        sequence: "Escape"
        enabled: dialog.opened && exporter.busy
        onActivated: exporter.cancel()
    }

    header: ExportTitle {
        session: dialog.session
    }

    contentItem: Rectangle { // qmllint disable deferred-property-id
        color: Theme.page
        implicitWidth: 1000
        implicitHeight: 640

        ExportOptions {
            id: options
            exporter: exporter
            anchors.top: parent.top
            anchors.bottom: parent.bottom
            width: 340
        }
        ExportPreview {
            id: preview
            exporter: exporter
            shownUrl: dialog.shownUrl
            showingKey: dialog.showingKey
            onKeyChosen: key => dialog.showingKey = key
            anchors.fill: parent
            anchors.leftMargin: options.width + 12
            anchors.margins: 12
        }
    }

    footer: ExportFooter { // qmllint disable deferred-property-id
        id: footerBar
        exporter: exporter
        shownUrl: dialog.shownUrl
        showingKey: dialog.showingKey
        showing: preview.showing
        savedPath: dialog.savedPath
        onSaveRequested: dialog.startSave()
        onCloseRequested: dialog.close()
    }
}
