pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import Attnbook

// The frame around a live cell: a kind label, the cell's id, and its body.
// The body is a Column, not a layout: its items take `width: card.contentWidth`
// and their own height. Wrapped text in a ColumnLayout keeps the height of
// an early, narrow layout pass (Qt 6.4), which left gaps and overflows.
Rectangle {
    id: card
    property string kind
    property string cellId
    property color edge: Theme.border
    property alias headerExtras: extras.data
    readonly property real contentWidth: Math.max(width - 2 * Theme.gap, 0)
    default property alias body: content.data

    implicitHeight: header.height + Theme.gap + content.height + 2 * Theme.gap
    color: Theme.surface
    radius: Theme.radius
    border.color: edge
    border.width: 1

    RowLayout {
        id: header
        x: Theme.gap
        y: Theme.gap
        width: card.contentWidth
        spacing: 8
        Text {
            text: card.kind
            color: Theme.accent
            font.pixelSize: Theme.smallSize
            font.bold: true
            font.capitalization: Font.AllUppercase
            font.letterSpacing: 0.8
        }
        Text {
            objectName: "cardCellId"
            visible: text.length > 0
            text: card.cellId
            color: Theme.mutedText
            font.family: Theme.monoFamily
            font.pixelSize: Theme.smallSize
        }
        Item { Layout.fillWidth: true }
        RowLayout {
            id: extras
            spacing: 8
        }
    }
    Column {
        id: content
        x: Theme.gap
        y: header.y + header.height + Theme.gap
        width: card.contentWidth
        spacing: Theme.gap
    }
}
