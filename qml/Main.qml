pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import QtQuick.Dialogs
import Qt.labs.settings
import Attnbook
import Attnbook.Models
import Attnbook.Window
import "authoring"

// The notebook window: a menu, a header with the lesson's title and file,
// the outline of headings beside one scrolling column of cells.
ApplicationWindow {
    id: window

    // Set by the launcher: the lesson to open ("" for the bundled one), the
    // theme (system, light or dark) and, for `attnbook shot`, what to show.
    property string initialPath: ""
    property string themeName: "system"
    property bool shotMode: false
    // Authoring mode (View → Edit lesson, Ctrl+E): the edit tools above each
    // row. Off, the window reads the lesson as students see it. Remembered
    // between sessions; `attnbook shot` always reads.
    property bool editingLesson: false
    // View → Zoom: the lesson's scale (Ctrl+plus, Ctrl+minus, Ctrl+0), remembered.
    property real zoom: 1.0
    readonly property var zoomSteps: [0.5, 0.67, 0.8, 0.9, 1.0, 1.1, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0]
    function zoomBy(direction: int) {
        const steps = window.zoomSteps
        if (direction > 0)
            window.zoom = steps.find(z => z > window.zoom + 1e-6) || steps[steps.length - 1]
        else
            window.zoom = steps.slice().reverse().find(z => z < window.zoom - 1e-6) || steps[0]
    }
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
    Binding {
        target: Theme
        property: "zoom"
        // A closing window (the guide) leaves the theme to the others.
        restoreMode: Binding.RestoreNone
        value: window.zoom * (window.presenting ? window.presentingScale : 1)
    }
    readonly property string targetCell: lessonView.targetRow >= 0 && lessonView.targetRow < lessonSession.cells.count
                                         ? lessonSession.cells.data(lessonSession.cells.index(lessonView.targetRow, 0), CellListModel.CellIdRole) || ""
                                         : ""
    function edited(refusal: string) {
        if (refusal.length > 0)
            fileBanners.notice = refusal
    }
    property string shotCell: ""
    // The height that shows the whole lesson (or the one cell) without scrolling.
    readonly property real pageHeight: (menuBar && menuBar.visible ? menuBar.height : 0)
                                       + (header.visible ? header.height : 0) + lessonView.pageHeight

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

    // Fusion draws the controls from the palette: follow the theme.
    palette.window: Theme.page
    palette.base: Theme.surface
    palette.alternateBase: Theme.surfaceAlt
    // The roles that have a disabled colour below are set for the active and inactive groups
    // only: `palette.buttonText` sets all three groups, the disabled one too, whenever its
    // binding runs (at start in any order, and at every theme change), so disabled controls
    // (Back at the first step, Keep with nothing to keep) were drawn like enabled ones
    // (issue 25, trip 10).
    palette.active.windowText: Theme.text
    palette.inactive.windowText: Theme.text
    palette.active.text: Theme.text
    palette.inactive.text: Theme.text
    palette.active.button: Theme.dark ? "#33373e" : "#f0f1f3"
    palette.inactive.button: Theme.dark ? "#33373e" : "#f0f1f3"
    palette.active.buttonText: Theme.text
    palette.inactive.buttonText: Theme.text
    palette.brightText: Theme.text
    palette.highlight: Theme.dark ? "#3d6aa8" : "#2f6fb0"
    palette.highlightedText: "#ffffff"
    palette.toolTipBase: Theme.surface
    palette.toolTipText: Theme.text
    palette.placeholderText: Theme.mutedText
    palette.light: Theme.dark ? "#454a52" : "#ffffff"
    palette.midlight: Theme.dark ? "#3a3e45" : "#e6e8eb"
    palette.mid: Theme.dark ? "#30343a" : "#c9cdd3"
    palette.dark: Theme.dark ? "#15171a" : "#9aa0a8"
    palette.shadow: Theme.dark ? "#000000" : "#6b7078"
    // Disabled controls (Back at the first step, Next at the last) read as such.
    palette.disabled.buttonText: Theme.dark ? "#6c727c" : "#9aa0a8"
    palette.disabled.windowText: Theme.dark ? "#6c727c" : "#9aa0a8"
    palette.disabled.text: Theme.dark ? "#6c727c" : "#9aa0a8"
    palette.disabled.button: Theme.dark ? "#2a2d33" : "#f6f6f7"

    // The open lesson (also read by `attnbook shot` for its errors).
    readonly property LessonSession session: lessonSession
    LessonSession { id: lessonSession }
    // Save dialogs asked without a folder (a figure's) start in the lesson's.
    Binding {
        target: SaveDialog
        property: "lessonPath"
        value: lessonSession.filePath
    }
    RecentFiles { id: recent }
    LessonSearch {
        id: lessonSearch
        session: lessonSession
        onCurrentChanged: lessonView.showHit(currentRow, currentOccurrence, text)
    }

    // Opening another lesson, New and closing ask first when there are
    // unsaved changes (Save, Discard, Cancel).
    function whenSaved(then) {
        if (lessonSession.unsavedChanges && !window.shotMode)
            unsavedDialog.ask(then)
        else
            then()
    }
    // Save: through the lesson's file, or Save As when it has none yet.
    // `then` runs once the lesson is saved.
    function save(then) {
        if (!lessonSession.hasFile) {
            window.saveAs(then)
            return
        }
        if (lessonSession.saver.save() && then)
            then()
    }
    // Save As: where, asked in the system's save dialog (SaveDialog), starting in the lesson's
    // folder; replacing another file is asked first. Asked once the menu that chose it has
    // closed (the dialog waits for its answer, and the menu would stay drawn behind it).
    function saveAs(then) {
        saveAsSoon.then = then || null
        saveAsSoon.restart()
    }
    Timer {
        id: saveAsSoon
        property var then: null
        interval: 0
        onTriggered: window.askWhereToSave(saveAsSoon.then)
    }
    function askWhereToSave(then) {
        const path = SaveDialog.ask(qsTr("Save the lesson as"), lessonSession.filePath,
                                    lessonSession.fileName.length > 0 ? lessonSession.fileName
                                                                      : "lesson.md",
                                    [qsTr("Lessons (*.md)")], ["md"])
        if (path.length > 0 && lessonSession.saver.saveAs(path)) {
            recent.add(lessonSession.filePath)
            if (then)
                then()
        }
    }
    property bool closeConfirmed: false
    onClosing: close => {
        if (!window.closeConfirmed && lessonSession.unsavedChanges && !window.shotMode) {
            close.accepted = false
            unsavedDialog.ask(() => { window.closeConfirmed = true; window.close() })
            return
        }
        window.rememberSize()
        if (window.ownWindow)
            Qt.callLater(window.destroy)
    }
    function newLesson() {
        whenSaved(() => {
            // A new lesson is there to be written.
            window.editingLesson = true
            lessonSession.newLesson()
            lessonView.contentY = 0
        })
    }
    function openLesson(path: string) {
        whenSaved(() => openNow(path))
    }
    function openNow(path: string) {
        lessonSession.open(path)
        // Only a file that was read, and never from `attnbook shot` (scripts, CI).
        if (!window.shotMode && lessonSession.saver.hasFile)
            recent.add(lessonSession.filePath)
        lessonView.contentY = 0
    }

    // What the window remembers between sessions (QSettings, category "window").
    // Zoom is remembered. Edit mode is not: a window always opens as students see the lesson,
    // so a class never meets the authoring tools an author left on (issue 25, trip 14).
    // The window's size too, written as it closes (issue 25, trip 14): a teacher who sized it
    // beside a projector's finds it so. (Not on every resize: a window that only goes away,
    // as the tests' do, leaves the size as it was.)
    Settings {
        id: windowSettings
        category: "window"
        property real zoom: 1.0
        property int width: 0
        property int height: 0
        property bool maximized: false
    }
    function rememberSize() {
        if (window.shotMode || window.ownWindow || window.presenting)
            return
        windowSettings.maximized = window.visibility === Window.Maximized
        if (window.visibility === Window.Windowed) {
            windowSettings.width = window.width
            windowSettings.height = window.height
        }
    }
    function restoreSize() {
        if (windowSettings.width >= window.minimumWidth && windowSettings.height >= window.minimumHeight) {
            window.width = windowSettings.width
            window.height = windowSettings.height
        }
        if (windowSettings.maximized)
            window.visibility = Window.Maximized
    }
    onZoomChanged: {
        if (!window.shotMode)
            windowSettings.zoom = window.zoom
    }

    Component.onCompleted: {
        if (!window.shotMode) {
            window.zoom = Math.max(window.zoomSteps[0], Math.min(windowSettings.zoom, window.zoomSteps[window.zoomSteps.length - 1]))
            if (!window.ownWindow)
                window.restoreSize()
        }
        window.sharedToolTip.delay = window.toolTipDelay
        window.sharedToolTip.timeout = window.toolTipTimeout
        openLesson(initialPath)
        lessonView.forceActiveFocus()
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
                lessonView.forceActiveFocus()
        }
    }

    // Tooltips get out of the way (issue 25, trip 14): one rule for every control's, set here
    // on the one tooltip they all share (ToolTip's attached instance). A tooltip waits half a
    // second, leaves after five and goes at the next press, so none stays over the question a
    // student is answering. (Each control's ToolTip.delay and timeout are written onto the
    // shared tooltip as it is shown: a shorter wait or none is raised to these.)
    readonly property int toolTipDelay: 500
    readonly property int toolTipTimeout: 5000
    // (Asked of an item made in QML: the window's own content item has no engine to ask.)
    readonly property var sharedToolTip: lessonView.ToolTip.toolTip
    Connections {
        target: window.sharedToolTip
        function onDelayChanged() {
            if (window.sharedToolTip.delay < window.toolTipDelay)
                window.sharedToolTip.delay = window.toolTipDelay
        }
        function onTimeoutChanged() {
            if (window.sharedToolTip.timeout < 0 || window.sharedToolTip.timeout > window.toolTipTimeout)
                window.sharedToolTip.timeout = window.toolTipTimeout
        }
        // The control pressed can be made again by its click (a row of choices from a new
        // list): the new one under the pointer would show the same tip at once.
        function onOpened() {
            if (pressedTip.running && window.sharedToolTip.text === pressedTip.text)
                window.sharedToolTip.hide()
        }
    }
    Timer {
        id: pressedTip
        property string text: ""
        interval: 1500
    }
    // Any press in the window hides it: the control pressed is in use, the tip in the way.
    // The area passes every press on to what is under it.
    MouseArea {
        objectName: "toolTipHider"
        parent: window.contentItem
        anchors.fill: parent
        z: 1000
        acceptedButtons: Qt.AllButtons
        onPressed: mouse => {
            if (window.sharedToolTip) {
                // Its text is set as soon as a control asks, before its delay is over.
                pressedTip.text = window.sharedToolTip.text
                pressedTip.restart()
                window.sharedToolTip.hide()
            }
            mouse.accepted = false
        }
    }

    FileDialog {
        id: openDialog
        title: qsTr("Open a lesson")
        nameFilters: [qsTr("Lessons and bundles (*.md *.zip)"), qsTr("All files (*)")]
        onAccepted: window.openLesson(String(selectedFile))
    }
    UnsavedDialog {
        id: unsavedDialog
        fileName: lessonSession.fileName
        onSaveRequested: window.save(() => unsavedDialog.proceed())
        onChangesDiscarded: lessonSession.saver.discardChanges()
    }

    Action {
        id: newAction
        text: qsTr("&New lesson")
        shortcut: StandardKey.New // qmllint disable unqualified
        onTriggered: window.newLesson()
    }
    Action {
        id: saveAction
        text: qsTr("&Save")
        shortcut: StandardKey.Save // qmllint disable unqualified
        enabled: lessonSession.loaded
        onTriggered: window.save()
    }
    Action {
        id: saveAsAction
        text: qsTr("Save &As…")
        shortcut: "Ctrl+Shift+S"
        enabled: lessonSession.loaded
        onTriggered: window.saveAs()
    }
    // Ctrl+Z: the latest what-if not kept, in whichever cell it was made;
    // with none, the document's last edit.
    property int cellsRevision: 0
    Connections {
        target: lessonSession
        function onOpened() { ++window.cellsRevision }
    }
    function whatIfToUndo(): var {
        window.cellsRevision // new cell objects after every rebuild
        let latest = null
        for (let row = 0; row < lessonSession.cells.count; ++row) {
            const cell = lessonSession.cells.data(lessonSession.cells.index(row, 0), CellListModel.CellObjectRole)
            if (cell && cell.canUndoWhatIf === true && (!latest || cell.whatIfStamp > latest.whatIfStamp))
                latest = cell
        }
        return latest
    }
    readonly property var undoableWhatIf: whatIfToUndo()
    readonly property bool canUndo: undoableWhatIf !== null || lessonSession.editor.canUndo
    function undo() {
        const cell = window.whatIfToUndo()
        if (cell)
            cell.undoWhatIf()
        else if (lessonSession.editor.canUndo)
            lessonSession.editor.undo()
    }
    Action {
        id: undoAction
        text: window.undoableWhatIf ? qsTr("&Undo your change to %1").arg(window.undoableWhatIf.cellId)
              : lessonSession.editor.canUndo ? qsTr("&Undo %1").arg(lessonSession.editor.undoText) : qsTr("&Undo")
        shortcut: StandardKey.Undo // qmllint disable unqualified
        enabled: window.canUndo
        onTriggered: window.undo()
    }
    Action {
        id: redoAction
        text: lessonSession.editor.canRedo ? qsTr("&Redo %1").arg(lessonSession.editor.redoText) : qsTr("&Redo")
        shortcut: "Ctrl+Shift+Z"
        enabled: lessonSession.editor.canRedo
        onTriggered: lessonSession.editor.redo()
    }

    Action {
        id: openAction
        text: qsTr("&Open…")
        shortcut: StandardKey.Open // qmllint disable unqualified
        onTriggered: openDialog.open()
    }
    Action {
        id: quitAction
        text: qsTr("&Quit")
        shortcut: StandardKey.Quit // qmllint disable unqualified
        onTriggered: window.close()
    }

    // File → Export: the lesson PDF, a worksheet with its key, or a bundle.
    ExportDialog {
        id: exportDialog
        session: lessonSession
    }
    Action {
        id: exportAction
        text: qsTr("&Export…")
        shortcut: "Ctrl+Shift+E"
        enabled: lessonSession.loaded && !exportDialog.visible
        onTriggered: exportDialog.open()
    }
    // File → Print… (Ctrl+P): the lesson PDF, rendered by the export route at the paper the
    // system print dialog chose, page for page (LessonPrinter).
    LessonPrinter {
        id: lessonPrinter
        session: lessonSession
    }
    Action {
        id: printAction
        objectName: "printAction"
        text: qsTr("&Print…")
        shortcut: StandardKey.Print // qmllint disable unqualified
        enabled: lessonSession.loaded && !exportDialog.visible
        onTriggered: printSoon.start()
    }
    // The system print dialog runs its own event loop: opened from the next turn of this one,
    // after the menu that asked for it has closed.
    Timer {
        id: printSoon
        interval: 0
        onTriggered: {
            if (!lessonPrinter.printLesson())
                window.edited(lessonPrinter.error)
        }
    }

    Action {
        id: editLessonAction
        objectName: "editLessonAction"
        text: qsTr("&Edit lesson")
        shortcut: "Ctrl+E"
        checkable: true
        onToggled: window.editingLesson = checked
    }
    Binding {
        target: editLessonAction
        property: "checked"
        value: window.editingLesson
    }

    Action {
        id: zoomInAction
        text: qsTr("Zoom &in")
        shortcut: StandardKey.ZoomIn // qmllint disable unqualified
        enabled: window.zoom < window.zoomSteps[window.zoomSteps.length - 1]
        onTriggered: window.zoomBy(1)
    }
    // Ctrl+= too: plus is a shifted key on many keyboards.
    Shortcut { sequence: "Ctrl+="; enabled: zoomInAction.enabled; onActivated: window.zoomBy(1) }
    Action {
        id: zoomOutAction
        text: qsTr("Zoom &out")
        shortcut: StandardKey.ZoomOut // qmllint disable unqualified
        enabled: window.zoom > window.zoomSteps[0]
        onTriggered: window.zoomBy(-1)
    }
    Action {
        id: zoomResetAction
        text: qsTr("&Actual size")
        shortcut: "Ctrl+0"
        enabled: window.zoom !== 1.0
        onTriggered: window.zoom = 1.0
    }
    Action {
        id: presentAction
        text: qsTr("&Present full screen (F11)")
        checkable: true
        onToggled: window.present(checked)
    }
    // F11 as a Shortcut of its own: as the Action's shortcut, Qt 6.4 let it go unanswered
    // once the row tools had been shown.
    Shortcut {
        sequence: "F11"
        enabled: !window.shotMode
        onActivated: window.present(!window.presenting)
    }
    Binding {
        target: presentAction
        property: "checked"
        value: window.presenting
    }
    Shortcut {
        sequence: "Esc"
        enabled: window.presenting
        onActivated: window.present(false)
    }

    Action {
        id: findAction
        text: qsTr("&Find…")
        shortcut: StandardKey.Find // qmllint disable unqualified
        enabled: lessonSession.loaded
        onTriggered: findBar.open()
    }
    Shortcut {
        sequences: [StandardKey.FindNext] // qmllint disable unqualified
        enabled: findBar.visible
        onActivated: lessonSearch.next()
    }
    Shortcut {
        sequences: [StandardKey.FindPrevious] // qmllint disable unqualified
        enabled: findBar.visible
        onActivated: lessonSearch.previous()
    }

    // Help → Guide: the guide is a lesson of its own, opened in a window of
    // its own, so that the lesson being taught stays where it is.
    property bool ownWindow: false
    function openGuide() {
        const component = Qt.createComponent("qrc:/qt/qml/Attnbook/Main.qml")
        const guide = component.createObject(null, {
            initialPath: "qrc:/documents/guide.md",
            themeName: window.themeName,
            ownWindow: true
        })
        if (guide)
            // qmllint disable type
            guide.show()
            // qmllint enable type
        return guide
    }
    ThemedDialog {
        id: aboutDialog
        objectName: "aboutDialog"
        title: qsTr("About attnbook")
        standardButtons: Dialog.Close
        ColumnLayout {
            spacing: 8
            Text {
                text: qsTr("attnbook %1").arg(AppInfo.version)
                objectName: "aboutVersion"
                color: Theme.text
                font.pixelSize: 20
                font.bold: true
            }
            Text {
                text: qsTr("A notebook of live lessons about the attention mechanism of transformers.")
                color: Theme.text
                wrapMode: Text.WordWrap
                Layout.maximumWidth: 420
            }
            Text {
                text: qsTr("Built with Qt %1.").arg(AppInfo.qtVersion)
                color: Theme.mutedText
            }
        }
    }

    menuBar: MenuBar {
        visible: !window.shotMode && !window.presenting
        ThemedMenu {
            title: qsTr("&File")
            MenuItem { action: newAction }
            MenuItem { action: openAction }
            ThemedMenu {
                id: recentMenu
                title: qsTr("Open &Recent")
                enabled: recent.files.length > 0
                Instantiator {
                    model: recent.files
                    delegate: MenuItem {
                        required property string modelData
                        text: modelData
                        onTriggered: window.openLesson(modelData)
                    }
                    onObjectAdded: (index, object) => recentMenu.insertItem(index, object)
                    onObjectRemoved: (index, object) => recentMenu.removeItem(object)
                }
                MenuSeparator {}
                MenuItem {
                    text: qsTr("Clear the list")
                    onTriggered: recent.clear()
                }
            }
            MenuItem {
                text: qsTr("Open the &bundled lesson")
                onTriggered: window.openLesson("")
            }
            MenuSeparator {}
            MenuItem { action: saveAction }
            MenuItem { action: saveAsAction }
            MenuSeparator {}
            MenuItem {
                objectName: "exportMenuItem"
                action: exportAction
            }
            MenuItem {
                objectName: "printMenuItem"
                action: printAction
            }
            MenuSeparator {}
            MenuItem { action: quitAction }
        }
        ThemedMenu {
            title: qsTr("&Edit")
            MenuItem { objectName: "undoMenuItem"; action: undoAction }
            MenuItem { objectName: "redoMenuItem"; action: redoAction }
            MenuSeparator {}
            MenuItem { action: findAction }
            MenuSeparator {}
            // The cell items act on the row last clicked, else the one at the top;
            // only in authoring mode.
            MenuItem { action: editLessonAction }
            MenuItem {
                text: qsTr("&Edit this row")
                enabled: window.editingLesson && lessonView.targetRow >= 0
                onTriggered: lessonView.editRow(lessonView.targetRow)
            }
            ThemedMenu {
                title: qsTr("&Insert below")
                enabled: window.editingLesson && lessonSession.loaded
                MenuItem { text: qsTr("&Prose"); onTriggered: window.edited(lessonSession.editor.insertBelow(lessonView.targetRow, "prose")) }
                MenuItem { text: qsTr("&Attention cell"); onTriggered: window.edited(lessonSession.editor.insertBelow(lessonView.targetRow, "attention")) }
                MenuItem { text: qsTr("&Quiz"); onTriggered: window.edited(lessonSession.editor.insertBelow(lessonView.targetRow, "quiz")) }
            }
            MenuItem {
                text: qsTr("&Duplicate cell")
                enabled: window.editingLesson && window.targetCell.length > 0
                onTriggered: window.edited(lessonSession.editor.duplicate(window.targetCell))
            }
            MenuItem {
                text: qsTr("Move cell &up")
                enabled: window.editingLesson && window.targetCell.length > 0
                onTriggered: window.edited(lessonSession.editor.move(window.targetCell, -1))
            }
            MenuItem {
                text: qsTr("Move cell do&wn")
                enabled: window.editingLesson && window.targetCell.length > 0
                onTriggered: window.edited(lessonSession.editor.move(window.targetCell, 1))
            }
            MenuItem {
                text: qsTr("Re&name cell…")
                enabled: window.editingLesson && window.targetCell.length > 0
                onTriggered: lessonView.renameCell(window.targetCell)
            }
            MenuItem {
                text: qsTr("De&lete cell")
                enabled: window.editingLesson && window.targetCell.length > 0
                onTriggered: window.edited(lessonSession.editor.remove(window.targetCell))
            }
        }
        ThemedMenu {
            title: qsTr("&View")
            MenuItem { objectName: "editLessonMenuItem"; action: editLessonAction }
            MenuItem {
                text: qsTr("&Outline")
                checkable: true
                checked: window.outlineShown
                onTriggered: window.outlineShown = checked
            }
            MenuSeparator {}
            MenuItem { objectName: "zoomInMenuItem"; action: zoomInAction }
            MenuItem { action: zoomOutAction }
            MenuItem {
                action: zoomResetAction
                text: qsTr("&Actual size (now %1 %)").arg(Math.round(window.zoom * 100))
            }
            MenuItem { action: presentAction }
            MenuSeparator {}
            Repeater {
                model: [["system", qsTr("Theme: follow the &system")], ["light", qsTr("Theme: &light")],
                        ["dark", qsTr("Theme: &dark")]]
                delegate: MenuItem {
                    required property var modelData
                    text: modelData[1]
                    checkable: true
                    checked: window.themeName === modelData[0]
                    onTriggered: window.themeName = modelData[0]
                }
            }
        }
        ThemedMenu {
            title: qsTr("&Help")
            MenuItem {
                objectName: "guideMenuItem"
                action: Action {
                    text: qsTr("&Guide")
                    shortcut: StandardKey.HelpContents // qmllint disable unqualified
                    onTriggered: window.openGuide()
                }
            }
            ThemedMenu {
                id: examplesMenu
                objectName: "examplesMenu"
                title: qsTr("&Examples")
                // The lessons built into attnbook, each opened in place of the current one.
                Instantiator {
                    model: [
                        { title: qsTr("Attention, the full lesson"), path: "qrc:/documents/attention.md" },
                        { title: qsTr("Attention and transformers, the short lesson"), path: "qrc:/documents/transformers.md" },
                        { title: qsTr("A transformer, taken apart"), path: "qrc:/documents/transformer.md" }
                    ]
                    delegate: MenuItem {
                        required property var modelData
                        objectName: "example_" + modelData.path.split("/").pop()
                        text: modelData.title
                        onTriggered: window.openLesson(modelData.path)
                    }
                    onObjectAdded: (index, object) => examplesMenu.insertItem(index, object)
                    onObjectRemoved: (index, object) => examplesMenu.removeItem(object)
                }
            }
            MenuItem {
                text: qsTr("&About attnbook")
                onTriggered: aboutDialog.open()
            }
        }
    }

    property bool outlineShown: true
    header: Rectangle {
        implicitHeight: 46
        color: Theme.surface
        visible: window.shotCell.length === 0 && !window.presenting
        Rectangle {
            anchors.bottom: parent.bottom
            width: parent.width
            height: 1
            color: Theme.border
        }
        RowLayout {
            anchors.fill: parent
            anchors.leftMargin: 16
            anchors.rightMargin: 16
            spacing: 10
            Text {
                objectName: "headerTitle"
                text: lessonSession.title
                color: Theme.text
                font.pixelSize: Theme.chromeTitleSize
                font.bold: true
                elide: Text.ElideRight
                Layout.maximumWidth: parent.width * 0.5
            }
            Text {
                // A lesson built into attnbook (the default lesson, Help → Guide) has a Qt
                // resource path (":/documents/guide.md"), which means nothing to a reader.
                text: lessonSession.bundled || lessonSession.filePath.startsWith(":")
                      ? qsTr("%1 (built into attnbook)").arg(lessonSession.fileName)
                      : lessonSession.filePath
                color: Theme.mutedText
                font.pixelSize: Theme.chromeSize
                elide: Text.ElideMiddle
                Layout.fillWidth: true
            }
            Text {
                visible: lessonSession.unsavedChanges
                text: qsTr("unsaved changes")
                color: Theme.accent
                font.pixelSize: Theme.chromeSize
                font.italic: true
            }
            Button {
                objectName: "editLessonButton"
                action: editLessonAction
                visible: !window.shotMode
                highlighted: checked
                ToolTip.visible: hovered
                ToolTip.delay: 500
                ToolTip.text: checked ? qsTr("Back to reading the lesson as students see it (Ctrl+E)")
                                      : qsTr("Show the tools to edit, insert and move rows (Ctrl+E)")
                Accessible.name: qsTr("Edit lesson")
            }
            Button {
                objectName: "saveButton"
                text: qsTr("Save")
                visible: lessonSession.unsavedChanges || !lessonSession.hasFile
                onClicked: window.save()
                ToolTip.visible: hovered
                ToolTip.delay: 500
                ToolTip.text: lessonSession.hasFile ? qsTr("Save the lesson (Ctrl+S)")
                                                    : qsTr("Choose where to save this lesson (Ctrl+S)")
                Accessible.name: qsTr("Save the lesson")
            }
            Button {
                readonly property int errors: lessonSession.problems.errorCount
                readonly property int warnings: lessonSession.problems.warningCount
                text: errors === 1 ? qsTr("1 error")
                      : errors > 1 ? qsTr("%1 errors").arg(errors)
                      : warnings === 1 ? qsTr("1 warning") : qsTr("%1 warnings").arg(warnings)
                visible: lessonSession.problems.count > 0
                onClicked: lessonView.contentY = 0
                ToolTip.visible: hovered
                ToolTip.delay: 500
                ToolTip.text: qsTr("Show the list of problems at the top of the lesson")
                Accessible.name: text
            }
            Button {
                text: qsTr("Open…")
                onClicked: openDialog.open()
                ToolTip.visible: hovered
                ToolTip.delay: 500
                ToolTip.text: qsTr("Open a lesson or a bundle (Ctrl+O)")
                Accessible.name: qsTr("Open a lesson")
            }
        }
    }

    ColumnLayout {
      anchors.fill: parent
      spacing: 0
      FindBar {
        id: findBar
        Layout.fillWidth: true
        search: lessonSearch
        fromRow: Math.max(0, lessonView.currentRow)
        onClosed: lessonView.forceActiveFocus()
      }
      FileBanners {
        id: fileBanners
        visible: !window.shotMode && !window.presenting
        Layout.fillWidth: true
        Layout.fillHeight: false
        session: lessonSession
        onSaveAs: window.saveAs()
        onShowProblems: lessonView.contentY = 0 // the list of problems heads the lesson
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
            currentHeading: lessonSession.outline.headingOfRow(lessonView.currentRow)
            // Wider as the lesson zooms, so that its entries keep their words (at most 40 %).
            SplitView.preferredWidth: Math.min(Theme.scaled(270), window.width * 0.4)
            SplitView.minimumWidth: 160
            onShow: row => lessonView.showRow(row)
        }
        LessonView {
            id: lessonView
            objectName: "lessonView"
            session: lessonSession
            onlyCell: window.shotCell
            authoring: window.editingLesson && !window.shotMode && !window.presenting
            scrollBarShown: !window.shotMode
            SplitView.fillWidth: true
            focus: true
            onRefused: message => window.edited(message)
        }
      }
    }

    // Entering full screen says how to leave it, then fades.
    Rectangle {
        id: presentingHint
        objectName: "presentingHint"
        function show() { opacity = 1; hintTimer.restart() }
        parent: Overlay.overlay
        x: parent ? (parent.width - width) / 2 : 0
        y: 24
        width: hintText.implicitWidth + 32
        height: hintText.implicitHeight + 16
        radius: height / 2
        color: Theme.dark ? "#e4e6ea" : "#1d2126"
        opacity: 0
        visible: opacity > 0
        Behavior on opacity { NumberAnimation { duration: 400 } }
        Text {
            id: hintText
            anchors.centerIn: parent
            text: qsTr("Presenting: Esc or F11 leaves full screen · Ctrl+plus and Ctrl+minus zoom")
            color: Theme.dark ? "#1d2126" : "#ffffff"
            font.pixelSize: 15
        }
        Timer { id: hintTimer; interval: 2500; onTriggered: presentingHint.opacity = 0 }
    }
}
