import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Attnbook
import Attnbook.Models

// A piece of prose in edit mode: its Markdown in a monospace editor, bindings
// as typed, beside a live preview with the bindings' values. Apply
// (Ctrl+Enter) records the edit in the document's history; Esc cancels.
Rectangle {
    id: proseEditor
    required property DocumentEditor editor
    required property int row
    property string message: ""
    signal done()

    objectName: "proseEditor"
    implicitHeight: layout.implicitHeight + 2 * Theme.gap
    color: Theme.surface
    border.color: Theme.accent
    radius: Theme.radius
    Accessible.role: Accessible.Grouping
    Accessible.name: qsTr("Prose editor")

    Component.onCompleted: {
        source.text = editor.proseSource(row)
        source.forceActiveFocus()
    }
    function apply() {
        message = editor.setProse(row, source.text)
        if (message.length === 0)
            done()
    }

    ColumnLayout {
        id: layout
        anchors.fill: parent
        anchors.margins: Theme.gap
        spacing: 8

        RowLayout {
            Layout.fillWidth: true
            spacing: 6
            Text {
                textFormat: Text.PlainText
                text: qsTr("Markdown")
                color: Theme.accent
                font.pixelSize: Theme.smallSize
                font.bold: true
                font.capitalization: Font.AllUppercase
            }
            Item { Layout.fillWidth: true }
            Button {
                objectName: "insertBinding"
                text: qsTr("Insert binding…")
                onClicked: picker.open()
                ToolTip.visible: hovered
                ToolTip.delay: 500
                ToolTip.text: qsTr("Pick a computed value to quote here ({{cell.path}})")
                Accessible.name: qsTr("Insert a binding")
            }
            Button {
                text: qsTr("Cancel")
                onClicked: proseEditor.done()
                ToolTip.visible: hovered
                ToolTip.delay: 500
                ToolTip.text: qsTr("Leave the prose as it was (Esc)")
                Accessible.name: qsTr("Cancel editing")
            }
            Button {
                objectName: "applyProse"
                text: qsTr("Apply")
                highlighted: true
                onClicked: proseEditor.apply()
                ToolTip.visible: hovered
                ToolTip.delay: 500
                ToolTip.text: qsTr("Put this text in the lesson (Ctrl+Enter); Undo takes it back")
                Accessible.name: qsTr("Apply the edit")
            }
        }
        RowLayout {
            Layout.fillWidth: true
            spacing: Theme.gap
            ScrollView {
                Layout.fillWidth: true
                Layout.preferredWidth: 1
                Layout.alignment: Qt.AlignTop
                Layout.preferredHeight: Math.max(180, Math.min(520, source.implicitHeight + 4))
                TextArea {
                    id: source
                    objectName: "proseSource"
                    font.family: Theme.monoFamily
                    font.pixelSize: Theme.monoSize
                    wrapMode: TextEdit.Wrap
                    selectByMouse: true
                    color: Theme.text
                    background: Rectangle {
                        color: Theme.sunken
                        border.color: source.activeFocus ? Theme.accent : Theme.border
                        radius: 4
                    }
                    Accessible.name: qsTr("Markdown of this prose")
                    Keys.onPressed: event => {
                        if ((event.key === Qt.Key_Return || event.key === Qt.Key_Enter)
                                && (event.modifiers & Qt.ControlModifier)) {
                            proseEditor.apply()
                            event.accepted = true
                        } else if (event.key === Qt.Key_Escape) {
                            proseEditor.done()
                            event.accepted = true
                        }
                    }
                }
            }
            Rectangle {
                Layout.fillWidth: true
                Layout.preferredWidth: 1
                Layout.alignment: Qt.AlignTop
                implicitHeight: previewColumn.implicitHeight + 16
                color: Theme.page
                border.color: Theme.border
                radius: 4
                ColumnLayout {
                    id: previewColumn
                    anchors.fill: parent
                    anchors.margins: 8
                    spacing: 4
                    Text {
                        textFormat: Text.PlainText
                        text: qsTr("Preview")
                        color: Theme.mutedText
                        font.pixelSize: Theme.smallSize - 1
                        font.capitalization: Font.AllUppercase
                    }
                    ProseBlock {
                        objectName: "prosePreview"
                        Layout.fillWidth: true
                        markdown: proseEditor.editor.previewMarkdown(source.text)
                    }
                }
            }
        }
        // A binding that would be an error (a mistyped path, a cell that is not there), said
        // where it is typed, before Apply.
        Text {
            textFormat: Text.PlainText
            objectName: "proseBindingProblem"
            readonly property string problem: proseEditor.editor.proseProblem(source.text)
            visible: problem.length > 0 && proseEditor.message.length === 0
            text: "⚠ " + problem
            color: Theme.warning
            font.pixelSize: Theme.smallSize
            wrapMode: Text.WordWrap
            Layout.fillWidth: true
        }
        Text {
            textFormat: Text.PlainText
            visible: proseEditor.message.length > 0
            text: proseEditor.message
            color: Theme.bad
            font.pixelSize: Theme.smallSize
            wrapMode: Text.WordWrap
            Layout.fillWidth: true
        }
    }

    BindingPicker {
        id: picker
        editor: proseEditor.editor
        x: Math.max(0, proseEditor.width - width - Theme.gap)
        y: 40
        onChosen: path => {
            source.insert(source.cursorPosition, "{{" + path + "}}")
            source.forceActiveFocus()
        }
    }
}
