pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import QtQuick.Templates as T
import Attnbook
import Attnbook.Models
import Attnbook.Window

// The notebook window: a menu, a header with the lesson's title and file,
// the outline of headings beside one scrolling column of cells. The window holds what it shows
// (the theme, the zoom, reading or authoring, presenting) and puts its parts together: the
// actions of each menu (window/FileActions, EditActions, ViewActions), the menus
// (window/AppMenuBar), the header (window/WindowHeader), what it remembers (WindowPlacement).
ApplicationWindow {
    id: window

    // Set by the launcher: the lesson to open ("" for the bundled one), the
    // theme (system, light or dark) and, for `attnbook shot`, what to show.
    property string initialPath: ""
    property string themeName: "system"
    property bool shotMode: false
    property string shotCell: ""
    // Authoring mode (View → Edit lesson, Ctrl+E): the edit tools above each
    // row. Off, the window reads the lesson as students see it.
    property bool editingLesson: false
    // View → Zoom: the lesson's scale (Ctrl+plus, Ctrl+minus, Ctrl+0), remembered.
    property real zoom: 1.0
    property bool outlineShown: true
    // Presenting (F11): full screen, the lesson alone and larger; Esc leaves.
    property bool presenting: false
    readonly property real presentingScale: 1.4
    property int visibilityBeforePresenting: Window.Windowed
    function present(on: bool) {
        if (on === window.presenting || window.shotMode)
            return
        if (on) {
            window.visibilityBeforePresenting = window.visibility
            window.presenting = true
            window.showFullScreen()
            presentingHint.show()
        } else {
            window.presenting = false
            window.visibility = window.visibilityBeforePresenting === Window.Maximized ? Window.Maximized
                                                                                     : Window.Windowed
        }
    }
    // The guide's window (Help → Guide) rather than the lesson's.
    property bool ownWindow: false
    // The window that opened this guide, and the guides this window opened: File → Quit (Ctrl+Q)
    // in any of them closes them all, so the program ends rather than leaving a guide behind.
    property var opener: null
    property var guides: []
    function quitAll() {
        if (window.opener) {
            window.opener.quitAll()
            return
        }
        for (const guide of window.guides)
            guide.close()
        window.guides = []
        window.close()
    }

    // The open lesson (also read by `attnbook shot` for its errors).
    readonly property LessonSession session: lessonSession
    // The height that shows the whole lesson (or the one cell) without scrolling.
    readonly property real pageHeight: (menuBar && menuBar.visible ? menuBar.height : 0)
                                       + (header.visible ? header.height : 0) + lessonColumn.pageHeight
    readonly property bool canUndo: editActions.canUndo
    function undo() { editActions.undo() }
    // Opens `path` ("" for the bundled lesson), asking first about unsaved changes.
    function openLesson(path: string) { fileActions.openLesson(path) }
    // The tooltip every control shares (its rules: window/ToolTipRules).
    readonly property T.ToolTip sharedToolTip: toolTipRules.shared

    width: 1180
    height: 820
    minimumWidth: 560
    minimumHeight: 400
    visible: true
    title: (lessonSession.unsavedChanges ? "• " : "") + lessonSession.title + " — " + lessonSession.fileName + " — attnbook"
    color: Theme.page

    SystemPalette { id: systemPalette }
    readonly property bool systemIsDark: systemPalette.window.hslLightness < 0.5
    Binding {
        target: Theme
        property: "dark"
        // A closing window (the guide) leaves the theme to the others.
        restoreMode: Binding.RestoreNone
        value: window.themeName === "dark" || (window.themeName === "system" && window.systemIsDark)
    }
    Binding {
        target: Theme
        property: "zoom"
        restoreMode: Binding.RestoreNone
        value: window.zoom * (window.presenting ? window.presentingScale : 1)
    }
    // Fusion draws the controls from the palette: the theme's (Theme.qml).
    palette: Theme.windowPalette

    LessonSession { id: lessonSession }
    // Save dialogs asked without a folder (a figure's) start in the lesson's.
    Binding {
        target: SaveDialog
        property: "lessonPath"
        value: lessonSession.filePath
    }
    LessonSearch {
        id: lessonSearch
        session: lessonSession
        onCurrentChanged: lessonColumn.showHit(currentRow, currentOccurrence, text)
    }

    FileActions {
        id: fileActions
        session: lessonSession
        shotMode: window.shotMode
        onLessonReplaced: {
            lessonColumn.contentY = 0
            releaseLater.restart()
        }
        onNewLessonStarted: window.editingLesson = true // a new lesson is there to be written
        onRefused: message => window.showRefusal(message)
        onQuitRequested: window.quitAll()
    }
    EditActions {
        id: editActions
        session: lessonSession
        editingLesson: window.editingLesson
        onEditingChosen: on => window.editingLesson = on
    }
    ViewActions {
        id: viewActions
        zoom: window.zoom
        presenting: window.presenting
        shotMode: window.shotMode
        lessonLoaded: lessonSession.loaded
        findBar: lessonFindBar
        search: lessonSearch
        onZoomChosen: zoom => window.zoom = zoom
        onPresentChosen: on => window.present(on)
    }
    WindowPlacement {
        id: placement
        placed: window
        remembersSize: !window.shotMode && !window.ownWindow && !window.presenting
    }
    ToolTipRules {
        id: toolTipRules
        pressArea: window.contentItem
    }
    AboutDialog { id: aboutDialog }
    PresentingHint { id: presentingHint }

    // Another lesson in the window: once the old one's rows are gone (their items are deleted
    // from the event loop), what they left behind is let go of: the JavaScript heap's garbage,
    // the scene graph's caches (glyph and texture caches) and the heap pages glibc kept. (Issue
    // 25: the window kept the memory of the lesson it had shown.)
    Timer {
        id: releaseLater
        interval: 500
        onTriggered: {
            gc()
            window.releaseResources()
            ProcessMemory.returnFreedHeap()
        }
    }

    function showRefusal(refusal: string) {
        if (refusal.length > 0)
            fileBanners.notice = refusal
    }

    property bool closeConfirmed: false
    onClosing: close => {
        if (!window.closeConfirmed && fileActions.mustAskBeforeClosing) {
            close.accepted = false
            fileActions.whenSaved(() => { window.closeConfirmed = true; window.close() })
            return
        }
        placement.rememberSize()
        if (window.ownWindow)
            Qt.callLater(window.destroy)
    }
    onZoomChanged: {
        if (!window.shotMode)
            placement.rememberZoom(window.zoom)
    }
    Component.onCompleted: {
        if (!window.shotMode) {
            window.zoom = viewActions.clamped(placement.zoom)
            if (!window.ownWindow)
                placement.restoreSize()
        }
        fileActions.openLesson(window.initialPath)
        lessonColumn.forceActiveFocus()
    }
    // With no item holding the keyboard, Qt 6.4 lets the first shortcut pressed go
    // unanswered (Ctrl+Z after Keep or Duplicate, F11 at once): the lesson takes the
    // keyboard whenever nothing else has it.
    onActiveFocusItemChanged: keyboardHome.restart()
    Timer {
        id: keyboardHome
        interval: 0
        onTriggered: {
            if (!window.activeFocusItem && !window.shotMode)
                lessonColumn.forceActiveFocus()
        }
    }

    // Help → Guide: the guide is a lesson of its own, opened in a window of
    // its own, so that the lesson being taught stays where it is.
    function openGuide() {
        const component = Qt.createComponent("qrc:/qt/qml/Attnbook/Main.qml")
        const guide = component.createObject(null, {
            initialPath: "qrc:/documents/guide.md",
            themeName: window.themeName,
            ownWindow: true,
            opener: window
        })
        if (guide) {
            window.guides = window.guides.concat([guide])
            // qmllint disable type
            guide.show()
            // qmllint enable type
        }
        return guide
    }

    menuBar: AppMenuBar {
        visible: !window.shotMode && !window.presenting
        session: lessonSession
        files: fileActions
        edits: editActions
        views: viewActions
        lessonView: lessonColumn
        editingLesson: window.editingLesson
        outlineShown: window.outlineShown
        themeName: window.themeName
        onOutlineChosen: shown => window.outlineShown = shown
        onThemeChosen: name => window.themeName = name
        onGuideRequested: window.openGuide()
        onAboutRequested: aboutDialog.open()
        onRefused: message => window.showRefusal(message)
    }

    header: WindowHeader {
        visible: window.shotCell.length === 0 && !window.presenting
        session: lessonSession
        editLessonAction: editActions.editLessonAction
        shotMode: window.shotMode
        onSaveRequested: fileActions.save()
        onOpenRequested: fileActions.openAction.trigger()
        onProblemsRequested: lessonColumn.contentY = 0 // the list of problems heads the lesson
    }

    ColumnLayout {
        anchors.fill: parent
        spacing: 0
        FindBar {
            id: lessonFindBar
            Layout.fillWidth: true
            search: lessonSearch
            fromRow: Math.max(0, lessonColumn.currentRow)
            onClosed: lessonColumn.forceActiveFocus()
        }
        FileBanners {
            id: fileBanners
            visible: !window.shotMode && !window.presenting
            Layout.fillWidth: true
            Layout.fillHeight: false
            session: lessonSession
            onSaveAs: fileActions.saveAs()
            onShowProblems: lessonColumn.contentY = 0 // the list of problems heads the lesson
            Connections {
                target: lessonSession
                function onNotice(text: string) { fileBanners.news = text }
            }
        }
        SplitView {
            Layout.fillWidth: true
            Layout.fillHeight: true
            orientation: Qt.Horizontal

            OutlinePane {
                id: outlinePane
                outline: lessonSession.outline
                visible: window.outlineShown && !window.presenting && window.shotCell.length === 0
                         && lessonSession.outline.count > 0
                // Above the first row (the title at the top of the lesson) the section in view is
                // the first one: its heading is highlighted, not none (or a later one).
                currentHeading: lessonSession.outline.headingOfRow(Math.max(0, lessonColumn.currentRow))
                // Wider as the lesson zooms, so that its entries keep their words (at most 40 %).
                SplitView.preferredWidth: Math.min(Theme.scaled(270), window.width * 0.4)
                SplitView.minimumWidth: 160
                onShow: row => lessonColumn.showRow(row)
            }
            LessonView {
                id: lessonColumn
                objectName: "lessonView"
                session: lessonSession
                onlyCell: window.shotCell
                authoring: window.editingLesson && !window.shotMode && !window.presenting
                scrollBarShown: !window.shotMode
                SplitView.fillWidth: true
                focus: true
                onRefused: message => window.showRefusal(message)
            }
        }
    }
}
