pragma ComponentBehavior: Bound
import QtQuick

// Nothing moves under the pointer. A click can change the lesson's height
// above the control it pressed: a cell's summary wraps onto another line after "2 heads", a
// paragraph above quotes a longer number, and at the end of the lesson the view keeps to the
// end, so opening a sample answer pushed its button up out of view. For a moment after a
// press, the view scrolls by as much as the pressed item moved in it, so the item stays under
// the pointer and the next click lands on it, not on whatever slid there.
//
// Passive: an area over the lesson that sees each press and passes it on to the control under
// it. (Not a TapHandler: a handler never sees a press that a Button below it has grabbed.)
// A scroll by the reader ends the hold (the view is theirs again), as does stop().
MouseArea {
    id: hold
    required property Flickable view
    // What lies under this area: the lesson's column of rows.
    required property Item content
    // True while the view moves itself to keep the reader's place (LessonView's anchor and
    // hold): not a scroll of the reader's.
    property bool viewMovesItself: false
    // How long after the press (and after the release) a change still counts as the click's.
    property int holdFor: 1200

    // The item pressed and the items around it, each with its y in the view when pressed
    // ([{item, y}], innermost first). A click can remake the item pressed (a row of choices
    // made again from a new list): the innermost one still in the lesson is the one kept.
    property var held: []
    // True while the hold itself moves the view (not the reader's scroll).
    property bool adjusting: false
    readonly property bool holding: following.running

    acceptedButtons: Qt.AllButtons
    onPressed: mouse => {
        hold.start(hold.mapToItem(null, mouse.x, mouse.y))
        mouse.accepted = false
    }

    // The deepest visible item at (x, y) of `item`.
    function deepestAt(item: Item, x: real, y: real): Item {
        let found = item
        for (;;) {
            const child = found.childAt(x, y)
            if (!child)
                return found
            const local = found.mapToItem(child, x, y)
            x = local.x
            y = local.y
            found = child
        }
    }
    function start(scenePoint: point) {
        const local = hold.content.mapFromItem(null, scenePoint.x, scenePoint.y)
        const item = hold.deepestAt(hold.content, local.x, local.y)
        if (item === hold.content) {
            hold.stop()
            return
        }
        const chain = []
        for (let at = item; at && at !== hold.content; at = at.parent)
            chain.push({ item: at, y: at.mapToItem(hold.view, 0, 0).y })
        hold.held = chain
        hold.follow()
    }
    function follow() {
        following.restart()
        stopFollowing.restart()
    }
    function stop() {
        following.stop()
        stopFollowing.stop()
        hold.held = []
    }
    // Whether `item` is still shown in the lesson (not removed, hidden or destroyed).
    function inLesson(item): bool {
        let at = item
        while (at && at !== hold.content) {
            if (at.visible !== true)
                return false
            at = at.parent
        }
        return at === hold.content
    }
    // The innermost held item still in the lesson, and how far it moved in the view.
    function movedBy(): var {
        for (const entry of hold.held) {
            if (hold.inLesson(entry.item))
                return entry.item.mapToItem(hold.view, 0, 0).y - entry.y
        }
        return null
    }
    // Puts the held item back at its place in the view.
    function keep() {
        const moved = hold.movedBy()
        if (moved === null) {
            hold.stop()
            return
        }
        if (Math.abs(moved) < 0.5)
            return
        const view = hold.view
        const top = Math.max(0, Math.min(view.contentY + moved, view.contentHeight - view.height))
        hold.adjusting = true
        view.contentY = top
        hold.adjusting = false
    }

    Timer {
        id: following
        interval: 16
        repeat: true
        onTriggered: hold.keep()
    }
    Timer {
        id: stopFollowing
        interval: hold.holdFor
        onTriggered: hold.stop()
    }
    Connections {
        target: hold.view
        enabled: following.running
        // A change of height (the click's own result) is put right at once, not a frame later.
        function onContentHeightChanged() { hold.keep() }
        // The reader's scrolls end the hold: a drag, a flick or the wheel here; the keys, the
        // scroll bar and the jumps (outline, find) in LessonView. So does a move of more than a
        // screen that neither the hold nor the view's anchor made (a jump from elsewhere, such
        // as the header's problem count). Smaller moves are the Flickable's own, as it lays
        // out rows again: those the hold puts right.
        function onMovementStarted() { hold.stop() }
        function onContentYChanged() {
            if (hold.adjusting || hold.viewMovesItself)
                return
            const moved = hold.movedBy()
            if (moved !== null && Math.abs(moved) > hold.view.height)
                hold.stop()
        }
    }
}
