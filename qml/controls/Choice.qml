pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import Attnbook

// A row of exclusive buttons, one per option: [{value, label, tip}].
// Each button is named NAME_VALUE, for tests and for accessibility.
Row {
    id: choice
    required property string name
    required property var options
    required property var current
    property string accessibleName: name
    signal chosen(var value)
    spacing: 2

    Repeater {
        model: choice.options
        delegate: Button {
            id: option
            required property var modelData
            required property int index
            objectName: choice.name + "_" + modelData.value
            text: modelData.label
            checkable: true
            checked: choice.current === modelData.value
            focusPolicy: Qt.StrongFocus
            ToolTip.visible: hovered && modelData.tip !== undefined
            ToolTip.text: modelData.tip !== undefined ? modelData.tip : ""
            ToolTip.delay: 500
            Accessible.name: choice.accessibleName + ": " + modelData.label
            leftPadding: 12
            rightPadding: 12
            // The chosen option is filled with the accent, so it reads as
            // chosen in the light and the dark theme alike.
            contentItem: Text {
                text: option.text
                font.pixelSize: Theme.smallSize + 1
                font.bold: option.checked
                color: option.checked ? Theme.onAccent : (option.enabled ? Theme.text : Theme.mutedText)
                horizontalAlignment: Text.AlignHCenter
                verticalAlignment: Text.AlignVCenter
            }
            background: Rectangle {
                implicitWidth: Theme.scaled(40)
                implicitHeight: Theme.scaled(28)
                radius: 3
                color: option.checked ? Theme.accent
                       : option.down ? Theme.border
                       : option.hovered ? Theme.surfaceAlt : Theme.surface
                border.color: option.visualFocus ? Theme.accent
                              : option.checked ? Theme.accent : Theme.strongBorder
                border.width: option.visualFocus ? 2 : 1
            }
            onToggled: {
                choice.chosen(modelData.value)
                checked = Qt.binding(() => choice.current === option.modelData.value)
            }
        }
    }
}
