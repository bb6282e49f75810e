pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import Attnbook

// The frame around a live cell: a kind label, the cell's id, and its body.
Rectangle {
    id: card
    property string kind
    property string cellId
    property color edge: Theme.border
    property alias headerExtras: extras.data
    default property alias body: content.data

    implicitHeight: layout.implicitHeight + 2 * Theme.gap
    color: Theme.surface
    radius: Theme.radius
    border.color: edge
    border.width: 1

    ColumnLayout {
        id: layout
        anchors.fill: parent
        anchors.margins: Theme.gap
        spacing: Theme.gap

        RowLayout {
            Layout.fillWidth: true
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
        ColumnLayout {
            id: content
            Layout.fillWidth: true
            spacing: Theme.gap
        }
    }
}
