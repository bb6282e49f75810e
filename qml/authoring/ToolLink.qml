import QtQuick
import QtQuick.Controls
import Attnbook

// A small flat button of the authoring tools, with its tooltip and
// accessible name.
ToolButton {
    id: button
    property string tip
    font.pixelSize: Theme.smallSize
    padding: 3
    leftPadding: 7
    rightPadding: 7
    focusPolicy: Qt.StrongFocus
    ToolTip.visible: hovered || visualFocus
    ToolTip.delay: 500
    ToolTip.text: tip
    Accessible.name: tip.length > 0 ? tip : text
}
