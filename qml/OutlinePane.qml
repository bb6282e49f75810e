pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import Attnbook
import Attnbook.Models

// The lesson's headings; choosing one scrolls the lesson there.
Rectangle {
    id: pane
    required property OutlineModel outline
    property int currentHeading: -1
    signal show(int row)
    color: Theme.surfaceAlt
    Accessible.role: Accessible.Pane
    Accessible.name: qsTr("Outline")

    Text {
        textFormat: Text.PlainText
        id: heading
        x: 14
        y: 12
        text: qsTr("Outline")
        color: Theme.mutedText
        font.pixelSize: Theme.smallSize
        font.bold: true
        font.capitalization: Font.AllUppercase
        font.letterSpacing: 0.8
    }
    ListView {
        id: list
        objectName: "outline"
        anchors.top: heading.bottom
        anchors.topMargin: 6
        anchors.left: parent.left
        anchors.right: parent.right
        anchors.bottom: parent.bottom
        clip: true
        model: pane.outline
        currentIndex: pane.currentHeading
        keyNavigationEnabled: true
        activeFocusOnTab: true
        boundsBehavior: Flickable.StopAtBounds
        ScrollBar.vertical: ScrollBar {}
        Accessible.role: Accessible.Tree
        Accessible.name: qsTr("Headings")
        Keys.onReturnPressed: if (currentItem) (currentItem as ItemDelegate).clicked()
        Keys.onSpacePressed: if (currentItem) (currentItem as ItemDelegate).clicked()
        delegate: ItemDelegate {
            id: entry
            required property string title
            required property int level
            required property int targetRow
            required property int index
            width: ListView.view.width
            leftPadding: 14 + (level - 1) * 14
            topPadding: level === 1 ? 7 : 4
            bottomPadding: level === 1 ? 7 : 4
            highlighted: ListView.isCurrentItem
            onClicked: {
                list.currentIndex = index
                pane.show(targetRow)
            }
            Accessible.name: title
            contentItem: Text {
                textFormat: Text.PlainText
                text: entry.title
                color: entry.highlighted ? Theme.accent : (entry.level === 1 ? Theme.text : Theme.mutedText)
                font.pixelSize: entry.level === 1 ? Theme.smallSize + 1 : Theme.smallSize
                font.bold: entry.level === 1
                wrapMode: Text.Wrap // every word of the heading, however long
            }
            background: Rectangle {
                color: entry.hovered ? Theme.surface : "transparent"
                Rectangle {
                    visible: entry.highlighted
                    width: 3
                    height: parent.height
                    color: Theme.accent
                }
            }
        }
    }
}
