import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Attnbook
import Attnbook.Models

// Find in the lesson (Ctrl+F): a field over the lesson, "n of m", Enter for
// the next hit and Shift+Enter for the previous one, Esc closes.
Rectangle {
    id: bar
    required property LessonSearch search
    // Where the reader is: the first hit shown is at or after this row.
    property int fromRow: 0
    signal closed()

    objectName: "findBar"
    visible: false
    implicitHeight: layout.implicitHeight + 12
    color: Theme.surface
    Accessible.role: Accessible.ToolBar
    Accessible.name: qsTr("Find in the lesson")

    function open() {
        visible = true
        field.forceActiveFocus()
        field.selectAll()
        if (field.text.length > 0)
            search.find(field.text, fromRow)
    }
    function close() {
        visible = false
        search.clear()
        closed()
    }

    Rectangle {
        anchors.bottom: parent.bottom
        width: parent.width
        height: 1
        color: Theme.border
    }
    RowLayout {
        id: layout
        anchors.fill: parent
        anchors.leftMargin: 16
        anchors.rightMargin: 16
        anchors.topMargin: 6
        anchors.bottomMargin: 6
        spacing: 8
        Text {
            textFormat: Text.PlainText
            text: qsTr("Find")
            color: Theme.mutedText
            font.pixelSize: Theme.smallSize
        }
        TextField {
            id: field
            objectName: "findField"
            Layout.preferredWidth: 320
            placeholderText: qsTr("words, cell names, tokens")
            selectByMouse: true
            onTextChanged: bar.search.find(text, bar.fromRow)
            Accessible.name: qsTr("Text to find")
            Keys.onPressed: event => {
                if (event.key === Qt.Key_Return || event.key === Qt.Key_Enter) {
                    if (event.modifiers & Qt.ShiftModifier)
                        bar.search.previous()
                    else
                        bar.search.next()
                    event.accepted = true
                } else if (event.key === Qt.Key_Escape) {
                    bar.close()
                    event.accepted = true
                }
            }
        }
        Text {
            textFormat: Text.PlainText
            objectName: "findStatus"
            text: bar.search.status
            color: bar.search.text.length > 0 && bar.search.count === 0 ? Theme.bad : Theme.mutedText
            font.pixelSize: Theme.smallSize
            Layout.minimumWidth: 70
        }
        ToolButton {
            objectName: "findPrevious"
            text: "▲"
            enabled: bar.search.count > 0
            onClicked: bar.search.previous()
            ToolTip.visible: hovered
            ToolTip.delay: 500
            ToolTip.text: qsTr("The previous hit (Shift+Enter)")
            Accessible.name: qsTr("Previous hit")
        }
        ToolButton {
            objectName: "findNext"
            text: "▼"
            enabled: bar.search.count > 0
            onClicked: bar.search.next()
            ToolTip.visible: hovered
            ToolTip.delay: 500
            ToolTip.text: qsTr("The next hit (Enter)")
            Accessible.name: qsTr("Next hit")
        }
        Item { Layout.fillWidth: true }
        ToolButton {
            text: "×"
            onClicked: bar.close()
            ToolTip.visible: hovered
            ToolTip.delay: 500
            ToolTip.text: qsTr("Close (Esc)")
            Accessible.name: qsTr("Close the find bar")
        }
    }
}
