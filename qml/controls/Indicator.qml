import QtQuick
import QtQuick.Templates as T
import Attnbook

// The mark of a radio button, a check box or a switch, drawn from the
// theme: its edge at least 3:1 against the card in the light and the dark
// theme (WCAG 1.4.11), the chosen state in the accent, and a focus ring.
// Fusion's own marks are outlined from the window colour, nearly invisible
// on a dark card. Use as `indicator: Indicator { control: …; kind: … }`.
Rectangle {
    id: mark
    required property T.AbstractButton control
    // "radio", "check" or "switch"
    property string kind: "check"
    readonly property bool on: control.checked
    readonly property color edge: !control.enabled ? Theme.disabledEdge
                                  : control.visualFocus ? Theme.accent : Theme.controlEdge

    x: control.text.length > 0 ? control.leftPadding : control.leftPadding + (control.availableWidth - width) / 2
    y: control.topPadding + (control.availableHeight - height) / 2
    implicitWidth: kind === "switch" ? Theme.scaled(36) : Theme.scaled(16)
    implicitHeight: kind === "switch" ? Theme.scaled(20) : Theme.scaled(16)
    radius: kind === "check" ? 3 : height / 2
    color: kind === "switch" && on ? Theme.accent : (control.down ? Theme.surfaceAlt : Theme.surface)
    border.color: kind === "switch" && on ? Theme.accent : edge
    border.width: control.visualFocus ? 2 : 1.5

    // The focus ring, outside the mark.
    Rectangle {
        visible: mark.control.visualFocus
        anchors.fill: parent
        anchors.margins: -3
        radius: mark.radius + 3
        color: "transparent"
        border.color: Theme.accent
        border.width: 1
    }
    // Radio: a dot in the accent.
    Rectangle {
        visible: mark.kind === "radio" && mark.on
        anchors.centerIn: parent
        width: parent.width * 0.5
        height: width
        radius: width / 2
        color: mark.control.enabled ? Theme.accent : Theme.mutedText
    }
    // Check box: filled with the accent, a tick on it.
    Rectangle {
        visible: mark.kind === "check" && mark.on
        anchors.fill: parent
        radius: parent.radius
        color: mark.control.enabled ? Theme.accent : Theme.mutedText
        Text {
            textFormat: Text.PlainText
            anchors.centerIn: parent
            text: "✓"
            color: Theme.onAccent
            font.pixelSize: parent.height - 2
            font.bold: true
        }
    }
    // Switch: the knob, left when off, right when on.
    Rectangle {
        visible: mark.kind === "switch"
        width: parent.height - 6
        height: width
        radius: width / 2
        y: 3
        x: mark.on ? parent.width - width - 3 : 3
        color: mark.on ? Theme.onAccent : (mark.control.enabled ? Theme.controlEdge : Theme.disabledEdge)
        Behavior on x { NumberAnimation { duration: 80 } }
    }
}
