import QtQuick
import QtQuick.Controls
import Attnbook

// A combo box whose list follows the theme. Its popup, like a menu's (see
// ThemedMenu), keeps the palette it was made with in Qt 6.4: a box made in the
// light theme opened a white list in the dark one. Bound to the theme's palette here instead.
ComboBox {
    popup.palette: Theme.popupPalette
}
