pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Attnbook
import Attnbook.Models

// Over the preview: which file it shows (the worksheet or its key), the page, and the zoom.
RowLayout {
    id: bar
    required property ExportController exporter
    required property ExportPages pages
    required property bool showingKey
    signal keyChosen(bool key)
    spacing: 8

    SectionTitle {
        text: qsTr("PREVIEW")
        font.letterSpacing: 0.8
    }
    Choice {
        objectName: "previewChoice"
        visible: String(bar.exporter.answersPreviewUrl).length > 0
        name: "preview"
        accessibleName: qsTr("Preview of")
        current: bar.showingKey ? "key" : "worksheet"
        options: [{ value: "worksheet", label: qsTr("Worksheet"), tip: qsTr("Show the worksheet") },
                  { value: "key", label: qsTr("Answer key"), tip: qsTr("Show the answer key") }]
        onChosen: value => bar.keyChosen(value === "key")
    }
    Item { Layout.fillWidth: true }
    Text {
        textFormat: Text.PlainText
        objectName: "pageIndicator"
        visible: bar.pages.viewReady
        text: bar.pages.viewReady ? qsTr("Page %1 of %2").arg(bar.pages.view.currentPage + 1)
                                                          .arg(bar.pages.view.document.pageCount) : ""
        color: Theme.mutedText
        font.pixelSize: Theme.smallSize
    }
    ToolButton {
        text: "−"
        enabled: bar.pages.viewReady
        onClicked: bar.pages.view.renderScale = Math.max(0.25, bar.pages.view.renderScale / 1.25)
        ToolTip.visible: hovered
        ToolTip.delay: 500
        ToolTip.text: qsTr("Zoom out")
        Accessible.name: qsTr("Zoom out")
    }
    ToolButton {
        text: qsTr("Fit")
        enabled: bar.pages.viewReady
        onClicked: bar.pages.fitWidth()
        ToolTip.visible: hovered
        ToolTip.delay: 500
        ToolTip.text: qsTr("Fit the page's width")
        Accessible.name: qsTr("Fit the page's width")
    }
    ToolButton {
        text: "+"
        enabled: bar.pages.viewReady
        onClicked: bar.pages.view.renderScale = Math.min(4, bar.pages.view.renderScale * 1.25)
        ToolTip.visible: hovered
        ToolTip.delay: 500
        ToolTip.text: qsTr("Zoom in")
        Accessible.name: qsTr("Zoom in")
    }
}
