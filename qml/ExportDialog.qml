pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import QtQuick.Dialogs
import QtQuick.Pdf // qmllint disable import
import Attnbook
import Attnbook.Models
import Attnbook.Window

// File → Export: the open lesson as a lesson PDF, a worksheet with its answer key, a bundle or
// a Jupyter notebook. The options on the left, the rendered PDF (a notebook's summary) on the right; rendering runs in the background with
// a progress bar and Cancel, and Save writes what the preview shows (all files or none).
Dialog {
    id: dialog
    objectName: "exportDialog"
    property LessonSession session
    readonly property ExportController controller: exporter
    // Which file the preview shows: the worksheet (or lesson PDF) or the answer key.
    property bool showingKey: false
    readonly property url shownUrl: showingKey && String(exporter.answersPreviewUrl).length > 0
                                    ? exporter.answersPreviewUrl : exporter.previewUrl
    // The view of the file shown: a new one for every file.
    property PdfMultiPageView view: null
    readonly property bool viewReady: view !== null && view.document.status === PdfDocument.Ready

    parent: Overlay.overlay
    anchors.centerIn: parent
    width: Math.min(1080, parent ? parent.width - 40 : 1080)
    height: Math.min(780, parent ? parent.height - 40 : 780)
    modal: true
    padding: 0
    topPadding: 0
    closePolicy: exporter.busy ? Popup.NoAutoClose : Popup.CloseOnEscape
    // A popup does not take the window's palette: the same colours as the window, from the
    // theme, and disabled controls that read as disabled (the text colours for the active and
    // inactive groups only: a plain `palette.buttonText` sets the disabled one too, Main.qml).
    palette.window: Theme.surface
    palette.base: Theme.surface
    palette.alternateBase: Theme.surfaceAlt
    palette.active.windowText: Theme.text
    palette.inactive.windowText: Theme.text
    palette.active.text: Theme.text
    palette.inactive.text: Theme.text
    palette.active.button: Theme.dark ? "#33373e" : "#f0f1f3"
    palette.inactive.button: Theme.dark ? "#33373e" : "#f0f1f3"
    palette.active.buttonText: Theme.text
    palette.inactive.buttonText: Theme.text
    palette.brightText: Theme.text
    palette.highlight: Theme.dark ? "#3d6aa8" : "#2f6fb0"
    palette.highlightedText: "#ffffff"
    palette.toolTipBase: Theme.surface
    palette.toolTipText: Theme.text
    palette.placeholderText: Theme.mutedText
    palette.light: Theme.dark ? "#454a52" : "#ffffff"
    palette.midlight: Theme.dark ? "#3a3e45" : "#e6e8eb"
    palette.mid: Theme.dark ? "#30343a" : "#c9cdd3"
    palette.dark: Theme.dark ? "#15171a" : "#9aa0a8"
    palette.shadow: Theme.dark ? "#000000" : "#6b7078"
    palette.disabled.buttonText: Theme.mutedText
    palette.disabled.windowText: Theme.mutedText
    palette.disabled.text: Theme.mutedText

    background: Rectangle {
        color: Theme.surface
        border.color: Theme.strongBorder
        radius: 4
    }
    Overlay.modal: Rectangle { color: Theme.dark ? "#99000000" : "#59000000" }
    onOpened: {
        if (!exporter.previewCurrent && !exporter.busy && exporter.exportable)
            exporter.renderPreview()
        const chosen = kinds.itemAt(exporter.kind)
        if (chosen)
            chosen.button.forceActiveFocus()
    }
    onClosed: exporter.cancel()

    ExportController {
        id: exporter
        session: dialog.session
        // A worksheet cannot be chosen for a lesson without one.
        onLessonChanged: if (exporter.kind === ExportController.Worksheet && !exporter.worksheetAvailable)
                             exporter.kind = ExportController.LessonPdf
    }

    // Print: the PDF the preview shows (the lesson, the worksheet or its key) on the paper of
    // the system print dialog.
    LessonPrinter {
        id: printer
    }

    FileDialog {
        id: rosterDialog
        title: qsTr("Choose a roster: one student name per line")
        fileMode: FileDialog.OpenFile
        nameFilters: [qsTr("Text files (*.txt *.csv)"), qsTr("All files (*)")]
        onAccepted: exporter.rosterPath = String(selectedFile)
    }

    // The file the last Save wrote, for Open and Show in folder.
    property string savedPath: ""
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
        enabled: dialog.opened && saveButton.enabled
        onActivated: dialog.startSave()
    }
    Shortcut {
        sequences: ["Ctrl+R", "F5"]
        enabled: dialog.opened && renderButton.enabled
        onActivated: exporter.renderPreview()
    }
    Shortcut {
        sequence: "Escape"
        enabled: dialog.opened && exporter.busy
        onActivated: exporter.cancel()
    }

    header: Rectangle {
        implicitHeight: 54
        color: Theme.surface
        Rectangle { anchors.bottom: parent.bottom; width: parent.width; height: 1; color: Theme.border }
        ColumnLayout {
            anchors.fill: parent
            anchors.leftMargin: 18
            anchors.rightMargin: 18
            spacing: 1
            Text {
                text: qsTr("Export “%1”").arg(dialog.session ? dialog.session.title : "")
                color: Theme.text
                font.pixelSize: 16
                font.bold: true
                elide: Text.ElideRight
                Layout.fillWidth: true
                Layout.topMargin: 8
                Accessible.role: Accessible.Heading
            }
            Text {
                text: !dialog.session ? ""
                      : qsTr("From %1%2").arg(dialog.session.fileName)
                        .arg(dialog.session.unsavedChanges ? qsTr(", with the changes kept so far") : "")
                color: Theme.mutedText
                font.pixelSize: Theme.smallSize
                elide: Text.ElideMiddle
                Layout.fillWidth: true
                Layout.bottomMargin: 8
            }
        }
    }

    contentItem: Rectangle { // qmllint disable deferred-property-id
        color: Theme.page
        implicitWidth: 1000
        implicitHeight: 640

        RowLayout {
            anchors.fill: parent
            spacing: 0

            // ——— The options ———
            Rectangle {
                Layout.preferredWidth: 340
                Layout.fillHeight: true
                color: Theme.surface
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
                        enabled: !exporter.busy

                        SectionTitle {
                            text: qsTr("WHAT TO EXPORT")
                            Layout.leftMargin: 16
                            Layout.topMargin: 14
                            font.letterSpacing: 0.8
                        }
                        Repeater {
                            id: kinds
                            model: [
                                { value: ExportController.LessonPdf, name: "kindLessonPdf", available: true,
                                  title: qsTr("Lesson PDF"),
                                  detail: qsTr("The lesson as a printable document: the prose with its live values and every cell.") },
                                { value: ExportController.Worksheet, name: "kindWorksheet", available: exporter.worksheetAvailable,
                                  title: qsTr("Worksheet and answer key"),
                                  detail: exporter.worksheetAvailable
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
                            // One choice: a radio button, and a line below saying what it gives.
                            delegate: ColumnLayout {
                                id: kindRow
                                required property var modelData
                                readonly property alias button: choice
                                Layout.fillWidth: true
                                Layout.leftMargin: 8
                                Layout.rightMargin: 12
                                spacing: 0
                                RadioButton {
                                    id: choice
                                    indicator: Indicator { control: choice; kind: "radio" }
                                    objectName: kindRow.modelData.name
                                    Layout.fillWidth: true
                                    // Exclusive through the controller's kind, which every button follows.
                                    autoExclusive: false
                                    enabled: kindRow.modelData.available
                                    checked: exporter.kind === kindRow.modelData.value
                                    onToggled: {
                                        exporter.kind = kindRow.modelData.value
                                        checked = Qt.binding(() => exporter.kind === kindRow.modelData.value)
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
                                    Layout.fillWidth: true
                                    Layout.leftMargin: choice.leftPadding + choice.indicator.width + choice.spacing
                                    text: kindRow.modelData.detail
                                    color: Theme.mutedText
                                    font.pixelSize: Theme.smallSize
                                    wrapMode: Text.Wrap
                                    TapHandler {
                                        enabled: choice.enabled
                                        onTapped: exporter.kind = kindRow.modelData.value
                                    }
                                }
                            }
                        }

                        SectionTitle {
                            visible: exporter.kind !== ExportController.Notebook
                                     && exporter.kind !== ExportController.WebPage
                            text: qsTr("PAPER")
                            Layout.leftMargin: 16
                            Layout.topMargin: 12
                            font.letterSpacing: 0.8
                        }
                        Choice {
                            visible: exporter.kind !== ExportController.Notebook
                                     && exporter.kind !== ExportController.WebPage
                            Layout.leftMargin: 16
                            name: "paper"
                            accessibleName: qsTr("Paper")
                            current: exporter.paper
                            options: [{ value: "a4", label: qsTr("A4"), tip: qsTr("210 × 297 mm") },
                                      { value: "letter", label: qsTr("Letter"), tip: qsTr("8.5 × 11 in") }]
                            onChosen: value => exporter.paper = value
                        }

                        // Worksheet options, shown for the worksheet only.
                        ColumnLayout {
                            visible: exporter.kind === ExportController.Worksheet
                            Layout.fillWidth: true
                            Layout.leftMargin: 16
                            Layout.rightMargin: 16
                            spacing: 6

                            SectionTitle {
                                text: qsTr("WORKSHEET")
                                Layout.topMargin: 12
                                font.letterSpacing: 0.8
                            }
                            CheckBox {
                                id: answersBox
                                indicator: Indicator { control: answersBox; kind: "check" }
                                objectName: "answersKey"
                                text: qsTr("Answer key")
                                checked: exporter.answers
                                onToggled: exporter.answers = checked
                                leftPadding: 0
                                ToolTip.visible: hovered
                                ToolTip.delay: 500
                                ToolTip.text: qsTr("Render the key too; it is saved beside the worksheet as NAME-answers.pdf")
                                Accessible.name: qsTr("Answer key")
                                Accessible.description: ToolTip.text
                            }
                            GridLayout {
                                columns: 2
                                columnSpacing: 10
                                rowSpacing: 6
                                Layout.fillWidth: true

                                Label {
                                    text: qsTr("Variants")
                                    color: Theme.text
                                }
                                SpinBox {
                                    id: variantsBox
                                    objectName: "variants"
                                    from: 0
                                    to: 1000
                                    editable: true
                                    value: exporter.variants
                                    onValueModified: exporter.variants = value
                                    Layout.fillWidth: true
                                    textFromValue: (v, locale) => v === 0 ? qsTr("none") : Number(v).toLocaleString(locale, "f", 0)
                                    valueFromText: (text, locale) => text.trim() === qsTr("none") || text.trim() === ""
                                                                     ? 0 : Number.fromLocaleString(locale, text)
                                    validator: RegularExpressionValidator { regularExpression: /none|[0-9]{0,4}/ }
                                    ToolTip.visible: hovered
                                    ToolTip.delay: 500
                                    ToolTip.text: qsTr("How many versions with freshly drawn numbers; none prints the lesson's own numbers")
                                    Accessible.name: qsTr("Variants")
                                    Accessible.description: ToolTip.text
                                }
                                Label {
                                    text: qsTr("Seed")
                                    color: exporter.seedUsed ? Theme.text : Theme.mutedText
                                }
                                TextField {
                                    id: seedField
                                    objectName: "seed"
                                    enabled: exporter.seedUsed
                                    text: exporter.seed
                                    onTextEdited: exporter.seed = text
                                    validator: RegularExpressionValidator { regularExpression: /[0-9]{1,20}/ }
                                    inputMethodHints: Qt.ImhDigitsOnly
                                    selectByMouse: true
                                    Layout.fillWidth: true
                                    ToolTip.visible: hovered
                                    ToolTip.delay: 500
                                    ToolTip.text: qsTr("The same seed draws the same variants again")
                                    Accessible.name: qsTr("Seed")
                                    Accessible.description: ToolTip.text
                                }
                                Label {
                                    text: qsTr("Roster")
                                    color: Theme.text
                                }
                                RowLayout {
                                    spacing: 4
                                    Layout.fillWidth: true
                                    Button {
                                        objectName: "chooseRoster"
                                        text: exporter.rosterPath.length > 0 ? qsTr("Change…") : qsTr("Choose…")
                                        onClicked: rosterDialog.open()
                                        ToolTip.visible: hovered
                                        ToolTip.delay: 500
                                        ToolTip.text: qsTr("A text file with one student name per line: each gets a named sheet, and a roster CSV is saved beside the worksheet")
                                        Accessible.name: qsTr("Choose a roster file")
                                        Accessible.description: ToolTip.text
                                    }
                                    Button {
                                        objectName: "clearRoster"
                                        text: qsTr("Clear")
                                        visible: exporter.rosterPath.length > 0
                                        onClicked: exporter.rosterPath = ""
                                        Accessible.name: qsTr("Clear the roster")
                                    }
                                }
                            }
                            Text {
                                Layout.fillWidth: true
                                text: exporter.rosterProblem.length > 0 ? exporter.rosterProblem
                                      : exporter.rosterPath.length === 0 ? qsTr("No roster: one unnamed sheet per variant.")
                                      : exporter.rosterCount === 1
                                        ? qsTr("%1: 1 name, on a sheet of its own.").arg(rosterName)
                                        : qsTr("%1: %2 names, each on a sheet of their own.").arg(rosterName).arg(exporter.rosterCount)
                                readonly property string rosterName:
                                    decodeURIComponent(exporter.rosterPath.replace(/^file:\/\//, "").split("/").pop())
                                color: exporter.rosterProblem.length > 0 ? Theme.bad : Theme.mutedText
                                font.pixelSize: Theme.smallSize
                                wrapMode: Text.Wrap
                            }
                        }

                        Text {
                            Layout.fillWidth: true
                            Layout.leftMargin: 16
                            Layout.rightMargin: 16
                            Layout.topMargin: 10
                            visible: text.length > 0
                            text: exporter.optionsProblem
                            color: Theme.bad
                            font.pixelSize: Theme.smallSize
                            wrapMode: Text.Wrap
                        }
                        Item { Layout.fillHeight: true; implicitHeight: 12 }
                    }
                }
            }

            // ——— The preview ———
            ColumnLayout {
                Layout.fillWidth: true
                Layout.fillHeight: true
                Layout.margins: 12
                spacing: 8

                RowLayout {
                    Layout.fillWidth: true
                    spacing: 8
                    SectionTitle {
                        text: qsTr("PREVIEW")
                        font.letterSpacing: 0.8
                    }
                    Choice {
                        objectName: "previewChoice"
                        visible: String(exporter.answersPreviewUrl).length > 0
                        name: "preview"
                        accessibleName: qsTr("Preview of")
                        current: dialog.showingKey ? "key" : "worksheet"
                        options: [{ value: "worksheet", label: qsTr("Worksheet"), tip: qsTr("Show the worksheet") },
                                  { value: "key", label: qsTr("Answer key"), tip: qsTr("Show the answer key") }]
                        onChosen: value => dialog.showingKey = value === "key"
                    }
                    Item { Layout.fillWidth: true }
                    Text {
                        objectName: "pageIndicator"
                        visible: dialog.viewReady
                        text: dialog.viewReady ? qsTr("Page %1 of %2").arg(dialog.view.currentPage + 1)
                                                                      .arg(dialog.view.document.pageCount) : ""
                        color: Theme.mutedText
                        font.pixelSize: Theme.smallSize
                    }
                    ToolButton {
                        text: "−"
                        enabled: dialog.viewReady
                        onClicked: dialog.view.renderScale = Math.max(0.25, dialog.view.renderScale / 1.25)
                        ToolTip.visible: hovered
                        ToolTip.delay: 500
                        ToolTip.text: qsTr("Zoom out")
                        Accessible.name: qsTr("Zoom out")
                    }
                    ToolButton {
                        text: qsTr("Fit")
                        enabled: dialog.viewReady
                        onClicked: dialog.fitWidth()
                        ToolTip.visible: hovered
                        ToolTip.delay: 500
                        ToolTip.text: qsTr("Fit the page's width")
                        Accessible.name: qsTr("Fit the page's width")
                    }
                    ToolButton {
                        text: "+"
                        enabled: dialog.viewReady
                        onClicked: dialog.view.renderScale = Math.min(4, dialog.view.renderScale * 1.25)
                        ToolTip.visible: hovered
                        ToolTip.delay: 500
                        ToolTip.text: qsTr("Zoom in")
                        Accessible.name: qsTr("Zoom in")
                    }
                }

                Rectangle {
                    Layout.fillWidth: true
                    Layout.fillHeight: true
                    color: Theme.dark ? "#15171a" : "#e4e6ea"
                    border.color: Theme.border
                    radius: 4
                    clip: true

                    // One view per file: a view is never pointed at another file while it
                    // still loads pages of the last one.
                    Repeater {
                        model: exporter.previewReady && String(dialog.shownUrl).length > 0
                               ? [dialog.shownUrl] : []
                        delegate: PdfMultiPageView {
                            id: pageView
                            required property url modelData
                            objectName: "pdfPreview"
                            anchors.fill: parent
                            anchors.margins: 1
                            document: PdfDocument {
                                source: pageView.modelData
                                onStatusChanged: if (status === PdfDocument.Ready) fitTimer.restart()
                            }
                            visible: document.status === PdfDocument.Ready
                            opacity: exporter.previewCurrent ? 1 : 0.35
                            Accessible.name: dialog.showingKey ? qsTr("Preview of the answer key")
                                                               : qsTr("Preview of the rendered PDF")
                            Component.onCompleted: dialog.view = pageView
                            Component.onDestruction: if (dialog.view === pageView) dialog.view = null
                            // Once the view has its size and the document its pages.
                            Timer { id: fitTimer; interval: 30; onTriggered: dialog.fitWidth() }
                        }
                    }

                    // Nothing rendered yet, or being rendered.
                    Column {
                        anchors.centerIn: parent
                        width: Math.min(parent.width - 40, 420)
                        spacing: 10
                        visible: !exporter.previewReady
                        Text {
                            width: parent.width
                            horizontalAlignment: Text.AlignHCenter
                            wrapMode: Text.Wrap
                            color: Theme.mutedText
                            font.pixelSize: Theme.proseSize
                            text: exporter.busy ? qsTr("Rendering…")
                                  : !exporter.exportable ? qsTr("No lesson is open.")
                                  : qsTr("Choose what to export, then render the preview.")
                        }
                    }

                    // A notebook or a web page has no pages to show: what it holds, and where it opens.
                    Column {
                        anchors.centerIn: parent
                        width: Math.min(parent.width - 40, 460)
                        spacing: 10
                        visible: exporter.previewCurrent && String(dialog.shownUrl).length === 0
                        Text {
                            objectName: "notebookPreview"
                            width: parent.width
                            horizontalAlignment: Text.AlignHCenter
                            wrapMode: Text.Wrap
                            color: Theme.text
                            font.pixelSize: Theme.proseSize
                            text: exporter.previewSummary
                        }
                        Text {
                            width: parent.width
                            horizontalAlignment: Text.AlignHCenter
                            wrapMode: Text.Wrap
                            color: Theme.mutedText
                            font.pixelSize: Theme.smallSize + 1
                            text: exporter.kind === ExportController.WebPage
                                  ? qsTr("A web page has no page preview here. Save it, then open it in any browser, offline, or upload it to a course site: it needs no other file.")
                                  : qsTr("A notebook has no page preview. Save it, then open it in Jupyter or VS Code and run its cells from the top: each code cell recomputes its attention or chart cell in NumPy.")
                        }
                    }

                    // The options changed since the preview was rendered.
                    Rectangle {
                        anchors.centerIn: parent
                        visible: exporter.previewReady && !exporter.previewCurrent && !exporter.busy
                        width: staleColumn.implicitWidth + 32
                        height: staleColumn.implicitHeight + 24
                        radius: Theme.radius
                        color: Theme.surface
                        border.color: Theme.strongBorder
                        Column {
                            id: staleColumn
                            anchors.centerIn: parent
                            spacing: 8
                            Text {
                                anchors.horizontalCenter: parent.horizontalCenter
                                text: qsTr("The options changed since this preview.")
                                color: Theme.text
                                font.pixelSize: Theme.smallSize + 1
                            }
                            Button {
                                anchors.horizontalCenter: parent.horizontalCenter
                                text: qsTr("Render again")
                                onClicked: exporter.renderPreview()
                                Accessible.name: qsTr("Render the preview again")
                            }
                        }
                    }
                }

                Text {
                    objectName: "previewSummary"
                    Layout.fillWidth: true
                    text: exporter.previewSummary
                    visible: text.length > 0
                    color: Theme.mutedText
                    font.pixelSize: Theme.smallSize
                    elide: Text.ElideRight
                }
            }
        }
    }

    function fitWidth() {
        // The view centres its pages in its width plus its scroll bar's: leave room for both.
        if (dialog.viewReady && dialog.view.width > 120)
            dialog.view.scaleToWidth(dialog.view.width - 64, dialog.view.height)
    }

    footer: Rectangle {
        implicitHeight: footerRow.implicitHeight + 20
        color: Theme.surface
        Rectangle { width: parent.width; height: 1; color: Theme.border }

        RowLayout {
            id: footerRow
            anchors.fill: parent
            anchors.leftMargin: 16
            anchors.rightMargin: 16
            spacing: 10

            // While rendering: what is being done, how far, and Cancel.
            RowLayout {
                visible: exporter.busy
                spacing: 10
                Layout.fillWidth: true
                ProgressBar {
                    id: progressBar
                    objectName: "exportProgress"
                    from: 0
                    to: 1
                    value: exporter.progress
                    Layout.preferredWidth: 220
                    Accessible.name: qsTr("Export progress")
                    Accessible.description: exporter.stage
                }
                Text {
                    text: exporter.stage
                    color: Theme.mutedText
                    font.pixelSize: Theme.smallSize
                    elide: Text.ElideRight
                    Layout.fillWidth: true
                }
                Button {
                    objectName: "cancelExport"
                    text: qsTr("Cancel")
                    onClicked: exporter.cancel()
                    ToolTip.visible: hovered
                    ToolTip.delay: 500
                    ToolTip.text: qsTr("Stop rendering (Esc); nothing is written")
                    Accessible.name: qsTr("Cancel the export")
                }
            }
            // Otherwise: what happened last.
            Text {
                objectName: "exportStatus"
                visible: !exporter.busy
                Layout.fillWidth: true
                text: exporter.error.length > 0 ? exporter.error : exporter.message
                color: exporter.error.length > 0 ? Theme.bad
                       : exporter.message.startsWith(qsTr("Saved")) ? Theme.good : Theme.mutedText
                font.pixelSize: Theme.smallSize
                font.bold: exporter.error.length > 0
                wrapMode: Text.Wrap
                maximumLineCount: 3
                elide: Text.ElideRight
                Accessible.role: Accessible.StaticText
                Accessible.name: text
            }
            Button {
                objectName: "openSaved"
                text: qsTr("Open")
                visible: !exporter.busy && dialog.savedPath.length > 0
                         && exporter.message.startsWith(qsTr("Saved"))
                onClicked: SaveDialog.openFile(dialog.savedPath)
                ToolTip.visible: hovered
                ToolTip.delay: 500
                ToolTip.text: qsTr("Open what was saved in the desktop's program for it")
                Accessible.name: qsTr("Open the saved file")
            }
            Button {
                objectName: "showSavedFolder"
                text: qsTr("Show in folder")
                visible: !exporter.busy && dialog.savedPath.length > 0
                         && exporter.message.startsWith(qsTr("Saved"))
                onClicked: SaveDialog.showFolder(dialog.savedPath)
                Accessible.name: qsTr("Show the folder it was saved in")
            }
            Button {
                id: renderButton
                objectName: "renderPreview"
                text: exporter.previewReady ? qsTr("Render again") : qsTr("Render preview")
                visible: !exporter.busy
                enabled: !exporter.busy && exporter.exportable && exporter.optionsProblem.length === 0
                         && (exporter.kind !== ExportController.Worksheet || exporter.worksheetAvailable)
                highlighted: !exporter.previewCurrent
                onClicked: exporter.renderPreview()
                ToolTip.visible: hovered
                ToolTip.delay: 500
                ToolTip.text: qsTr("Render with these options and show the result (Ctrl+R)")
                Accessible.name: qsTr("Render the preview")
            }
            Button {
                objectName: "printExport"
                text: qsTr("Print…")
                visible: !exporter.busy && (exporter.kind === ExportController.LessonPdf
                                            || exporter.kind === ExportController.Worksheet)
                enabled: exporter.previewCurrent && String(dialog.shownUrl).length > 0
                readonly property string what: exporter.kind === ExportController.LessonPdf ? qsTr("the lesson")
                                               : dialog.showingKey ? qsTr("the answer key") : qsTr("the worksheet")
                onClicked: printer.printPdf(dialog.shownUrl, what)
                ToolTip.visible: hovered
                ToolTip.delay: 500
                ToolTip.text: qsTr("Print %1 as the preview shows it").arg(what)
                Accessible.name: qsTr("Print %1").arg(what)
            }
            Button {
                objectName: "closeExport"
                text: qsTr("Close")
                onClicked: dialog.close()
                Accessible.name: qsTr("Close the export dialog")
                ToolTip.visible: hovered
                ToolTip.delay: 500
                ToolTip.text: exporter.busy ? qsTr("Cancel the render and close") : qsTr("Close (Esc)")
            }
            Button {
                id: saveButton
                objectName: "saveExport"
                text: qsTr("Save…")
                visible: !exporter.busy
                enabled: exporter.previewCurrent && !exporter.busy
                highlighted: exporter.previewCurrent
                onClicked: dialog.startSave()
                ToolTip.visible: hovered
                ToolTip.delay: 500
                ToolTip.text: exporter.kind === ExportController.Worksheet
                              ? qsTr("Save the worksheet; the key and the roster CSV go beside it (Ctrl+S)")
                              : qsTr("Save what the preview shows (Ctrl+S)")
                Accessible.name: qsTr("Save the export")
            }
        }
    }
}
