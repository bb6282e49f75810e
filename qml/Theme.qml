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

    readonly property int proseSize: 16
    readonly property int smallSize: 13
    readonly property int monoSize: 13
    readonly property string monoFamily: "monospace"
    readonly property int proseWidth: 740
    readonly property int columnWidth: 1040
    readonly property int gap: 12
    readonly property int radius: 6
}
