import QtQuick
import QtQuick.Controls
import Attnbook
import Attnbook.Models

// A menu in the theme's colours. Qt 6.4 resolves a popup's palette when the
// popup is made and does not follow the window's later changes, so a menu
// made in the light theme stayed white in the dark one: bound to the theme's palette here.
// Each item made from an Action with a shortcut shows the keys at its right, as desktop menus
// do (Qt Quick's MenuItem draws none).
Menu {
    id: menu
    palette: Theme.popupPalette

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
            textFormat: Text.PlainText
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
