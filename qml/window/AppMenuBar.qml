pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import Attnbook
import Attnbook.Models

// The window's menus: File, Edit, View and Help. The actions are the window's parts' (FileActions,
// EditActions, ViewActions); the menu says where each is found.
MenuBar {
    id: bar
    required property LessonSession session
    required property FileActions files
    required property EditActions edits
    required property ViewActions views
    // The Edit menu's cell items act on the row last clicked, else the one at the top.
    required property LessonView lessonView
    property bool editingLesson: false
    property bool outlineShown: true
    property string themeName: "system"
    signal outlineChosen(bool shown)
    signal themeChosen(string name)
    signal guideRequested()
    signal aboutRequested()
    // An edit the Edit menu asked for was refused: the message, for the window to show.
    signal refused(string message)

    readonly property string targetCell: {
        const row = bar.lessonView.targetRow
        const cells = bar.session.cells
        return row >= 0 && row < cells.count ? cells.data(cells.index(row, 0), CellListModel.CellIdRole) || "" : ""
    }
    readonly property bool cellToolsEnabled: bar.editingLesson && bar.targetCell.length > 0

    ThemedMenu {
        title: qsTr("&File")
        MenuItem { action: bar.files.newAction }
        MenuItem { action: bar.files.openAction }
        ThemedMenu {
            id: recentMenu
            title: qsTr("Open &Recent")
            enabled: bar.files.recent.files.length > 0
            Instantiator {
                model: bar.files.recent.files
                delegate: PlainMenuItem {
                    required property string modelData
                    text: modelData
                    onTriggered: bar.files.openLesson(modelData)
                }
                onObjectAdded: (index, object) => recentMenu.insertItem(index, object)
                onObjectRemoved: (index, object) => recentMenu.removeItem(object)
            }
            MenuSeparator {}
            MenuItem {
                text: qsTr("Clear the list")
                onTriggered: bar.files.recent.clear()
            }
        }
        MenuItem {
            text: qsTr("Open the &bundled lesson")
            onTriggered: bar.files.openLesson("")
        }
        MenuSeparator {}
        MenuItem { action: bar.files.saveAction }
        MenuItem { action: bar.files.saveAsAction }
        MenuSeparator {}
        MenuItem {
            objectName: "exportMenuItem"
            action: bar.files.exportAction
        }
        MenuItem {
            objectName: "printMenuItem"
            action: bar.files.printAction
        }
        MenuSeparator {}
        MenuItem { action: bar.files.quitAction }
    }
    ThemedMenu {
        title: qsTr("&Edit")
        MenuItem { objectName: "undoMenuItem"; action: bar.edits.undoAction }
        MenuItem { objectName: "redoMenuItem"; action: bar.edits.redoAction }
        MenuSeparator {}
        MenuItem { action: bar.views.findAction }
        MenuSeparator {}
        // The cell items: only in authoring mode.
        MenuItem { action: bar.edits.editLessonAction }
        MenuItem {
            text: qsTr("&Edit this row")
            enabled: bar.editingLesson && bar.lessonView.targetRow >= 0
            onTriggered: bar.lessonView.editRow(bar.lessonView.targetRow)
        }
        ThemedMenu {
            title: qsTr("&Insert below")
            enabled: bar.editingLesson && bar.session.loaded
            MenuItem { text: qsTr("&Prose"); onTriggered: bar.insertBelow("prose") }
            MenuItem { text: qsTr("&Attention cell"); onTriggered: bar.insertBelow("attention") }
            MenuItem { text: qsTr("&Transformer cell"); onTriggered: bar.insertBelow("transformer") }
            MenuItem { text: qsTr("&Quiz"); onTriggered: bar.insertBelow("quiz") }
        }
        MenuItem {
            text: qsTr("&Duplicate cell")
            enabled: bar.cellToolsEnabled
            onTriggered: bar.refuseIfAny(bar.session.editor.duplicate(bar.targetCell))
        }
        MenuItem {
            text: qsTr("Move cell &up")
            enabled: bar.cellToolsEnabled
            onTriggered: bar.refuseIfAny(bar.session.editor.move(bar.targetCell, -1))
        }
        MenuItem {
            text: qsTr("Move cell do&wn")
            enabled: bar.cellToolsEnabled
            onTriggered: bar.refuseIfAny(bar.session.editor.move(bar.targetCell, 1))
        }
        MenuItem {
            text: qsTr("Re&name cell…")
            enabled: bar.cellToolsEnabled
            onTriggered: bar.lessonView.renameCell(bar.targetCell)
        }
        MenuItem {
            text: qsTr("De&lete cell")
            enabled: bar.cellToolsEnabled
            onTriggered: bar.refuseIfAny(bar.session.editor.remove(bar.targetCell))
        }
    }
    ThemedMenu {
        title: qsTr("&View")
        MenuItem { objectName: "editLessonMenuItem"; action: bar.edits.editLessonAction }
        MenuItem {
            text: qsTr("&Outline")
            checkable: true
            checked: bar.outlineShown
            onTriggered: bar.outlineChosen(checked)
        }
        MenuSeparator {}
        MenuItem { objectName: "zoomInMenuItem"; action: bar.views.zoomInAction }
        MenuItem { action: bar.views.zoomOutAction }
        MenuItem {
            action: bar.views.zoomResetAction
            text: qsTr("&Actual size (now %1 %)").arg(Math.round(bar.views.zoom * 100))
        }
        MenuItem { action: bar.views.presentAction }
        MenuSeparator {}
        Repeater {
            model: [["system", qsTr("Theme: follow the &system")], ["light", qsTr("Theme: &light")],
                    ["dark", qsTr("Theme: &dark")]]
            delegate: MenuItem {
                required property var modelData
                text: modelData[1]
                checkable: true
                checked: bar.themeName === modelData[0]
                onTriggered: bar.themeChosen(modelData[0])
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
                onTriggered: bar.guideRequested()
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
                    { title: qsTr("A transformer, taken apart"), path: "qrc:/documents/transformer.md" },
                    { title: qsTr("How training sets the grids"), path: "qrc:/documents/training.md" }
                ]
                delegate: MenuItem {
                    required property var modelData
                    objectName: "example_" + modelData.path.split("/").pop()
                    text: modelData.title
                    onTriggered: bar.files.openLesson(modelData.path)
                }
                onObjectAdded: (index, object) => examplesMenu.insertItem(index, object)
                onObjectRemoved: (index, object) => examplesMenu.removeItem(object)
            }
        }
        MenuItem {
            text: qsTr("&About attnbook")
            onTriggered: bar.aboutRequested()
        }
    }

    function insertBelow(kind: string) {
        bar.refuseIfAny(bar.session.editor.insertBelow(bar.lessonView.targetRow, kind))
    }
    function refuseIfAny(refusal: string) {
        if (refusal.length > 0)
            bar.refused(refusal)
    }
}
