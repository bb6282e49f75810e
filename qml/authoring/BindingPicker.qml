pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Attnbook
import Attnbook.Models

// A searchable list of the paths a binding can quote, from the computed
// results; choosing one inserts {{path}}.
Popup {
    id: picker
    required property DocumentEditor editor
    signal chosen(string path)

    width: 460
    height: 360
    modal: true
    focus: true
    padding: 10
    onOpened: { filter.text = ""; filter.forceActiveFocus() }

    background: Rectangle {
        color: Theme.surface
        border.color: Theme.strongBorder
        radius: Theme.radius
    }

    ColumnLayout {
        anchors.fill: parent
        spacing: 6
        Text {
            textFormat: Text.PlainText
            text: qsTr("Insert a binding")
            color: Theme.text
            font.bold: true
        }
        TextField {
            id: filter
            objectName: "bindingFilter"
            Layout.fillWidth: true
            placeholderText: qsTr("Search: a cell id or a path, e.g. weights[0]")
            Accessible.name: qsTr("Search the binding paths")
            Keys.onDownPressed: list.incrementCurrentIndex()
            Keys.onUpPressed: list.decrementCurrentIndex()
            onAccepted: if (list.currentIndex >= 0) picker.choose(list.model[list.currentIndex])
        }
        ListView {
            id: list
            objectName: "bindingList"
            Layout.fillWidth: true
            Layout.fillHeight: true
            clip: true
            model: picker.opened ? picker.editor.bindingPaths(filter.text, 400) : []
            ScrollBar.vertical: ScrollBar {}
            Accessible.role: Accessible.List
            Accessible.name: qsTr("Binding paths")
            delegate: ItemDelegate {
                id: entry
                required property string modelData
                required property int index
                width: ListView.view.width
                padding: 3
                highlighted: ListView.isCurrentItem
                text: modelData
                font.family: Theme.monoFamily
                font.pixelSize: Theme.monoSize
                onClicked: picker.choose(modelData)
                Accessible.name: modelData
            }
        }
        Text {
            textFormat: Text.PlainText
            text: qsTr("Enter or a click inserts {{path}} at the cursor; add :4 for four decimals.")
            color: Theme.mutedText
            font.pixelSize: Theme.smallSize
            wrapMode: Text.WordWrap
            Layout.fillWidth: true
        }
    }
    function choose(path: string) {
        chosen(path)
        close()
    }
}
