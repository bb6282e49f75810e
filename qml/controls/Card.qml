pragma ComponentBehavior: Bound
import QtQuick
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

    // The kind and the id on the left, the cell's own controls (headerExtras) on the right.
    // Where they do not fit beside the id (a narrow window, a long id) they take a line of
    // their own below it, wrapped within the card, instead of running past its edge.
    readonly property real extrasWidth: {
        let width = 0
        let shown = 0
        for (let i = 0; i < extras.children.length; ++i) {
            const child = extras.children[i]
            if (child.visible) {
                width += child.implicitWidth
                ++shown
            }
        }
        return width + Math.max(shown - 1, 0) * extras.spacing
    }
    readonly property bool extrasBelow: extrasWidth > 0 && title.implicitWidth + 16 + extrasWidth > contentWidth
    Item {
        id: header
        objectName: "cardHeader"
        x: Theme.gap
        y: Theme.gap
        width: card.contentWidth
        height: card.extrasBelow ? title.height + 6 + extras.height : Math.max(title.height, extras.height)
        Row {
            id: title
            y: card.extrasBelow ? 0 : (header.height - height) / 2
            spacing: 8
            Text {
                textFormat: Text.PlainText
                text: card.kind
                color: Theme.accent
                font.pixelSize: Theme.smallSize
                font.bold: true
                font.capitalization: Font.AllUppercase
                font.letterSpacing: 0.8
            }
            Text {
                textFormat: Text.PlainText
                objectName: "cardCellId"
                visible: text.length > 0
                text: card.cellId
                color: Theme.mutedText
                font.family: Theme.monoFamily
                font.pixelSize: Theme.smallSize
            }
        }
        Flow {
            id: extras
            objectName: "cardExtras"
            spacing: 8
            width: Math.min(Math.ceil(card.extrasWidth), header.width)
            x: card.extrasBelow ? 0 : header.width - width
            y: card.extrasBelow ? title.height + 6 : (header.height - height) / 2
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
