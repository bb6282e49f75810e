pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import Attnbook.Models

// The Edit menu's actions: undo and redo, and the switch into authoring mode (Ctrl+E).
Item {
    id: edits
    required property LessonSession session
    // Authoring mode, as the window has it: the switch shows it, `editingChosen` changes it.
    property bool editingLesson: false
    signal editingChosen(bool on)

    readonly property alias undoAction: undoAction
    readonly property alias redoAction: redoAction
    readonly property alias editLessonAction: editLessonAction

    // Ctrl+Z: the latest what-if not kept, in whichever cell it was made; with none, the
    // document's last edit. The session decides (core/live/undo_timeline.h).
    readonly property bool canUndo: edits.session.canUndo
    function undo() { edits.session.undo() }

    Action {
        id: undoAction
        text: edits.session.undoCellId !== "" ? qsTr("&Undo your change to %1").arg(edits.session.undoCellId)
              : edits.session.editor.canUndo ? qsTr("&Undo %1").arg(edits.session.editor.undoText)
              : qsTr("&Undo")
        shortcut: StandardKey.Undo // qmllint disable unqualified
        enabled: edits.canUndo
        onTriggered: edits.undo()
    }
    Action {
        id: redoAction
        text: edits.session.editor.canRedo ? qsTr("&Redo %1").arg(edits.session.editor.redoText) : qsTr("&Redo")
        shortcut: "Ctrl+Shift+Z"
        enabled: edits.session.editor.canRedo
        onTriggered: edits.session.editor.redo()
    }
    Action {
        id: editLessonAction
        objectName: "editLessonAction"
        text: qsTr("&Edit lesson")
        shortcut: "Ctrl+E"
        checkable: true
        onToggled: edits.editingChosen(checked)
    }
    Binding {
        target: editLessonAction
        property: "checked"
        value: edits.editingLesson
    }
}
