pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import Attnbook
import Attnbook.Models
import Attnbook.Window

// The File menu's work: a new lesson, open, save, save as, export, print and quit. Whatever
// would lose unsaved changes asks first (Save, Discard, Cancel); `attnbook shot` never asks and
// adds no recent file.
Item {
    id: files
    required property LessonSession session
    property bool shotMode: false
    // The lessons opened last (File → Open Recent).
    readonly property RecentFiles recent: recentFiles
    readonly property alias exportDialog: exportDialog
    readonly property alias newAction: newAction
    readonly property alias openAction: openAction
    readonly property alias saveAction: saveAction
    readonly property alias saveAsAction: saveAsAction
    readonly property alias exportAction: exportAction
    readonly property alias printAction: printAction
    readonly property alias quitAction: quitAction
    // Closing the window would lose changes: ask first.
    readonly property bool mustAskBeforeClosing: session.unsavedChanges && !shotMode

    // Another lesson is in the window (opened, or a new one): the window shows its top.
    signal lessonReplaced()
    // A new lesson was started: it is there to be written.
    signal newLessonStarted()
    // Something asked for could not be done (printing): the message, for the window to show.
    signal refused(string message)
    signal quitRequested()

    RecentFiles { id: recentFiles }

    // `then` runs now, or once the unsaved changes are saved or discarded (not on Cancel).
    function whenSaved(then) {
        if (files.mustAskBeforeClosing)
            unsavedDialog.ask(then)
        else
            then()
    }
    // Save: through the lesson's file, or Save As when it has none yet.
    // `then` runs once the lesson is saved.
    function save(then) {
        if (!files.session.hasFile) {
            files.saveAs(then)
            return
        }
        if (files.session.saver.save() && then)
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
        onTriggered: files.askWhereToSave(saveAsSoon.then)
    }
    function askWhereToSave(then) {
        const path = SaveDialog.ask(qsTr("Save the lesson as"), files.session.filePath,
                                    files.session.fileName.length > 0 ? files.session.fileName
                                                                      : "lesson.md",
                                    [qsTr("Lessons (*.md)")], ["md"])
        if (path.length === 0)
            return
        // A lesson that reads data files, saved in another folder: ask whether to copy them.
        const leftBehind = files.session.saver.dataFilesLeftBehind(path)
        if (leftBehind.length > 0) {
            dataFilesDialog.ask(path, leftBehind, then)
            return
        }
        files.finishSaveAs(files.session.saver.saveAs(path), then)
    }
    function finishSaveAs(saved: bool, then: var) {
        if (!saved)
            return
        recentFiles.add(files.session.filePath)
        if (then)
            then()
    }
    function newLesson() {
        files.whenSaved(() => {
            files.newLessonStarted()
            files.session.newLesson()
            files.lessonReplaced()
        })
    }
    function openLesson(path: string) {
        files.whenSaved(() => files.openNow(path))
    }
    function openNow(path: string) {
        files.session.open(path)
        // Only a file that was read, and never from `attnbook shot` (scripts, CI).
        if (!files.shotMode && files.session.saver.hasFile)
            recentFiles.add(files.session.filePath)
        files.lessonReplaced()
    }

    // Open: asked in the same dialog as Save As (OpenDialog), once the menu that chose it has
    // closed; a path typed in its name field is the file opened.
    function askWhatToOpen() {
        const path = OpenDialog.ask(qsTr("Open a lesson"), files.session.filePath,
                                    [qsTr("Lessons and bundles (*.md *.zip)"), qsTr("All files (*)")])
        if (path.length > 0)
            files.openLesson(path)
    }
    Timer {
        id: openSoon
        interval: 0
        onTriggered: files.askWhatToOpen()
    }
    DataFilesDialog {
        id: dataFilesDialog
        onCopyChosen: (path, then) => files.finishSaveAs(files.session.saver.saveAsWithDataFiles(path), then)
        onAloneChosen: (path, then) => files.finishSaveAs(files.session.saver.saveAs(path), then)
        onBundleChosen: {
            exportDialog.controller.kind = ExportController.Bundle
            exportDialog.open()
        }
    }
    UnsavedDialog {
        id: unsavedDialog
        fileName: files.session.fileName
        onSaveRequested: files.save(() => unsavedDialog.proceed())
        onChangesDiscarded: files.session.saver.discardChanges()
    }

    Action {
        id: newAction
        text: qsTr("&New lesson")
        shortcut: StandardKey.New // qmllint disable unqualified
        onTriggered: files.newLesson()
    }
    Action {
        id: openAction
        text: qsTr("&Open…")
        shortcut: StandardKey.Open // qmllint disable unqualified
        onTriggered: openSoon.restart()
    }
    Action {
        id: saveAction
        text: qsTr("&Save")
        shortcut: StandardKey.Save // qmllint disable unqualified
        enabled: files.session.loaded
        onTriggered: files.save()
    }
    Action {
        id: saveAsAction
        text: qsTr("Save &As…")
        shortcut: "Ctrl+Shift+S"
        enabled: files.session.loaded
        onTriggered: files.saveAs()
    }
    Action {
        id: quitAction
        text: qsTr("&Quit")
        shortcut: StandardKey.Quit // qmllint disable unqualified
        onTriggered: files.quitRequested()
    }

    // File → Export: the lesson PDF, a worksheet with its key, a bundle, a notebook, a web page.
    ExportDialog {
        id: exportDialog
        session: files.session
    }
    Action {
        id: exportAction
        text: qsTr("&Export…")
        shortcut: "Ctrl+Shift+E"
        enabled: files.session.loaded && !exportDialog.visible
        onTriggered: exportDialog.open()
    }
    // File → Print… (Ctrl+P): the lesson PDF, rendered by the export route at the paper the
    // system print dialog chose, page for page (LessonPrinter).
    LessonPrinter {
        id: lessonPrinter
        session: files.session
    }
    Action {
        id: printAction
        objectName: "printAction"
        text: qsTr("&Print…")
        shortcut: StandardKey.Print // qmllint disable unqualified
        enabled: files.session.loaded && !exportDialog.visible
        onTriggered: printSoon.start()
    }
    // The system print dialog runs its own event loop: opened from the next turn of this one,
    // after the menu that asked for it has closed.
    Timer {
        id: printSoon
        interval: 0
        onTriggered: {
            if (!lessonPrinter.printLesson())
                files.refused(lessonPrinter.error)
        }
    }
}
