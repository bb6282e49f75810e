import QtQuick
import QtQuick.Layouts
import Attnbook

// One bar across the top of the window: a message and its buttons.
Rectangle {
    id: banner
    property string message
    property bool bad: false
    default property alias buttons: row.data

    Layout.fillWidth: true
    implicitHeight: layout.implicitHeight + 12
    color: bad ? Theme.badTint : Theme.warningTint
    border.color: bad ? Theme.bad : Theme.warning
    Accessible.role: Accessible.AlertMessage
    Accessible.name: message

    RowLayout {
        id: layout
        anchors.fill: parent
        anchors.leftMargin: 16
        anchors.rightMargin: 12
        anchors.topMargin: 6
        anchors.bottomMargin: 6
        spacing: 10
        Text {
            textFormat: Text.PlainText
            text: banner.message
            color: banner.bad ? Theme.bad : Theme.warning
            font.pixelSize: Theme.smallSize + 1
            wrapMode: Text.WordWrap
            Layout.fillWidth: true
        }
        RowLayout {
            id: row
            spacing: 6
        }
    }
}
