import QtQuick
import QtQuick.Layouts
import QtQuick.Controls
import Attnbook
import Attnbook.Window

// Help → About attnbook: the version, the Qt it was built with and what draws the window.
ThemedDialog {
    objectName: "aboutDialog"
    title: qsTr("About attnbook")
    standardButtons: Dialog.Close
    ColumnLayout {
        spacing: 8
        Text {
            textFormat: Text.PlainText
            text: qsTr("attnbook %1").arg(AppInfo.version)
            objectName: "aboutVersion"
            color: Theme.text
            font.pixelSize: 20
            font.bold: true
        }
        Text {
            textFormat: Text.PlainText
            text: qsTr("A notebook of live lessons about the attention mechanism of transformers.")
            color: Theme.text
            wrapMode: Text.WordWrap
            Layout.maximumWidth: 420
        }
        Text {
            textFormat: Text.PlainText
            text: qsTr("Built with Qt %1.").arg(AppInfo.qtVersion)
            color: Theme.mutedText
        }
        Text {
            textFormat: Text.PlainText
            visible: text.length > 0
            objectName: "aboutRenderer"
            text: AppInfo.renderer
            color: Theme.mutedText
            wrapMode: Text.WordWrap
            Layout.maximumWidth: 420
        }
    }
}
