import QtQuick
import QtQuick.Controls
import Attnbook

// Entering full screen says how to leave it, then fades.
Rectangle {
    id: hint
    objectName: "presentingHint"
    function show() {
        hint.opacity = 1
        hintTimer.restart()
    }
    parent: Overlay.overlay
    x: parent ? (parent.width - width) / 2 : 0
    y: 24
    width: hintText.implicitWidth + 32
    height: hintText.implicitHeight + 16
    radius: height / 2
    // The theme's text colour as the background, its page colour as the text: it stands out.
    color: Theme.text
    opacity: 0
    visible: opacity > 0
    Behavior on opacity { NumberAnimation { duration: 400 } }
    Text {
        textFormat: Text.PlainText
        id: hintText
        anchors.centerIn: parent
        text: qsTr("Presenting: Esc or F11 leaves full screen · Ctrl+plus and Ctrl+minus zoom")
        color: Theme.page
        font.pixelSize: 15
    }
    Timer {
        id: hintTimer
        interval: 2500
        onTriggered: hint.opacity = 0
    }
}
