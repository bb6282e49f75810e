import QtQuick
import QtQuick.Controls
import QtQuick.Templates as T

// Tooltips get out of the way: one rule for every control's, set here on the
// one tooltip they all share (ToolTip's attached instance). A tooltip waits half a second, leaves
// after five and goes at the next press, so none stays over the question a student is answering.
// (Each control's ToolTip.delay and timeout are written onto the shared tooltip as it is shown: a
// shorter wait or none is raised to these.)
Item {
    id: rules
    // The window's content: a press anywhere in it hides the tooltip.
    required property Item pressArea
    readonly property int delay: 500
    readonly property int timeout: 5000
    // (Asked of an item made in QML: the window's own content item has no engine to ask.)
    readonly property T.ToolTip shared: rules.ToolTip.toolTip

    Component.onCompleted: {
        rules.shared.delay = rules.delay
        rules.shared.timeout = rules.timeout
        rules.shared.contentItem = plainTip
    }
    // A tip often names lesson words (a token, a cell): plain text, never markup. The shared
    // tooltip takes this text as its content.
    Text {
        id: plainTip
        text: rules.shared.text
        textFormat: Text.PlainText
        font: rules.shared.font
        wrapMode: Text.Wrap
        color: rules.shared.palette.toolTipText
    }
    Connections {
        target: rules.shared
        function onDelayChanged() {
            if (rules.shared.delay < rules.delay)
                rules.shared.delay = rules.delay
        }
        function onTimeoutChanged() {
            if (rules.shared.timeout < 0 || rules.shared.timeout > rules.timeout)
                rules.shared.timeout = rules.timeout
        }
        // The control pressed can be made again by its click (a row of choices from a new
        // list): the new one under the pointer would show the same tip at once.
        function onOpened() {
            if (pressedTip.running && rules.shared.text === pressedTip.text)
                rules.shared.hide()
        }
    }
    Timer {
        id: pressedTip
        property string text: ""
        interval: 1500
    }
    // Any press in the window hides it: the control pressed is in use, the tip in the way.
    // The area passes every press on to what is under it.
    MouseArea {
        objectName: "toolTipHider"
        parent: rules.pressArea
        anchors.fill: parent
        z: 1000
        acceptedButtons: Qt.AllButtons
        onPressed: mouse => {
            // Its text is set as soon as a control asks, before its delay is over.
            pressedTip.text = rules.shared.text
            pressedTip.restart()
            rules.shared.hide()
            mouse.accepted = false
        }
    }
}
