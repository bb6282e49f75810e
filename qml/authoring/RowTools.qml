import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Attnbook
import Attnbook.Models

// The authoring tools above one row of the lesson: edit it, insert below,
// and for cells duplicate, move, rename and delete. Drawn at full strength: dimmed until hovered,
// the row's name read at 2.3:1; the muted colour is what makes them recede.
RowLayout {
    id: tools
    required property DocumentEditor editor
    required property int row
    required property string kind
    required property string cellId
    property bool editing: false
    readonly property bool isCell: cellId.length > 0
    signal edit()
    signal rename()
    signal refused(string message)

    spacing: 2

    function run(message: string) {
        if (message.length > 0)
            tools.refused(message)
    }

    Text {
        textFormat: Text.PlainText
        objectName: "rowName_" + tools.row
        text: tools.isCell ? tools.cellId : qsTr("prose")
        color: Theme.mutedText
        font.pixelSize: Theme.smallSize - 1
        font.family: Theme.monoFamily
        Layout.rightMargin: 6
    }
    Item { Layout.fillWidth: true }
    ToolLink {
        objectName: "edit_" + tools.row
        text: tools.kind === "prose" ? qsTr("Edit") : qsTr("Edit YAML")
        enabled: !tools.editing
        tip: tools.kind === "prose" ? qsTr("Edit this prose as Markdown, with a live preview")
                                    : qsTr("Edit this cell as its YAML text")
        onClicked: tools.edit()
    }
    ToolLink {
        id: insertButton
        objectName: "insert_" + tools.row
        text: qsTr("Insert below ▾")
        tip: qsTr("Insert a new prose paragraph, attention cell, quiz or chart below this row")
        onClicked: insertMenu.open()
        ThemedMenu {
            id: insertMenu
            objectName: "insertMenu_" + tools.row
            y: insertButton.height
            MenuItem { text: qsTr("Prose"); onTriggered: tools.run(tools.editor.insertBelow(tools.row, "prose")) }
            MenuItem { text: qsTr("Attention cell"); onTriggered: tools.run(tools.editor.insertBelow(tools.row, "attention")) }
            MenuItem { text: qsTr("Transformer cell"); onTriggered: tools.run(tools.editor.insertBelow(tools.row, "transformer")) }
            MenuItem { text: qsTr("Quiz"); onTriggered: tools.run(tools.editor.insertBelow(tools.row, "quiz")) }
            MenuItem { text: qsTr("Chart"); onTriggered: tools.run(tools.editor.insertBelow(tools.row, "chart")) }
        }
    }
    ToolLink {
        objectName: "duplicate_" + tools.row
        visible: tools.isCell
        text: qsTr("Duplicate")
        tip: qsTr("Copy this cell below itself, with a new id")
        onClicked: tools.run(tools.editor.duplicate(tools.cellId))
    }
    ToolLink {
        visible: tools.isCell
        text: "↑"
        tip: qsTr("Move this cell up, above the previous block")
        onClicked: tools.run(tools.editor.move(tools.cellId, -1))
    }
    ToolLink {
        visible: tools.isCell
        text: "↓"
        tip: qsTr("Move this cell down, below the next block")
        onClicked: tools.run(tools.editor.move(tools.cellId, 1))
    }
    ToolLink {
        visible: tools.isCell
        text: qsTr("Rename…")
        tip: qsTr("Change this cell's id; the bindings that use it follow")
        onClicked: tools.rename()
    }
    ToolLink {
        visible: tools.isCell
        text: qsTr("Delete")
        tip: qsTr("Delete this cell (Undo brings it back)")
        onClicked: tools.run(tools.editor.remove(tools.cellId))
    }
}
