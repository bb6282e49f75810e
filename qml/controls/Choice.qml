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
        delegate: ChoiceButton {
            id: option
            required property var modelData
            required property int index
            objectName: choice.name + "_" + modelData.value
            text: modelData.label
            checked: choice.current === modelData.value
            ToolTip.visible: hovered && modelData.tip !== undefined
            ToolTip.text: modelData.tip !== undefined ? modelData.tip : ""
            ToolTip.delay: 500
            Accessible.name: choice.accessibleName + ": " + modelData.label
            onToggled: {
                choice.chosen(modelData.value)
                checked = Qt.binding(() => choice.current === option.modelData.value)
            }
        }
    }
}
