import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Attnbook
import Attnbook.Models

// The band under the menus: the lesson's title and file, "unsaved changes", the problems, and
// the buttons a teacher reaches for (Edit lesson, Save, Open). What comes and goes stands to the
// left of those buttons, so none of them moves under the pointer.
Rectangle {
    id: header
    required property LessonSession session
    required property Action editLessonAction
    property bool shotMode: false
    signal saveRequested()
    signal openRequested()
    signal problemsRequested()

    implicitHeight: 46
    color: Theme.surface
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
            textFormat: Text.PlainText
            objectName: "headerTitle"
            text: header.session.title
            color: Theme.text
            font.pixelSize: Theme.chromeTitleSize
            font.bold: true
            elide: Text.ElideRight
            Layout.maximumWidth: parent.width * 0.5
        }
        Text {
            textFormat: Text.PlainText
            // A lesson built into attnbook (the default lesson, Help → Guide) has a Qt
            // resource path (":/documents/guide.md"), which means nothing to a reader.
            text: header.session.bundled || header.session.filePath.startsWith(":")
                  ? qsTr("%1 (built into attnbook)").arg(header.session.fileName)
                  : header.session.filePath
            color: Theme.mutedText
            font.pixelSize: Theme.chromeSize
            elide: Text.ElideMiddle
            Layout.fillWidth: true
        }
        Text {
            textFormat: Text.PlainText
            visible: header.session.unsavedChanges
            text: qsTr("unsaved changes")
            color: Theme.accent
            font.pixelSize: Theme.chromeSize
            font.italic: true
        }
        Button {
            objectName: "problemsButton"
            readonly property int errors: header.session.problems.errorCount
            readonly property int warnings: header.session.problems.warningCount
            text: errors === 1 ? qsTr("1 error")
                  : errors > 1 ? qsTr("%1 errors").arg(errors)
                  : warnings === 1 ? qsTr("1 warning") : qsTr("%1 warnings").arg(warnings)
            visible: header.session.problems.count > 0
            onClicked: header.problemsRequested()
            ToolTip.visible: hovered
            ToolTip.delay: 500
            ToolTip.text: qsTr("Show the list of problems at the top of the lesson")
            Accessible.name: text
        }
        Button {
            objectName: "editLessonButton"
            action: header.editLessonAction
            visible: !header.shotMode
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
            // Always there (greyed when there is nothing to save): a Save that appeared after
            // Keep stood where Edit lesson had been, and the next click saved the file.
            enabled: header.session.unsavedChanges || !header.session.hasFile
            onClicked: header.saveRequested()
            ToolTip.visible: hovered
            ToolTip.delay: 500
            ToolTip.text: header.session.hasFile ? qsTr("Save the lesson (Ctrl+S)")
                                                 : qsTr("Choose where to save this lesson (Ctrl+S)")
            Accessible.name: qsTr("Save the lesson")
        }
        Button {
            text: qsTr("Open…")
            onClicked: header.openRequested()
            ToolTip.visible: hovered
            ToolTip.delay: 500
            ToolTip.text: qsTr("Open a lesson or a bundle (Ctrl+O)")
            Accessible.name: qsTr("Open a lesson")
        }
    }
}
