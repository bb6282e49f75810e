import QtQuick
import Attnbook
import Attnbook.Models

// A piece of prose: Markdown with the bindings already replaced by values,
// set into the item's document with the lesson's typography.
TextEdit {
    id: prose
    required property string markdown

    function present() {
        ProseFormatter.present(textDocument, markdown, Theme.proseSize, Theme.text, Theme.link,
                               Theme.surfaceAlt, Theme.border, Theme.strongBorder)
    }
    onMarkdownChanged: present()
    Component.onCompleted: present()
    Connections {
        target: Theme
        function onDarkChanged() { prose.present() }
    }

    readOnly: true
    selectByMouse: true
    wrapMode: TextEdit.Wrap
    color: Theme.text
    selectionColor: Theme.selection
    selectedTextColor: Theme.text
    font.pixelSize: Theme.proseSize
    activeFocusOnTab: false
    onLinkActivated: link => Qt.openUrlExternally(link)
    Accessible.role: Accessible.StaticText
    Accessible.name: getText(0, Math.min(length, 200))

    HoverHandler {
        cursorShape: prose.hoveredLink.length > 0 ? Qt.PointingHandCursor : Qt.IBeamCursor
    }
}
