import QtQuick
import QtQuick.Controls
import Attnbook

// A combo box whose list follows the theme. Its popup, like a menu's (see
// ThemedMenu), keeps the palette it was made with in Qt 6.4: a box made in the
// light theme opened a white list in the dark one. Bound here instead.
ComboBox {
    popup.palette.base: Theme.surface
    popup.palette.window: Theme.surface
    popup.palette.text: Theme.text
    popup.palette.windowText: Theme.text
    popup.palette.buttonText: Theme.text
    popup.palette.light: Theme.surfaceAlt
    popup.palette.mid: Theme.border
    popup.palette.dark: Theme.strongBorder
    popup.palette.shadow: Theme.dark ? "#000000" : "#6b7078"
    popup.palette.highlight: Theme.dark ? "#3d6aa8" : "#2f6fb0"
    popup.palette.highlightedText: "#ffffff"
    popup.palette.disabled.text: Theme.mutedText
    popup.palette.disabled.windowText: Theme.mutedText
}
