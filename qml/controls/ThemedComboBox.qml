pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import Attnbook

// A combo box whose list follows the theme. Its popup, like a menu's (see
// ThemedMenu), keeps the palette it was made with in Qt 6.4: a box made in the
// light theme opened a white list in the dark one. Bound to the theme's palette here instead.
//
// Typing a word on a closed box opens its list and moves the highlight there; Return or a click
// picks it. Qt's own box picks (and reports `activated`) at every keystroke instead: typing
// "unicorn" into the box that adds a token added six tokens, one per letter.
//
// Its words are lesson words (tokens, vocab): shown as plain text, never as markup.
ComboBox {
    id: box
    popup.palette: Theme.popupPalette
    delegate: ItemDelegate {
        id: row
        required property var modelData
        required property int index
        width: ListView.view ? ListView.view.width : box.width
        highlighted: box.highlightedIndex === row.index
        contentItem: Text {
            text: box.textRole.length > 0 ? row.modelData[box.textRole] : row.modelData
            textFormat: Text.PlainText
            color: Theme.text
            font: box.font
            elide: Text.ElideRight
            verticalAlignment: Text.AlignVCenter
        }
    }
    Keys.onPressed: event => {
        const typed = event.text.length > 0 && event.text.trim().length > 0
                      && !(event.modifiers & (Qt.ControlModifier | Qt.AltModifier | Qt.MetaModifier))
        if (typed && !box.popup.visible)
            box.popup.open() // the key itself then searches within the open list
    }
}
