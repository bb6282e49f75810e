import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Attnbook
import Attnbook.Models

// The file's news above the lesson: a failed save, a recovery copy after a
// crash, the file changed by another program, an edit that was refused.
ColumnLayout {
    id: banners
    required property LessonSession session
    property string notice: ""
    // Something done that is worth saying once (a file Keep wrote beside the lesson).
    property string news: ""
    signal saveAs()
    signal showProblems()

    readonly property DocumentSaver saver: session.saver
    spacing: 0

    Banner {
        objectName: "saveErrorBanner"
        visible: banners.saver.error.length > 0 && !banners.saver.changedOnDisk
        bad: true
        message: qsTr("Not saved: %1. Your changes are still here, unsaved.").arg(banners.saver.error)
        Button {
            text: qsTr("Save As…")
            onClicked: banners.saveAs()
            ToolTip.visible: hovered
            ToolTip.delay: 500
            ToolTip.text: qsTr("Save the lesson somewhere else")
            Accessible.name: qsTr("Save as another file")
        }
        Button {
            text: qsTr("Dismiss")
            onClicked: banners.saver.clearError()
            ToolTip.visible: hovered
            ToolTip.delay: 500
            ToolTip.text: qsTr("Hide this message")
            Accessible.name: qsTr("Dismiss the save error")
        }
    }
    Banner {
        objectName: "savedWithErrorsBanner"
        visible: banners.saver.savedWithErrors.length > 0
        bad: true
        message: banners.saver.savedWithErrors
        Button {
            text: qsTr("Show the problems")
            highlighted: true
            onClicked: banners.showProblems()
            Accessible.name: qsTr("Show the list of problems")
        }
        Button {
            text: qsTr("Dismiss")
            onClicked: banners.saver.clearSavedWithErrors()
            Accessible.name: qsTr("Dismiss this message")
        }
    }
    Banner {
        objectName: "recoveryBanner"
        visible: banners.saver.recoveryAvailable
        message: qsTr("attnbook kept a recovery copy of %1 with edits that were never saved (the window closed without saving). Restore it?")
                 .arg(banners.session.fileName)
        Button {
            objectName: "restoreRecovery"
            text: qsTr("Restore")
            highlighted: true
            onClicked: banners.saver.restoreRecovery()
            ToolTip.visible: hovered
            ToolTip.delay: 500
            ToolTip.text: qsTr("Put the recovered version in place, as an unsaved change (Undo goes back to the file)")
            Accessible.name: qsTr("Restore the recovered version")
        }
        Button {
            objectName: "discardRecovery"
            text: qsTr("Discard")
            onClicked: banners.saver.discardRecovery()
            ToolTip.visible: hovered
            ToolTip.delay: 500
            ToolTip.text: qsTr("Delete the recovery copy and keep the file as it is")
            Accessible.name: qsTr("Discard the recovered version")
        }
    }
    // Another lesson's unsaved edits, kept when a window closed without saving: offered
    // whatever lesson this window opened with (opening it offers the restore above).
    Banner {
        id: otherRecovery
        objectName: "otherRecoveryBanner"
        readonly property int count: banners.saver.otherRecoveries.length
        readonly property string lesson: count > 0 ? banners.saver.otherRecoveries[0] : ""
        visible: count > 0
        message: count === 1
                 ? qsTr("attnbook kept edits of %1 that were never saved (a window closed without saving). Open it to restore them?").arg(lesson)
                 : count === 2
                   ? qsTr("attnbook kept edits of %1 and of one other lesson that were never saved. Open %1 to restore them?").arg(lesson)
                   : qsTr("attnbook kept edits of %1 and of %2 other lessons that were never saved. Open %1 to restore them?").arg(lesson).arg(count - 1)
        Button {
            objectName: "openOtherRecovery"
            text: qsTr("Open it")
            highlighted: true
            onClicked: banners.session.open(otherRecovery.lesson)
            Accessible.name: qsTr("Open the lesson with unsaved edits")
        }
        Button {
            objectName: "dismissOtherRecovery"
            text: qsTr("Not now")
            onClicked: banners.saver.dismissOtherRecoveries()
            Accessible.name: qsTr("Not now: keep the copy and hide this message")
        }
    }
    Banner {
        objectName: "changedOnDiskBanner"
        visible: banners.saver.changedOnDisk
        message: banners.session.unsavedChanges
                 ? qsTr("%1 was changed by another program, and you have unsaved changes.").arg(banners.session.fileName)
                 : qsTr("%1 was changed by another program.").arg(banners.session.fileName)
        Button {
            text: qsTr("Reload")
            highlighted: !banners.session.unsavedChanges
            onClicked: banners.saver.reload()
            ToolTip.visible: hovered
            ToolTip.delay: 500
            ToolTip.text: banners.session.unsavedChanges ? qsTr("Read the file again: your unsaved changes are lost")
                                                         : qsTr("Read the file again")
            Accessible.name: qsTr("Reload the file")
        }
        Button {
            text: banners.session.unsavedChanges ? qsTr("Keep mine") : qsTr("Ignore")
            onClicked: banners.saver.keepMine()
            ToolTip.visible: hovered
            ToolTip.delay: 500
            ToolTip.text: qsTr("Keep this version: the next save overwrites the other program's")
            Accessible.name: qsTr("Keep my version")
        }
        Button {
            visible: banners.session.unsavedChanges
            text: qsTr("Save As…")
            onClicked: banners.saveAs()
            ToolTip.visible: hovered
            ToolTip.delay: 500
            ToolTip.text: qsTr("Save your version as another file")
            Accessible.name: qsTr("Save as another file")
        }
    }
    Banner {
        objectName: "editNotice"
        visible: banners.notice.length > 0
        bad: true
        message: banners.notice
        Button {
            text: qsTr("Dismiss")
            onClicked: banners.notice = ""
            ToolTip.visible: hovered
            ToolTip.delay: 500
            ToolTip.text: qsTr("Hide this message")
            Accessible.name: qsTr("Dismiss the message")
        }
    }
    Banner {
        objectName: "newsBanner"
        visible: banners.news.length > 0
        message: banners.news
        Button {
            text: qsTr("Dismiss")
            onClicked: banners.news = ""
            Accessible.name: qsTr("Dismiss the message")
        }
    }
}
