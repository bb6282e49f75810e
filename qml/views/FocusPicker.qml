pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Attnbook
import Attnbook.Models

// Which token the arithmetic, the trace and the shares follow.
RowLayout {
    id: picker
    required property AttentionCellModel cell
    property string refusal: ""
    spacing: 6
    Text {
        textFormat: Text.PlainText
        text: qsTr("Following")
        color: Theme.mutedText
        font.pixelSize: Theme.smallSize
    }
    ThemedComboBox {
        id: box
        objectName: "focusPicker"
        model: Array.from(picker.cell.queryLabels).map((label, i) => (i + 1) + ". " + label)
        currentIndex: picker.cell.focus
        implicitContentWidthPolicy: ComboBox.WidestText
        onActivated: index => {
            picker.refusal = picker.cell.setFocus(index)
        }
        ToolTip.visible: hovered
        ToolTip.delay: 500
        ToolTip.text: qsTr("The token whose row the worked steps follow")
        Accessible.name: qsTr("Token to follow")
    }
    Refusal { text: picker.refusal }
}
