pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import Attnbook

// A list of lesson words to pick one from, for a vocab of any size. Its rows are made as they
// scroll into view: a Menu made one item per word, and each insertion cost the whole menu
// (10,000 words kept the window laying out for a minute). Typing filters the list; Up, Down and
// Return choose from the keyboard, Esc closes. Words are plain text, never markup.
Popup {
    id: picker
    property var words: []
    // The words shown: those that contain what is typed, any case.
    readonly property var shown: {
        const typed = filter.text.trim().toLowerCase()
        const all = Array.from(picker.words)
        return typed.length === 0 ? all : all.filter(word => word.toLowerCase().includes(typed))
    }
    signal picked(string word)

    palette: Theme.popupPalette
    padding: 4
    focus: true
    implicitWidth: Theme.scaled(220)

    function choose(index) {
        if (index < 0 || index >= picker.shown.length)
            return
        const word = picker.shown[index]
        picker.close()
        picker.picked(word)
    }

    onOpened: {
        filter.text = ""
        list.currentIndex = 0
        filter.forceActiveFocus()
    }

    background: Rectangle {
        color: Theme.surface
        border.color: Theme.strongBorder
        radius: Theme.radius
    }

    Column {
        width: picker.availableWidth
        spacing: 4
        TextField {
            id: filter
            objectName: "wordFilter"
            width: parent.width
            placeholderText: qsTr("Type to filter")
            Accessible.name: qsTr("Filter the words")
            onTextChanged: list.currentIndex = 0
            Keys.onDownPressed: list.incrementCurrentIndex()
            Keys.onUpPressed: list.decrementCurrentIndex()
            onAccepted: picker.choose(list.currentIndex)
        }
        ListView {
            id: list
            objectName: "wordList"
            width: parent.width
            height: Math.min(Theme.scaled(300), Math.max(1, picker.shown.length) * Theme.scaled(30))
            clip: true
            model: picker.shown
            boundsBehavior: Flickable.StopAtBounds
            highlightMoveDuration: 0
            ScrollBar.vertical: ScrollBar {}
            delegate: ItemDelegate {
                id: row
                required property string modelData
                required property int index
                width: ListView.view.width
                height: Theme.scaled(30)
                highlighted: ListView.isCurrentItem
                contentItem: Text {
                    text: row.modelData
                    textFormat: Text.PlainText
                    color: Theme.text
                    font: row.font
                    elide: Text.ElideRight
                    verticalAlignment: Text.AlignVCenter
                }
                Accessible.name: row.modelData
                onClicked: picker.choose(row.index)
            }
        }
        Label {
            visible: picker.shown.length === 0
            text: qsTr("No word contains “%1”").arg(filter.text)
            textFormat: Text.PlainText
            color: Theme.mutedText
        }
    }
}
