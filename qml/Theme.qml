pragma Singleton
import QtQuick

// Colours and sizes in one place. `dark` is set by the window: from the
// system's palette, or from the View → Theme menu, or from `shot --theme`.
QtObject {
    id: theme
    property bool dark: false

    // Every colour of a theme. Each is stated once per theme, in `lightColours` and `darkColours`
    // below; the colours under them (Theme.page, Theme.text…) and the controls' palettes are
    // read from these.
    component Colours: QtObject {
        required property color page
        required property color surface
        required property color surfaceAlt
        required property color sunken
        required property color border
        required property color strongBorder
        required property color text
        required property color mutedText
        // The edge of a radio button, a check box or a switch: 3:1 or more against surface,
        // surfaceAlt and sunken.
        required property color controlEdge
        // The same for a disabled control (Compare before any change): fainter than an enabled
        // one's, yet 3:1 or more too, so that the control is seen (1.44:1 in the dark).
        required property color disabledEdge
        required property color accent
        // Text and marks drawn on the accent.
        required property color textOnAccent
        required property color focusRow
        required property color link
        required property color good
        required property color bad
        required property color warning
        required property color badTint
        required property color warningTint
        required property color goodTint
        required property color selection
        // Only Fusion's controls draw with these (a button's face, the shades of its edges,
        // the selection's highlight, the text of a disabled control).
        required property color button
        required property color disabledButton
        required property color disabledText
        required property color highlight
        required property color light
        required property color midlight
        required property color mid
        required property color shade
        required property color shadow
    }
    readonly property Colours lightColours: Colours {
        page: "#f6f6f4"
        surface: "#ffffff"
        surfaceAlt: "#f2f3f5"
        sunken: "#fafafa"
        border: "#d9dce1"
        strongBorder: "#b9bec6"
        text: "#1d2126"
        mutedText: "#5b6370"
        controlEdge: "#6b7280"
        disabledEdge: "#80868f"
        accent: "#c05621"
        textOnAccent: "#ffffff"
        focusRow: "#fdf1e4"
        link: "#0a5fc2"
        good: "#1a7f37"
        bad: "#c62828"
        warning: "#8a5a00"
        badTint: "#fdecec"
        warningTint: "#fff6e0"
        goodTint: "#e9f6ec"
        selection: "#cfe2ff"
        button: "#f0f1f3"
        disabledButton: "#f6f6f7"
        disabledText: "#9aa0a8"
        highlight: "#2f6fb0"
        light: "#ffffff"
        midlight: "#e6e8eb"
        mid: "#c9cdd3"
        shade: "#9aa0a8"
        shadow: "#6b7078"
    }
    readonly property Colours darkColours: Colours {
        page: "#1b1d21"
        surface: "#24272c"
        surfaceAlt: "#2c3036"
        sunken: "#1f2226"
        border: "#3b4048"
        strongBorder: "#555c66"
        text: "#e4e6ea"
        mutedText: "#9aa1ab"
        controlEdge: "#9aa1ab"
        disabledEdge: "#737a85"
        accent: "#f2a65a"
        textOnAccent: "#1b1d21"
        focusRow: "#3a3125"
        link: "#7cb8ff"
        good: "#73c37a"
        bad: "#ff8077"
        warning: "#e0b24a"
        badTint: "#3d2326"
        warningTint: "#3a3220"
        goodTint: "#1f3325"
        selection: "#2f4f7a"
        button: "#33373e"
        disabledButton: "#2a2d33"
        disabledText: "#6c727c"
        highlight: "#3d6aa8"
        light: "#454a52"
        midlight: "#3a3e45"
        mid: "#30343a"
        shade: "#15171a"
        shadow: "#000000"
    }
    readonly property Colours colours: dark ? darkColours : lightColours

    readonly property color page: colours.page
    readonly property color surface: colours.surface
    readonly property color surfaceAlt: colours.surfaceAlt
    readonly property color sunken: colours.sunken
    readonly property color border: colours.border
    readonly property color strongBorder: colours.strongBorder
    readonly property color text: colours.text
    readonly property color mutedText: colours.mutedText
    readonly property color controlEdge: colours.controlEdge
    readonly property color disabledEdge: colours.disabledEdge
    readonly property color accent: colours.accent
    readonly property color onAccent: colours.textOnAccent
    readonly property color focusRow: colours.focusRow
    readonly property color link: colours.link
    readonly property color good: colours.good
    readonly property color bad: colours.bad
    readonly property color warning: colours.warning
    readonly property color badTint: colours.badTint
    readonly property color warningTint: colours.warningTint
    readonly property color goodTint: colours.goodTint
    readonly property color selection: colours.selection
    readonly property color chartBackground: surface

    // The palette Fusion draws the controls from, stated once: the window's (`palette:
    // Theme.windowPalette`) and a popup's (`palette: Theme.popupPalette`: Qt 6.4 resolves a
    // popup's palette when the popup is made and does not follow the window's later changes, so
    // a menu made in the light theme stayed white in the dark one). A control copies the palette
    // it is given, once: each theme has palettes of its own whose colours never change, and
    // switching the theme hands every control the other one.
    //
    // The roles that have a disabled colour are set for the active and inactive groups only: a
    // plain `buttonText` sets all three groups, the disabled one too, so disabled controls (Back
    // at the first step, Keep with nothing to keep) were drawn like enabled ones.
    component ControlPalette: Palette {
        id: controlPalette
        required property Colours colours
        // A popup's background is a card's, the window's the page's.
        property bool popup: false
        window: popup ? colours.surface : colours.page
        base: colours.surface
        alternateBase: colours.surfaceAlt
        active.windowText: colours.text
        inactive.windowText: colours.text
        active.text: colours.text
        inactive.text: colours.text
        active.button: colours.button
        inactive.button: colours.button
        active.buttonText: colours.text
        inactive.buttonText: colours.text
        brightText: colours.text
        highlight: colours.highlight
        highlightedText: "#ffffff"
        toolTipBase: colours.surface
        toolTipText: colours.text
        placeholderText: colours.mutedText
        light: colours.light
        midlight: colours.midlight
        mid: colours.mid
        dark: colours.shade
        shadow: colours.shadow
        disabled.buttonText: colours.disabledText
        disabled.windowText: colours.disabledText
        disabled.text: colours.disabledText
        disabled.button: colours.disabledButton
    }
    readonly property Palette lightWindowPalette: ControlPalette { colours: theme.lightColours }
    readonly property Palette darkWindowPalette: ControlPalette { colours: theme.darkColours }
    readonly property Palette lightPopupPalette: ControlPalette { colours: theme.lightColours; popup: true }
    readonly property Palette darkPopupPalette: ControlPalette { colours: theme.darkColours; popup: true }
    readonly property Palette windowPalette: dark ? darkWindowPalette : lightWindowPalette
    readonly property Palette popupPalette: dark ? darkPopupPalette : lightPopupPalette

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
