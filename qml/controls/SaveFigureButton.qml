import QtQuick
import QtQuick.Controls
import Attnbook
import Attnbook.Models
import Attnbook.Window

// "Save figure…": asks where, then `save(path)` draws the figure there as
// SVG (vector) or PNG, by the name's ending; a refusal shows beside it.
Row {
    id: root
    // What the figure is called in the dialog and the offered file name.
    property string what: qsTr("figure")
    property string suggestedName: "figure.svg"
    // Draws the figure into `path`; returns "" or why not.
    property var save: path => qsTr("nothing to save")
    property string message: ""
    property bool failed: false
    spacing: 8

    ToolButton {
        objectName: "saveFigure"
        text: qsTr("Save figure…")
        font.pixelSize: Theme.smallSize
        onClicked: {
            // The system's save dialog, in the lesson's folder; the filter sets the format.
            const path = SaveDialog.ask(qsTr("Save the %1").arg(root.what), "", root.suggestedName,
                                        [qsTr("SVG, vector (*.svg)"), qsTr("PNG image (*.png)")],
                                        ["svg", "png"])
            if (path.length > 0)
                root.saveTo(path)
        }
        ToolTip.visible: hovered
        ToolTip.delay: 500
        ToolTip.text: qsTr("Save the %1 as SVG (sharp at any size) or PNG, for slides").arg(root.what)
        Accessible.name: qsTr("Save the %1 as a file").arg(root.what)
    }
    Text {
        textFormat: Text.PlainText
        visible: root.message.length > 0
        anchors.verticalCenter: parent.verticalCenter
        text: root.message
        color: root.failed ? Theme.bad : Theme.good
        font.pixelSize: Theme.smallSize
    }
    function saveTo(path: string) {
        const refusal = root.save(path) // qmllint disable
        root.failed = refusal.length > 0
        root.message = root.failed ? refusal
                                   : qsTr("Saved %1").arg(decodeURIComponent(path.replace(/^.*\//, "")))
    }
}
