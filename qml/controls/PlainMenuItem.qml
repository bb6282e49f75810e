import QtQuick
import QtQuick.Controls
import Attnbook

// A menu item whose words come from the lesson or the disk (a vocab word, a recent file's path):
// shown as plain text. A MenuItem's own label reads markup, and a word such as `<img src=x>`
// took the window down as Qt laid it out.
MenuItem {
    id: item
    contentItem: Text {
        leftPadding: item.checkable && !item.mirrored ? item.indicator.width + item.spacing : 0
        text: item.text
        textFormat: Text.PlainText
        font: item.font
        color: item.highlighted ? item.palette.highlightedText : item.palette.text
        elide: Text.ElideRight
        verticalAlignment: Text.AlignVCenter
    }
}
