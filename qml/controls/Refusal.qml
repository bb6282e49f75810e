import QtQuick
import Attnbook

// Why an edit was refused, shown right where it was made.
Rectangle {
    id: refusal
    property string text
    visible: text.length > 0
    implicitHeight: label.implicitHeight + 10
    implicitWidth: label.implicitWidth + 16
    color: Theme.badTint
    radius: 4
    Accessible.role: Accessible.AlertMessage
    Accessible.name: text

    Text {
        textFormat: Text.PlainText
        id: label
        anchors.fill: parent
        anchors.leftMargin: 8
        anchors.rightMargin: 8
        verticalAlignment: Text.AlignVCenter
        text: "⚠ " + refusal.text
        color: Theme.bad
        font.pixelSize: Theme.smallSize
        wrapMode: Text.WordWrap
    }
}
