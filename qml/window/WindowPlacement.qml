import QtQuick
import QtQuick.Controls
import Qt.labs.settings

// What the window remembers between sessions (QSettings, category "window"): its zoom, and its
// size, written as it closes: a teacher who sized it beside a projector's
// finds it so. (Not on every resize: a window that only goes away, as the tests' do, leaves the
// size as it was.) Edit mode is not remembered: a window always opens as students see the
// lesson, so a class never meets the authoring tools an author left on.
Item {
    id: placement
    required property ApplicationWindow placed
    // The size is not remembered for `attnbook shot`, the guide's window, or while presenting.
    property bool remembersSize: true
    readonly property real zoom: settings.zoom

    Settings {
        id: settings
        category: "window"
        property real zoom: 1.0
        property int width: 0
        property int height: 0
        property bool maximized: false
    }
    function rememberZoom(zoom: real) {
        settings.zoom = zoom
    }
    function rememberSize() {
        if (!placement.remembersSize)
            return
        const window = placement.placed
        settings.maximized = window.visibility === Window.Maximized
        if (window.visibility === Window.Windowed) {
            settings.width = window.width
            settings.height = window.height
        }
    }
    function restoreSize() {
        const window = placement.placed
        if (settings.width >= window.minimumWidth && settings.height >= window.minimumHeight) {
            window.width = settings.width
            window.height = settings.height
        }
        if (settings.maximized)
            window.visibility = Window.Maximized
    }
}
