pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Attnbook
import Attnbook.Models

// The export dialog's right side: the rendered pages (the worksheet or its key), or for a
// notebook and a web page what the file holds; what to do when nothing is rendered yet, or when
// the options changed since; and the summary line below.
ColumnLayout {
    id: preview
    required property ExportController exporter
    // The file to show ("" for a notebook or a web page) and whether it is the answer key.
    required property url shownUrl
    required property bool showingKey
    signal keyChosen(bool key)
    // The rendered file is on show: its pages drawn, or its summary shown.
    readonly property bool showing: !exporter.previewCurrent || pages.showing
    readonly property alias pages: pages
    spacing: 8

    ExportPreviewBar {
        exporter: preview.exporter
        pages: pages
        showingKey: preview.showingKey
        onKeyChosen: key => preview.keyChosen(key)
        Layout.fillWidth: true
    }

    Rectangle {
        objectName: "previewFrame"
        Layout.fillWidth: true
        Layout.fillHeight: true
        color: Theme.dark ? "#15171a" : "#e4e6ea"
        border.color: Theme.border
        radius: 4
        clip: true

        ExportPages {
            id: pages
            anchors.fill: parent
            source: preview.exporter.previewReady ? preview.shownUrl : ""
            current: preview.exporter.previewCurrent
            accessibleName: preview.showingKey ? qsTr("Preview of the answer key")
                                                : qsTr("Preview of the rendered PDF")
        }

        // Nothing rendered yet, being rendered, or its first page being drawn.
        Text {
            textFormat: Text.PlainText
            anchors.centerIn: parent
            width: Math.min(parent.width - 40, 420)
            visible: !preview.exporter.previewReady || pages.view === null && !pages.showing
            horizontalAlignment: Text.AlignHCenter
            wrapMode: Text.Wrap
            color: Theme.mutedText
            font.pixelSize: Theme.proseSize
            text: preview.exporter.busy ? qsTr("Rendering…")
                  : !preview.exporter.exportable ? qsTr("No lesson is open.")
                  : preview.exporter.previewReady ? qsTr("Drawing the pages…")
                  : qsTr("Choose what to export, then render the preview.")
        }

        // A notebook or a web page has no pages to show: what it holds, and where it opens.
        Column {
            anchors.centerIn: parent
            width: Math.min(parent.width - 40, 460)
            spacing: 10
            visible: preview.exporter.previewCurrent && String(preview.shownUrl).length === 0
            Text {
                textFormat: Text.PlainText
                objectName: "notebookPreview"
                width: parent.width
                horizontalAlignment: Text.AlignHCenter
                wrapMode: Text.Wrap
                color: Theme.text
                font.pixelSize: Theme.proseSize
                text: preview.exporter.previewSummary
            }
            Text {
                textFormat: Text.PlainText
                width: parent.width
                horizontalAlignment: Text.AlignHCenter
                wrapMode: Text.Wrap
                color: Theme.mutedText
                font.pixelSize: Theme.smallSize + 1
                text: preview.exporter.kind === ExportController.WebPage
                      ? qsTr("A web page has no page preview here. Save it, then open it in any browser, offline, or upload it to a course site: it needs no other file.")
                      : qsTr("A notebook has no page preview. Save it, then open it in Jupyter or VS Code and run its cells from the top: each code cell recomputes its attention or chart cell in NumPy.")
            }
        }

        // The options changed since the preview was rendered (a typed option: a click renders).
        Rectangle {
            anchors.centerIn: parent
            visible: preview.exporter.previewReady && !preview.exporter.previewCurrent
                     && !preview.exporter.busy
            width: staleColumn.implicitWidth + 32
            height: staleColumn.implicitHeight + 24
            radius: Theme.radius
            color: Theme.surface
            border.color: Theme.strongBorder
            z: 2
            Column {
                id: staleColumn
                anchors.centerIn: parent
                spacing: 8
                Text {
                    textFormat: Text.PlainText
                    anchors.horizontalCenter: parent.horizontalCenter
                    text: qsTr("The options changed since this preview.")
                    color: Theme.text
                    font.pixelSize: Theme.smallSize + 1
                }
                Button {
                    anchors.horizontalCenter: parent.horizontalCenter
                    text: qsTr("Render again")
                    onClicked: preview.exporter.renderPreview()
                    Accessible.name: qsTr("Render the preview again")
                }
            }
        }
    }

    Text {
        textFormat: Text.PlainText
        objectName: "previewSummary"
        Layout.fillWidth: true
        text: preview.exporter.previewSummary
        visible: text.length > 0
        color: Theme.mutedText
        font.pixelSize: Theme.smallSize
        elide: Text.ElideRight
    }
}
