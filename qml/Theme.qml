pragma Singleton
import QtQuick

// Colours and sizes in one place. `dark` is set by the window: from the
// system's palette, or from the View → Theme menu, or from `shot --theme`.
QtObject {
    property bool dark: false

    readonly property color page: dark ? "#1b1d21" : "#f6f6f4"
    readonly property color surface: dark ? "#24272c" : "#ffffff"
    readonly property color surfaceAlt: dark ? "#2c3036" : "#f2f3f5"
    readonly property color sunken: dark ? "#1f2226" : "#fafafa"
    readonly property color border: dark ? "#3b4048" : "#d9dce1"
    readonly property color strongBorder: dark ? "#555c66" : "#b9bec6"
    readonly property color text: dark ? "#e4e6ea" : "#1d2126"
    readonly property color mutedText: dark ? "#9aa1ab" : "#5b6370"
    // The edge of a radio button, a check box or a switch: 3:1 or more
    // against surface, surfaceAlt and sunken.
    readonly property color controlEdge: dark ? "#9aa1ab" : "#6b7280"
    readonly property color accent: dark ? "#f2a65a" : "#c05621"
    readonly property color onAccent: dark ? "#1b1d21" : "#ffffff"
    readonly property color focusRow: dark ? "#3a3125" : "#fdf1e4"
    readonly property color link: dark ? "#7cb8ff" : "#0a5fc2"
    readonly property color good: dark ? "#73c37a" : "#1a7f37"
    readonly property color bad: dark ? "#ff8077" : "#c62828"
    readonly property color warning: dark ? "#e0b24a" : "#8a5a00"
    readonly property color badTint: dark ? "#3d2326" : "#fdecec"
    readonly property color warningTint: dark ? "#3a3220" : "#fff6e0"
    readonly property color goodTint: dark ? "#1f3325" : "#e9f6ec"
    readonly property color selection: dark ? "#2f4f7a" : "#cfe2ff"
    readonly property color chartBackground: surface

    // The lesson's scale: View → Zoom (Ctrl+plus, Ctrl+minus, Ctrl+0) times
    // the enlargement of full-screen presenting. Every size below follows it.
    property real zoom: 1.0
    function scaled(size: real): int { return Math.round(size * zoom) }

    // The window's own frame (the header, status lines) keeps its size: zoom is for the lesson.
    readonly property int chromeSize: 13
    readonly property int chromeTitleSize: 17

    readonly property int proseSize: scaled(16)
    readonly property int smallSize: scaled(13)
    readonly property int monoSize: scaled(13)
    readonly property int titleSize: scaled(34)
    readonly property int subtitleSize: scaled(19)
    readonly property string monoFamily: "monospace"
    readonly property int proseWidth: scaled(740)
    readonly property int columnWidth: scaled(1040)
    readonly property int gap: scaled(12)
    readonly property int radius: 6
}
