import QtQuick
import QtQuick.Controls
import Attnbook
import Attnbook.Models

// A menu in the theme's colours. Qt 6.4 resolves a popup's palette when the
// popup is made and does not follow the window's later changes, so a menu
// made in the light theme stayed white in the dark one: bound here instead.
// Each item made from an Action with a shortcut shows the keys at its right, as desktop menus
// do (Qt Quick's MenuItem draws none).
Menu {
    id: menu
    palette.base: Theme.surface
    palette.window: Theme.surface
    // Set for the active and inactive groups only: `palette.text` would set the disabled
    // group too, and a disabled item would read as enabled (see Main.qml).
    palette.active.text: Theme.text
    palette.inactive.text: Theme.text
    palette.active.windowText: Theme.text
    palette.inactive.windowText: Theme.text
    palette.active.buttonText: Theme.text
    palette.inactive.buttonText: Theme.text
    palette.light: Theme.surfaceAlt
    palette.mid: Theme.border
    palette.dark: Theme.strongBorder
    palette.shadow: Theme.dark ? "#000000" : "#6b7078"
    palette.highlight: Theme.dark ? "#3d6aa8" : "#2f6fb0"
    palette.highlightedText: "#ffffff"
    // A disabled item in the window's disabled colour (Main.qml's palette), lighter than the
    // muted text of an enabled one.
    readonly property color disabledText: Theme.dark ? "#6c727c" : "#9aa0a8"
    palette.disabled.text: menu.disabledText
    palette.disabled.windowText: menu.disabledText
    palette.disabled.buttonText: menu.disabledText

    // Puts a shortcut hint on every item that has a shortcut and none yet (items can be added
    // later: the recent files, the examples).
    function addShortcutHints() {
        for (let i = 0; i < menu.count; ++i) {
            const item = menu.itemAt(i) as MenuItem
            if (item === null || item.action === null || !item.action.shortcut)
                continue
            let hinted = false
            for (let c = 0; c < item.children.length; ++c)
                hinted = hinted || item.children[c].objectName === "shortcutHint"
            if (!hinted)
                shortcutHint.createObject(item, { item: item })
        }
    }
    Component.onCompleted: addShortcutHints()
    onAboutToShow: addShortcutHints()

    Component {
        id: shortcutHint
        Text {
            id: hint
            required property MenuItem item
            objectName: "shortcutHint"
            // The keys as the platform writes them ("Ctrl+Z").
            text: hint.item.action ? KeyNames.nativeText(hint.item.action.shortcut) : ""
            anchors.right: parent.right
            anchors.rightMargin: 12
            anchors.verticalCenter: parent.verticalCenter
            // (A disabled item's palette is the menu's disabled one.)
            color: hint.item.highlighted ? hint.item.palette.highlightedText
                   : hint.item.enabled ? Theme.mutedText : hint.item.palette.windowText
            font: hint.item.font
            // Room for the keys beside the item's text.
            Component.onCompleted: hint.item.rightPadding += hint.implicitWidth + 28
        }
    }
}
