pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Attnbook
import Attnbook.Models

// The sentence as chips: rename (from the vocab, or any name when the cell
// has an X matrix), remove, move with the arrows or by dragging, and add.
ColumnLayout {
    id: editor
    required property AttentionCellModel cell
    property string refusal: ""
    spacing: 6

    function report(reason: string) { editor.refusal = reason }
    // The index of the chip under (x, y) in the row of chips, other than
    // `dragged`; -1 when none. The others stay put while one is dragged.
    function chipAt(x: real, y: real, dragged: Item): int {
        for (let i = 0; i < chips.children.length; ++i) {
            const other = chips.children[i]
            if (other !== dragged && other.objectName.startsWith("token_")
                    && x >= other.x && x < other.x + other.width && y >= other.y && y < other.y + other.height)
                return Number(other.objectName.slice(6))
        }
        return -1
    }
    // Replacing a token: one list of the vocab's words for every chip, opened under the chip's
    // name (WordPicker makes only the rows in view, whatever the vocab's size).
    function pickWordFor(index: int, under: Item) {
        wordPicker.tokenIndex = index
        wordPicker.parent = under
        wordPicker.y = under.height
        wordPicker.open()
    }
    WordPicker {
        id: wordPicker
        objectName: "replaceTokenPicker"
        property int tokenIndex: -1
        words: editor.cell.vocabWords
        onPicked: word => editor.report(editor.cell.renameToken(wordPicker.tokenIndex, word))
    }

    // Past this many tokens, chips would fill the screen: the sentence is
    // summarised and edited in the lesson file instead.
    readonly property int maximumChips: 64
    readonly property bool summarised: cell.tokens.length > maximumChips

    Text {
        textFormat: Text.PlainText
        visible: editor.summarised
        text: qsTr("%1 tokens: too many to edit one by one here; the matrices below show them all.")
              .arg(editor.cell.tokens.length)
        color: Theme.mutedText
        font.pixelSize: Theme.smallSize
        wrapMode: Text.WordWrap
        Layout.fillWidth: true
    }

    Flow {
        id: chips
        visible: !editor.summarised
        Layout.fillWidth: true
        spacing: 6

        Repeater {
            model: editor.summarised ? [] : editor.cell.tokens
            delegate: Rectangle {
                id: chip
                required property string modelData
                required property int index
                objectName: "token_" + index
                width: chipRow.implicitWidth + 8
                height: Theme.scaled(32)
                radius: height / 2
                color: dragger.active ? Theme.selection : Theme.surfaceAlt
                z: dragger.active ? 1 : 0
                border.color: chip.activeFocus || nameButton.activeFocus ? Theme.accent : Theme.border
                // Dragging a chip onto another moves it there. The handler may
                // take the press over from the chip's buttons once it moves.
                DragHandler {
                    id: dragger
                    target: chip
                    grabPermissions: PointerHandler.CanTakeOverFromItems
                                     | PointerHandler.CanTakeOverFromHandlersOfDifferentType
                    cursorShape: Qt.ClosedHandCursor
                    onActiveChanged: {
                        if (active)
                            return
                        const to = editor.chipAt(chip.x + chip.width / 2, chip.y + chip.height / 2, chip)
                        if (to >= 0 && to !== chip.index)
                            editor.report(editor.cell.moveToken(chip.index, to))
                        chips.forceLayout()
                    }
                }
                HoverHandler { cursorShape: Qt.OpenHandCursor }
                RowLayout {
                    id: chipRow
                    anchors.centerIn: parent
                    spacing: 0
                    ToolButton {
                        objectName: "tokenLeft_" + chip.index
                        text: "‹"
                        enabled: chip.index > 0
                        implicitWidth: Theme.scaled(22)
                        onClicked: editor.report(editor.cell.moveToken(chip.index, chip.index - 1))
                        ToolTip.visible: hovered
                        ToolTip.delay: 500
                        ToolTip.text: qsTr("Move “%1” one place left").arg(chip.modelData)
                        Accessible.name: qsTr("Move %1 left").arg(chip.modelData)
                    }
                    ToolButton {
                        id: nameButton
                        objectName: "tokenName_" + chip.index
                        text: chip.modelData
                        font.bold: chip.index === editor.cell.focus
                        // The token is a lesson word: plain text, never markup.
                        contentItem: Text {
                            text: nameButton.text
                            textFormat: Text.PlainText
                            font: nameButton.font
                            color: nameButton.palette.buttonText
                            horizontalAlignment: Text.AlignHCenter
                            verticalAlignment: Text.AlignVCenter
                        }
                        onClicked: editor.cell.usesVocab ? editor.pickWordFor(chip.index, nameButton) : renameField.open()
                        ToolTip.visible: hovered
                        ToolTip.delay: 500
                        ToolTip.text: editor.cell.usesVocab
                            ? qsTr("Replace token %1 with another word from the vocab").arg(chip.index + 1)
                            : qsTr("Rename token %1").arg(chip.index + 1)
                        Accessible.name: qsTr("Token %1: %2").arg(chip.index + 1).arg(chip.modelData)
                        Popup {
                            id: renameField
                            y: parent.height
                            focus: true
                            contentItem: TextField {
                                text: chip.modelData
                                selectByMouse: true
                                Accessible.name: qsTr("New name for token %1").arg(chip.index + 1)
                                onAccepted: {
                                    editor.report(editor.cell.renameToken(chip.index, text))
                                    renameField.close()
                                }
                                Component.onCompleted: forceActiveFocus()
                            }
                        }
                    }
                    ToolButton {
                        objectName: "tokenRight_" + chip.index
                        text: "›"
                        enabled: chip.index < editor.cell.tokens.length - 1
                        implicitWidth: Theme.scaled(22)
                        onClicked: editor.report(editor.cell.moveToken(chip.index, chip.index + 1))
                        ToolTip.visible: hovered
                        ToolTip.delay: 500
                        ToolTip.text: qsTr("Move “%1” one place right").arg(chip.modelData)
                        Accessible.name: qsTr("Move %1 right").arg(chip.modelData)
                    }
                    ToolButton {
                        objectName: "tokenRemove_" + chip.index
                        text: "×"
                        implicitWidth: Theme.scaled(24)
                        onClicked: editor.report(editor.cell.removeToken(chip.index))
                        ToolTip.visible: hovered
                        ToolTip.delay: 500
                        ToolTip.text: qsTr("Remove “%1” from the sentence").arg(chip.modelData)
                        Accessible.name: qsTr("Remove %1").arg(chip.modelData)
                    }
                }
            }
        }

        // Adding: a word from the vocab or a new one typed in (it joins the
        // vocab as a zero vector); without a vocab, any name (a zero vector).
        Row {
            spacing: 4
            height: Theme.scaled(32)
            ThemedComboBox {
                id: newWord
                objectName: "newToken"
                visible: editor.cell.usesVocab
                model: editor.cell.vocabWords
                editable: true
                implicitContentWidthPolicy: ComboBox.WidestText
                onAccepted: addButton.clicked()
                anchors.verticalCenter: parent.verticalCenter
                ToolTip.visible: hovered
                ToolTip.delay: 500
                ToolTip.text: qsTr("A word from the vocab, or type a new one (it starts as a vector of zeros)")
                Accessible.name: qsTr("Word to add")
            }
            TextField {
                id: newName
                objectName: "newTokenName"
                visible: !editor.cell.usesVocab
                placeholderText: qsTr("new token")
                anchors.verticalCenter: parent.verticalCenter
                onAccepted: addButton.clicked()
                Accessible.name: qsTr("Name of the token to add")
            }
            Button {
                id: addButton
                objectName: "addToken"
                text: qsTr("+ Add")
                anchors.verticalCenter: parent.verticalCenter
                onClicked: {
                    editor.report(editor.cell.addToken((editor.cell.usesVocab ? newWord.editText : newName.text).trim()))
                    if (editor.refusal.length === 0)
                        newName.clear()
                }
                ToolTip.visible: hovered
                ToolTip.delay: 500
                ToolTip.text: qsTr("Add the token at the end of the sentence")
                Accessible.name: qsTr("Add token")
            }
        }
    }
    Refusal {
        text: editor.refusal
        Layout.fillWidth: true
    }
}
