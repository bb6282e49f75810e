import QtQuick
import Attnbook

// The small heading over one view or group of controls.
Text {
    textFormat: Text.PlainText
    color: Theme.mutedText
    font.pixelSize: Theme.smallSize
    font.bold: true
    wrapMode: Text.WordWrap
    Accessible.role: Accessible.Heading
}
