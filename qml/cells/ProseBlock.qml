import QtQuick
import QtQuick.Controls
import Attnbook
import Attnbook.Models
import Attnbook.Window

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
        // The headings' sizes are set in the document, relative to the body's: a zoom (or
        // presenting) sets them again, or an H2 at 175 % was the size of the body text.
        function onProseSizeChanged() { prose.present() }
    }

    readOnly: true
    selectByMouse: true
    wrapMode: TextEdit.Wrap
    color: Theme.text
    selectionColor: Theme.selection
    selectedTextColor: Theme.text
    font.pixelSize: Theme.proseSize
    activeFocusOnTab: false
    // A claim a what-if made false is a short mark whose link holds what it claims and the
    // values now (ProseBinder::claimMark (core/live/prose_rebinding)): shown on hover, never opened.
    readonly property string claimDetail: hoveredLink.startsWith("#claim:")
                                          ? decodeURIComponent(hoveredLink.slice(7)) : ""
    onLinkActivated: link => {
        if (!link.startsWith("#claim:"))
            Qt.openUrlExternally(link)
    }
    ToolTip.visible: claimDetail.length > 0
    ToolTip.delay: 200
    ToolTip.text: qsTr("This sentence relies on %1").arg(claimDetail)
    Accessible.role: Accessible.StaticText
    Accessible.name: getText(0, Math.min(length, 200))

    HoverHandler {
        cursorShape: prose.hoveredLink.length > 0 ? Qt.PointingHandCursor : Qt.IBeamCursor
    }
}
