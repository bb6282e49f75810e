import QtQuick
import QtQuick.Controls
import Attnbook

// "Save the changes?" before closing or opening another lesson: Save,
// Discard or Cancel. `ask(then)` runs `then` after Save (when it worked) or
// Discard; `save()` is the window's Save, which may need Save As first.
ThemedDialog {
    id: dialog
    property string fileName
    property var pending: null
    signal saveRequested()
    signal changesDiscarded()

    title: qsTr("Unsaved changes")
    width: 460
    standardButtons: Dialog.Save | Dialog.Discard | Dialog.Cancel

    function ask(then) {
        pending = then
        open()
    }
    function proceed() {
        const then = pending
        pending = null
        if (then)
            then()
    }

    Label {
        anchors.fill: parent
        text: qsTr("%1 has changes that are not saved. Save them first?").arg(dialog.fileName)
        color: Theme.text
        wrapMode: Text.WordWrap
    }
    onAccepted: saveRequested()
    onDiscarded: {
        close()
        dialog.changesDiscarded()
        proceed()
    }
    onRejected: pending = null
}
