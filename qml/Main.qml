pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import QtQuick.Dialogs
import Attnbook
import Attnbook.Models

// The notebook window: a menu, a header with the lesson's title and file,
// the outline of headings beside one scrolling column of cells.
ApplicationWindow {
    id: window

    // Set by the launcher: the lesson to open ("" for the bundled one), the
    // theme (system, light or dark) and, for `attnbook shot`, what to show.
    property string initialPath: ""
    property string themeName: "system"
    property bool shotMode: false
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

    LessonSession { id: lessonSession }
    RecentFiles { id: recent }

    function openLesson(path: string) {
        lessonSession.open(path)
        if (lessonSession.filePath.length > 0 && !lessonSession.bundled)
            recent.add(lessonSession.filePath)
        lessonView.contentY = 0
    }

    Component.onCompleted: openLesson(initialPath)

    FileDialog {
        id: openDialog
        title: qsTr("Open a lesson")
        nameFilters: [qsTr("Lessons and bundles (*.md *.zip)"), qsTr("All files (*)")]
        onAccepted: window.openLesson(selectedFile.toString())
    }

    Action {
        id: openAction
        text: qsTr("&Open…")
        shortcut: StandardKey.Open
        onTriggered: openDialog.open()
    }
    Action {
        id: quitAction
        text: qsTr("&Quit")
        shortcut: StandardKey.Quit
        onTriggered: Qt.quit()
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
            MenuItem {
                objectName: "exportMenuItem"
                action: exportAction
            }
            MenuSeparator {}
            MenuItem { action: quitAction }
        }
        Menu {
            title: qsTr("&View")
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

    SplitView {
        anchors.fill: parent
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
            SplitView.fillWidth: true
            focus: true
        }
    }
}
