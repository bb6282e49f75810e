import QtQuick
import QtQuick.Controls
import Attnbook

// One option of a set of exclusive buttons (Choice, the transformer cell's views): the chosen
// one filled with the accent, so it reads as chosen in the light and the dark theme alike.
Button {
    id: option
    checkable: true
    focusPolicy: Qt.StrongFocus
    leftPadding: 12
    rightPadding: 12
    // As wide as the option in bold, so choosing one never moves its neighbours.
    implicitWidth: Math.max(Theme.scaled(40), Math.ceil(boldText.advanceWidth) + leftPadding + rightPadding)
    TextMetrics { id: boldText; font.pixelSize: Theme.smallSize + 1; font.bold: true; text: option.text }
    contentItem: Text {
        text: option.text
        textFormat: Text.PlainText
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
}
