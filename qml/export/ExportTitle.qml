import QtQuick
import QtQuick.Layouts
import Attnbook
import Attnbook.Models

// The export dialog's header: which lesson is exported, from which file, and whether with the
// changes kept so far.
Rectangle {
    id: title
    required property LessonSession session
    implicitHeight: 54
    color: Theme.surface
    Rectangle { anchors.bottom: parent.bottom; width: parent.width; height: 1; color: Theme.border }
    ColumnLayout {
        anchors.fill: parent
        anchors.leftMargin: 18
        anchors.rightMargin: 18
        spacing: 1
        Text {
            textFormat: Text.PlainText
            text: qsTr("Export “%1”").arg(title.session ? title.session.title : "")
            color: Theme.text
            font.pixelSize: 16
            font.bold: true
            elide: Text.ElideRight
            Layout.fillWidth: true
            Layout.topMargin: 8
            Accessible.role: Accessible.Heading
        }
        Text {
            textFormat: Text.PlainText
            text: !title.session ? ""
                  : qsTr("From %1%2").arg(title.session.fileName)
                    .arg(title.session.unsavedChanges ? qsTr(", with the changes kept so far") : "")
            color: Theme.mutedText
            font.pixelSize: Theme.smallSize
            elide: Text.ElideMiddle
            Layout.fillWidth: true
            Layout.bottomMargin: 8
        }
    }
}
