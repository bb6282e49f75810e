import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Attnbook

// A coding challenge's sample answer (core/document/sample_answers.h), folded: a student tries
// the challenge first, then opens it.
ColumnLayout {
    id: answer
    required property int row
    required property string markdown
    property bool open: false
    spacing: 8

    Button {
        objectName: "showAnswer_" + answer.row
        text: answer.open ? qsTr("Hide the sample answer") : qsTr("Show a sample answer")
        Accessible.name: text
        onClicked: answer.open = !answer.open
    }
    ProseBlock {
        objectName: "prose_" + answer.row
        visible: answer.open
        markdown: answer.markdown
        Layout.fillWidth: true
    }
}
