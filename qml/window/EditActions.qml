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
    // document's last edit. (The order across cells is decided here: the C++ offers no one
    // undo timeline for what-ifs and document edits yet, issue 24.)
    property int cellsRevision: 0
    Connections {
        target: edits.session
        function onOpened() { ++edits.cellsRevision }
    }
    function whatIfToUndo(): var {
        edits.cellsRevision // new cell objects after every rebuild
        const cells = edits.session.cells
        let latest = null
        for (let row = 0; row < cells.count; ++row) {
            const cell = cells.data(cells.index(row, 0), CellListModel.CellObjectRole)
            if (cell && cell.canUndoWhatIf === true && (!latest || cell.whatIfStamp > latest.whatIfStamp))
                latest = cell
        }
        return latest
    }
    readonly property var undoableWhatIf: whatIfToUndo()
    readonly property bool canUndo: undoableWhatIf !== null || session.editor.canUndo
    function undo() {
        const cell = edits.whatIfToUndo()
        if (cell)
            cell.undoWhatIf()
        else if (edits.session.editor.canUndo)
            edits.session.editor.undo()
    }

    Action {
        id: undoAction
        text: edits.undoableWhatIf ? qsTr("&Undo your change to %1").arg(edits.undoableWhatIf.cellId)
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
