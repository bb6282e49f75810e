import QtQuick
import Attnbook
import Attnbook.Models

// The one-line check under the weights: every row totals 1, blocked
// entries are exactly 0, and which rows are fully blocked.
Text {
    textFormat: Text.PlainText
    required property AttentionCellModel cell
    objectName: "rowCheck"
    text: cell.rowCheck
    color: cell.rowCheckPassed ? Theme.good : Theme.bad
    font.pixelSize: Theme.smallSize
    wrapMode: Text.WordWrap
    Accessible.role: Accessible.StaticText
    Accessible.name: text
}
