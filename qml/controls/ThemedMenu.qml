import QtQuick
import QtQuick.Controls
import Attnbook

// A menu in the theme's colours. Qt 6.4 resolves a popup's palette when the
// popup is made and does not follow the window's later changes, so a menu
// made in the light theme stayed white in the dark one: bound here instead.
Menu {
    palette.base: Theme.surface
    palette.window: Theme.surface
    palette.text: Theme.text
    palette.windowText: Theme.text
    palette.buttonText: Theme.text
    palette.light: Theme.surfaceAlt
    palette.mid: Theme.border
    palette.dark: Theme.strongBorder
    palette.shadow: Theme.dark ? "#000000" : "#6b7078"
    palette.highlight: Theme.dark ? "#3d6aa8" : "#2f6fb0"
    palette.highlightedText: "#ffffff"
    palette.disabled.text: Theme.mutedText
    palette.disabled.windowText: Theme.mutedText
}
