pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import Attnbook
import Attnbook.Models

// The View menu's actions and their keys: zoom (Ctrl+plus, Ctrl+minus, Ctrl+0), presenting
// full screen (F11, Esc leaves) and find (Ctrl+F, then F3 and Shift+F3 or the platform's keys).
Item {
    id: views
    // The window's zoom and presenting, which these actions change through the signals.
    property real zoom: 1.0
    property bool presenting: false
    property bool shotMode: false
    required property bool lessonLoaded
    required property FindBar findBar
    required property LessonSearch search
    signal zoomChosen(real zoom)
    signal presentChosen(bool on)

    readonly property alias zoomInAction: zoomInAction
    readonly property alias zoomOutAction: zoomOutAction
    readonly property alias zoomResetAction: zoomResetAction
    readonly property alias presentAction: presentAction
    readonly property alias findAction: findAction

    readonly property var zoomSteps: [0.5, 0.67, 0.8, 0.9, 1.0, 1.1, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0]
    // The zoom within the steps' range (a remembered one from an older version may be outside).
    function clamped(zoom: real): real {
        return Math.max(views.zoomSteps[0], Math.min(zoom, views.zoomSteps[views.zoomSteps.length - 1]))
    }
    function zoomBy(direction: int) {
        const steps = views.zoomSteps
        if (direction > 0)
            views.zoomChosen(steps.find(z => z > views.zoom + 1e-6) || steps[steps.length - 1])
        else
            views.zoomChosen(steps.slice().reverse().find(z => z < views.zoom - 1e-6) || steps[0])
    }

    Action {
        id: zoomInAction
        text: qsTr("Zoom &in")
        shortcut: StandardKey.ZoomIn // qmllint disable unqualified
        enabled: views.zoom < views.zoomSteps[views.zoomSteps.length - 1]
        onTriggered: views.zoomBy(1)
    }
    // Ctrl+= too: plus is a shifted key on many keyboards.
    Shortcut { sequence: "Ctrl+="; enabled: zoomInAction.enabled; onActivated: views.zoomBy(1) }
    Action {
        id: zoomOutAction
        text: qsTr("Zoom &out")
        shortcut: StandardKey.ZoomOut // qmllint disable unqualified
        enabled: views.zoom > views.zoomSteps[0]
        onTriggered: views.zoomBy(-1)
    }
    Action {
        id: zoomResetAction
        text: qsTr("&Actual size")
        shortcut: "Ctrl+0"
        enabled: views.zoom !== 1.0
        onTriggered: views.zoomChosen(1.0)
    }

    Action {
        id: presentAction
        text: qsTr("&Present full screen (F11)")
        checkable: true
        onToggled: views.presentChosen(checked)
    }
    Binding {
        target: presentAction
        property: "checked"
        value: views.presenting
    }
    // F11 as a Shortcut of its own: as the Action's shortcut, Qt 6.4 let it go unanswered
    // once the row tools had been shown.
    Shortcut {
        sequence: "F11"
        enabled: !views.shotMode
        onActivated: views.presentChosen(!views.presenting)
    }
    Shortcut {
        sequence: "Esc"
        enabled: views.presenting
        onActivated: views.presentChosen(false)
    }

    Action {
        id: findAction
        text: qsTr("&Find…")
        shortcut: StandardKey.Find // qmllint disable unqualified
        enabled: views.lessonLoaded
        onTriggered: views.findBar.open()
    }
    Shortcut {
        sequences: [StandardKey.FindNext] // qmllint disable unqualified
        enabled: views.findBar.visible
        onActivated: views.search.next()
    }
    Shortcut {
        sequences: [StandardKey.FindPrevious] // qmllint disable unqualified
        enabled: views.findBar.visible
        onActivated: views.search.previous()
    }
}
