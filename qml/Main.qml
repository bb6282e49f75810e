pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import QtQuick.Dialogs
import Attnbook
import Attnbook.Models
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
    // The edit tools above each row (View → Authoring tools).
    property bool authoringTools: true
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
        value: window.themeName === "dark" || (window.themeName === "system" && window.systemIsDark)
    }

    // Fusion draws the controls from the palette: follow the theme.
    palette.window: Theme.page
    palette.windowText: Theme.text
    palette.base: Theme.surface
    palette.alternateBase: Theme.surfaceAlt
    palette.text: Theme.text
    palette.button: Theme.dark ? "#33373e" : "#f0f1f3"
    palette.buttonText: Theme.text
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

    // The open lesson (also read by `attnbook shot` for its errors).
    readonly property LessonSession session: lessonSession
    LessonSession { id: lessonSession }
    RecentFiles { id: recent }

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
    property var afterSave: null
    function save(then) {
        if (!lessonSession.hasFile) {
            window.afterSave = then || null
            saveAsDialog.open()
            return
        }
        if (lessonSession.saver.save() && then)
            then()
    }
    function saveAs(then) {
        window.afterSave = then || null
        saveAsDialog.open()
    }
    property bool closeConfirmed: false
    onClosing: close => {
        if (!window.closeConfirmed && lessonSession.unsavedChanges && !window.shotMode) {
            close.accepted = false
            unsavedDialog.ask(() => { window.closeConfirmed = true; window.close() })
        }
    }
    function newLesson() {
        whenSaved(() => {
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

    Component.onCompleted: openLesson(initialPath)

    FileDialog {
        id: openDialog
        title: qsTr("Open a lesson")
        nameFilters: [qsTr("Lessons and bundles (*.md *.zip)"), qsTr("All files (*)")]
        onAccepted: window.openLesson(String(selectedFile))
    }
    FileDialog {
        id: saveAsDialog
        title: qsTr("Save the lesson as")
        fileMode: FileDialog.SaveFile
        acceptLabel: qsTr("Save")
        defaultSuffix: "md"
        nameFilters: [qsTr("Lessons (*.md)"), qsTr("All files (*)")]
        onAccepted: {
            if (lessonSession.saver.saveAs(String(selectedFile))) {
                recent.add(lessonSession.filePath)
                const then = window.afterSave
                window.afterSave = null
                if (then)
                    then()
            }
        }
        onRejected: window.afterSave = null
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
    Action {
        id: undoAction
        text: lessonSession.editor.canUndo ? qsTr("&Undo %1").arg(lessonSession.editor.undoText) : qsTr("&Undo")
        shortcut: StandardKey.Undo // qmllint disable unqualified
        enabled: lessonSession.editor.canUndo
        onTriggered: lessonSession.editor.undo()
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
        shortcut: "Ctrl+E"
        enabled: lessonSession.loaded && !exportDialog.visible
        onTriggered: exportDialog.open()
    }

    menuBar: MenuBar {
        visible: !window.shotMode
        Menu {
            title: qsTr("&File")
            MenuItem { action: newAction }
            MenuItem { action: openAction }
            Menu {
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
            MenuSeparator {}
            MenuItem { action: quitAction }
        }
        Menu {
            title: qsTr("&Edit")
            MenuItem { objectName: "undoMenuItem"; action: undoAction }
            MenuItem { objectName: "redoMenuItem"; action: redoAction }
            MenuSeparator {}
            // The cell items act on the row last clicked, else the one at the top.
            MenuItem {
                text: qsTr("&Edit this row")
                enabled: lessonView.targetRow >= 0
                onTriggered: lessonView.editRow(lessonView.targetRow)
            }
            Menu {
                title: qsTr("&Insert below")
                enabled: lessonSession.loaded
                MenuItem { text: qsTr("&Prose"); onTriggered: window.edited(lessonSession.editor.insertBelow(lessonView.targetRow, "prose")) }
                MenuItem { text: qsTr("&Attention cell"); onTriggered: window.edited(lessonSession.editor.insertBelow(lessonView.targetRow, "attention")) }
                MenuItem { text: qsTr("&Quiz"); onTriggered: window.edited(lessonSession.editor.insertBelow(lessonView.targetRow, "quiz")) }
            }
            MenuItem {
                text: qsTr("&Duplicate cell")
                enabled: window.targetCell.length > 0
                onTriggered: window.edited(lessonSession.editor.duplicate(window.targetCell))
            }
            MenuItem {
                text: qsTr("Move cell &up")
                enabled: window.targetCell.length > 0
                onTriggered: window.edited(lessonSession.editor.move(window.targetCell, -1))
            }
            MenuItem {
                text: qsTr("Move cell do&wn")
                enabled: window.targetCell.length > 0
                onTriggered: window.edited(lessonSession.editor.move(window.targetCell, 1))
            }
            MenuItem {
                text: qsTr("Re&name cell…")
                enabled: window.targetCell.length > 0
                onTriggered: lessonView.renameCell(window.targetCell)
            }
            MenuItem {
                text: qsTr("De&lete cell")
                enabled: window.targetCell.length > 0
                onTriggered: window.edited(lessonSession.editor.remove(window.targetCell))
            }
        }
        Menu {
            title: qsTr("&View")
            MenuItem {
                text: qsTr("&Authoring tools")
                checkable: true
                checked: window.authoringTools
                onTriggered: window.authoringTools = checked
            }
            MenuItem {
                text: qsTr("&Outline")
                checkable: true
                checked: outlinePane.visible
                onTriggered: outlinePane.visible = checked
            }
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
    }

    header: Rectangle {
        implicitHeight: 46
        color: Theme.surface
        visible: window.shotCell.length === 0
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
                font.pixelSize: 17
                font.bold: true
                elide: Text.ElideRight
                Layout.maximumWidth: parent.width * 0.5
            }
            Text {
                text: lessonSession.bundled ? qsTr("%1 (bundled lesson)").arg(lessonSession.fileName) : lessonSession.filePath
                color: Theme.mutedText
                font.pixelSize: Theme.smallSize
                elide: Text.ElideMiddle
                Layout.fillWidth: true
            }
            Text {
                visible: lessonSession.unsavedChanges
                text: qsTr("unsaved changes")
                color: Theme.accent
                font.pixelSize: Theme.smallSize
                font.italic: true
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
                text: lessonSession.problems.errorCount > 0
                      ? qsTr("%1 error(s)").arg(lessonSession.problems.errorCount)
                      : qsTr("%1 warning(s)").arg(lessonSession.problems.warningCount)
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
      FileBanners {
        id: fileBanners
        visible: !window.shotMode
        Layout.fillWidth: true
        Layout.fillHeight: false
        session: lessonSession
        onSaveAs: window.saveAs()
      }
      SplitView {
        Layout.fillWidth: true
        Layout.fillHeight: true
        orientation: Qt.Horizontal

        OutlinePane {
            id: outlinePane
            outline: lessonSession.outline
            visible: window.shotCell.length === 0 && lessonSession.outline.count > 0
            currentHeading: lessonSession.outline.headingOfRow(lessonView.currentRow)
            SplitView.preferredWidth: 270
            SplitView.minimumWidth: 160
            onShow: row => lessonView.showRow(row)
        }
        LessonView {
            id: lessonView
            objectName: "lessonView"
            session: lessonSession
            onlyCell: window.shotCell
            authoring: window.authoringTools && !window.shotMode
            SplitView.fillWidth: true
            focus: true
            onRefused: message => window.edited(message)
        }
      }
    }
}
