import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Attnbook

// Save As into another folder, for a lesson that reads data files beside it: says which files it
// reads and offers to copy them along (keeping their relative paths), to save a bundle instead
// (one file that holds them), or to save the lesson alone. `ask(path, files, then)`.
ThemedDialog {
    id: dialog
    property string path: ""
    property var files: []
    property var then: null
    signal copyChosen(string path, var then)
    signal aloneChosen(string path, var then)
    signal bundleChosen()

    title: qsTr("This lesson reads data files")
    width: 560

    function ask(path: string, files: var, then: var) {
        dialog.path = path
        dialog.files = files
        dialog.then = then
        open()
    }

    ColumnLayout {
        anchors.fill: parent
        spacing: 10
        Label {
            Layout.fillWidth: true
            text: dialog.files.length === 1
                  ? qsTr("It reads 1 file from its folder that the new folder does not have:")
                  : qsTr("It reads %1 files from its folder that the new folder does not have:").arg(dialog.files.length)
            color: Theme.text
            wrapMode: Text.WordWrap
        }
        Text {
            objectName: "dataFilesList"
            Layout.fillWidth: true
            text: dialog.files.slice(0, 6).join("\n") + (dialog.files.length > 6 ? "\n" + qsTr("and %1 more").arg(dialog.files.length - 6) : "")
            textFormat: Text.PlainText
            color: Theme.text
            font.family: Theme.monoFamily
            font.pixelSize: Theme.smallSize
            elide: Text.ElideMiddle
        }
        Label {
            Layout.fillWidth: true
            text: qsTr("Saved there alone, the lesson would not find them. Copy them along, with the same folders, or save a bundle that holds the lesson and its files.")
            color: Theme.mutedText
            wrapMode: Text.WordWrap
        }
    }
    footer: Row {
        spacing: 8
        leftPadding: 22
        rightPadding: 22
        bottomPadding: 14
        layoutDirection: Qt.RightToLeft
        Button {
            objectName: "copyDataFiles"
            text: qsTr("Copy them along")
            highlighted: true
            onClicked: { dialog.close(); dialog.copyChosen(dialog.path, dialog.then) }
        }
        Button {
            text: qsTr("Save the lesson alone")
            onClicked: { dialog.close(); dialog.aloneChosen(dialog.path, dialog.then) }
        }
        Button {
            text: qsTr("Save a bundle instead…")
            onClicked: { dialog.close(); dialog.bundleChosen() }
        }
        Button {
            text: qsTr("Cancel")
            onClicked: dialog.close()
        }
    }
}
