pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Attnbook
import Attnbook.Models
import Attnbook.Window

// A cell as its YAML text. As you type, the lesson reader reads it and the
// first problem shows as FILE:LINE:COLUMN beside the editor, its line
// marked. Apply (Ctrl+Enter) records the edit; Esc cancels.
Rectangle {
    id: yamlEditor
    required property DocumentEditor editor
    required property string cellId
    required property string kind
    property string problem: ""
    property int problemLine: -1
    property string message: ""
    signal done()

    objectName: "yamlEditor_" + cellId
    implicitHeight: layout.implicitHeight + 2 * Theme.gap
    color: Theme.surface
    border.color: problem.length > 0 ? Theme.bad : Theme.accent
    radius: Theme.radius
    Accessible.role: Accessible.Grouping
    Accessible.name: qsTr("YAML of cell %1").arg(cellId)

    Component.onCompleted: {
        source.text = editor.cellSource(cellId)
        check()
        source.forceActiveFocus()
    }
    function check() {
        problem = editor.checkCellSource(cellId, source.text)
        problemLine = problem.length > 0 ? editor.checkCellSourceLine(cellId, source.text) : -1
    }
    function apply() {
        message = editor.setCellSource(cellId, source.text)
        if (message.length === 0)
            done()
    }
    Timer {
        id: checkTimer
        interval: 250
        onTriggered: yamlEditor.check()
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
                text: yamlEditor.kind
                color: Theme.accent
                font.pixelSize: Theme.smallSize
                font.bold: true
                font.capitalization: Font.AllUppercase
            }
            Text {
                textFormat: Text.PlainText
                text: yamlEditor.cellId + qsTr(" — YAML")
                color: Theme.mutedText
                font.pixelSize: Theme.smallSize
                font.family: Theme.monoFamily
            }
            Item { Layout.fillWidth: true }
            Button {
                text: qsTr("Cancel")
                onClicked: yamlEditor.done()
                ToolTip.visible: hovered
                ToolTip.delay: 500
                ToolTip.text: qsTr("Leave the cell as it was (Esc)")
                Accessible.name: qsTr("Cancel editing")
            }
            Button {
                objectName: "applyYaml"
                text: yamlEditor.problem.length > 0 ? qsTr("Apply with the error") : qsTr("Apply")
                highlighted: yamlEditor.problem.length === 0
                onClicked: yamlEditor.apply()
                ToolTip.visible: hovered
                ToolTip.delay: 500
                ToolTip.text: yamlEditor.problem.length > 0
                              ? qsTr("Put this text in the lesson anyway: the cell shows its source and the error until it is fixed")
                              : qsTr("Put this text in the lesson (Ctrl+Enter); Undo takes it back")
                Accessible.name: qsTr("Apply the edit")
            }
        }
        Rectangle {
            Layout.fillWidth: true
            implicitHeight: Math.max(160, Math.min(560, source.implicitHeight + 4))
            color: Theme.sunken
            border.color: source.activeFocus ? Theme.accent : Theme.border
            radius: 4
            clip: true
            // Line numbers, the problem's line in red.
            Column {
                id: gutter
                x: 4
                y: source.topPadding + 2
                // Room for a four-digit line of the file.
                width: Math.ceil(gutterDigits.advanceWidth)
                TextMetrics { id: gutterDigits; font.family: Theme.monoFamily; font.pixelSize: Theme.monoSize; text: "0000" }
                Repeater {
                    model: source.lineCount
                    delegate: Text {
                        textFormat: Text.PlainText
                        required property int index
                        width: gutter.width
                        height: source.lineCount > 0 ? source.contentHeight / source.lineCount : 16
                        horizontalAlignment: Text.AlignRight
                        // The file's line numbers, as the problem message gives them.
                        text: yamlEditor.editor.cellBodyFirstLine(yamlEditor.cellId) + index
                        color: index === yamlEditor.problemLine ? Theme.bad : Theme.mutedText
                        font.bold: index === yamlEditor.problemLine
                        font.family: Theme.monoFamily
                        font.pixelSize: Theme.monoSize
                    }
                }
            }
            Rectangle {
                visible: yamlEditor.problemLine >= 0 && yamlEditor.problemLine < source.lineCount
                x: gutter.x + gutter.width + 4
                width: parent.width - x - 2
                y: source.topPadding + 2 + yamlEditor.problemLine * (source.contentHeight / Math.max(1, source.lineCount))
                height: source.contentHeight / Math.max(1, source.lineCount)
                color: Theme.badTint
            }
            TextArea {
                id: source
                objectName: "yamlSource"
                x: gutter.x + gutter.width + 4
                y: 2
                width: parent.width - x - 2
                font.family: Theme.monoFamily
                font.pixelSize: Theme.monoSize
                wrapMode: TextEdit.NoWrap
                selectByMouse: true
                color: Theme.text
                background: null
                onTextChanged: checkTimer.restart()
                Accessible.name: qsTr("YAML of cell %1").arg(yamlEditor.cellId)
                Keys.onPressed: event => {
                    if ((event.key === Qt.Key_Return || event.key === Qt.Key_Enter)
                            && (event.modifiers & Qt.ControlModifier)) {
                        yamlEditor.apply()
                        event.accepted = true
                    } else if (event.key === Qt.Key_Escape) {
                        yamlEditor.done()
                        event.accepted = true
                    }
                }
            }
        }
        Text {
            objectName: "yamlProblem"
            visible: yamlEditor.problem.length > 0
            text: "<span style='font-family: monospace'>" + ProseFormatter.escapedMarkup(yamlEditor.problem) + "</span>"
            textFormat: Text.RichText // escapedMarkup writes character references StyledText lacks
            color: Theme.bad
            font.pixelSize: Theme.smallSize
            wrapMode: Text.WordWrap
            Layout.fillWidth: true
        }
        Text {
            textFormat: Text.PlainText
            visible: yamlEditor.message.length > 0
            text: yamlEditor.message
            color: Theme.bad
            font.pixelSize: Theme.smallSize
            wrapMode: Text.WordWrap
            Layout.fillWidth: true
        }
    }
}
