import QtQuick
import QtQuick.Controls
import Attnbook

// A small dialog drawn from the theme, with room around its title, its text and its buttons
// (About and "Unsaved changes" were cramped, the title against the frame). A popup
// does not take the window's palette: the theme's palette for a popup (Theme.qml).
Dialog {
    id: dialog
    modal: true
    anchors.centerIn: Overlay.overlay
    leftPadding: 22
    rightPadding: 22
    topPadding: 10
    bottomPadding: 14
    palette: Theme.popupPalette

    background: Rectangle {
        color: Theme.surface
        border.color: Theme.strongBorder
        radius: 6
    }
    Overlay.modal: Rectangle { color: Theme.dark ? "#99000000" : "#59000000" }

    header: Label {
        visible: text.length > 0
        text: dialog.title
        color: Theme.text
        font.bold: true
        font.pixelSize: Theme.chromeTitleSize
        elide: Label.ElideRight
        leftPadding: 22
        rightPadding: 22
        topPadding: 18
        bottomPadding: 4
    }
    footer: DialogButtonBox {
        leftPadding: 22
        rightPadding: 22
        topPadding: 4
        bottomPadding: 18
        spacing: 10
        background: null
    }
}
