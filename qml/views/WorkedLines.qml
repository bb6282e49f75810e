pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import Attnbook

// Worked lines of arithmetic under a title, in a monospaced face so that
// the terms of consecutive lines line up.
ColumnLayout {
    id: block
    required property string title
    required property var lines
    property real availableWidth: 700
    spacing: 2
    Text {
        textFormat: Text.PlainText
        text: block.title
        color: Theme.text
        font.pixelSize: Theme.smallSize
        font.bold: true
        Accessible.role: Accessible.Heading
    }
    Repeater {
        model: block.lines
        delegate: Text {
            textFormat: Text.PlainText
            required property string modelData
            text: modelData
            color: Theme.text
            font.family: Theme.monoFamily
            font.pixelSize: Theme.monoSize
            wrapMode: Text.Wrap
            Layout.maximumWidth: block.availableWidth
            Layout.leftMargin: 8
        }
    }
}
