import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Attnbook
import Attnbook.Models

// Rename a cell: the bindings that quote it follow the new id.
ThemedDialog {
    id: dialog
    required property DocumentEditor editor
    property string cellId
    property string message: ""

    title: qsTr("Rename the cell %1").arg(cellId)
    standardButtons: Dialog.Ok | Dialog.Cancel
    width: 440
    onOpened: {
        message = ""
        field.text = cellId
        field.selectAll()
        field.forceActiveFocus()
    }
    onAccepted: {
        const refusal = editor.rename(cellId, field.text)
        if (refusal.length > 0) {
            message = refusal
            open()
        }
    }

    ColumnLayout {
        anchors.fill: parent
        spacing: 8
        Text {
            textFormat: Text.PlainText
            text: qsTr("New id (the bindings that use it follow):")
            color: Theme.text
            Layout.fillWidth: true
            wrapMode: Text.WordWrap
        }
        TextField {
            id: field
            objectName: "renameField"
            Layout.fillWidth: true
            font.family: Theme.monoFamily
            Accessible.name: qsTr("New id of the cell")
            onAccepted: dialog.accept()
        }
        Text {
            textFormat: Text.PlainText
            visible: dialog.message.length > 0
            text: dialog.message
            color: Theme.bad
            wrapMode: Text.WordWrap
            Layout.fillWidth: true
        }
    }
}
