pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Attnbook
import Attnbook.Models

// One matrix of a cell with its token labels. Large matrices scroll inside
// the table; editable ones take typed numbers, with arrows, Tab and Enter
// moving between entries, and a refused value is explained underneath.
ColumnLayout {
    id: root
    required property AttentionCellModel cell
    required property string matrix
    property int head: 0
    property int digits: 4
    property string caption: matrix
    // How refusals name this matrix when the caption is hidden.
    property string describedAs: caption.length > 0 ? caption : matrix
    property string note: ""
    property int maximumRows: 12
    property real maximumWidth: 900
    property string refusal: ""
    readonly property int labelHeight: Theme.scaled(22)
    readonly property alias model: tableModel
    readonly property alias table: table
    readonly property int rowHeight: Theme.scaled(26)
    objectName: "matrix_" + matrix + (tableModel.perHead ? "_h" + head : "")
    spacing: 4

    MatrixTableModel {
        id: tableModel
        cell: root.cell
        matrix: root.matrix
        head: root.head
        digits: root.digits
    }

    FontMetrics {
        id: digitMetrics
        font.family: Theme.monoFamily
        font.pixelSize: Theme.monoSize
    }
    FontMetrics {
        id: labelMetrics
        font.pixelSize: Theme.smallSize
        font.bold: true
    }

    // Wide enough for the widest entry and for the column's label.
    function columnWidth(column: int): real {
        return Math.ceil(Math.max(digitMetrics.advanceWidth("0") * tableModel.widestEntry + Theme.scaled(16),
                                  labelMetrics.advanceWidth(tableModel.columnLabels[column] || "") + Theme.scaled(14),
                                  Theme.scaled(34)))
    }
    readonly property real rowLabelWidth: {
        labelMetrics.font // measure again once the font is set
        let widest = 0
        const labels = tableModel.rowLabels
        for (let i = 0; i < Math.min(labels.length, 200); ++i)
            widest = Math.max(widest, labelMetrics.advanceWidth(labels[i]))
        return Math.min(Math.ceil(widest) + Theme.scaled(14), Theme.scaled(130))
    }
    Connections {
        target: tableModel
        function onLabelsChanged() { table.forceLayout() }
    }

    // Moves the keyboard to another entry of an editable matrix.
    function focusEntry(row: int, column: int) {
        if (row < 0 || column < 0 || row >= tableModel.rows || column >= tableModel.columns)
            return
        table.positionViewAtCell(Qt.point(column, row), TableView.Contain)
        const item = table.itemAtCell(column, row)
        if (item)
            item.takeFocus()
    }

    // Copies the values for a spreadsheet (tab-separated) and says so.
    function copyValues(asShown: bool) {
        tableModel.copyTabSeparated(asShown)
        copiedTip.text = asShown ? qsTr("Copied the %1 × %2 values as shown").arg(tableModel.rows).arg(tableModel.columns)
                                 : qsTr("Copied the %1 × %2 values, every digit").arg(tableModel.rows).arg(tableModel.columns)
        copiedTip.open()
    }

    function commit(row: int, column: int, text: string): bool {
        const reason = tableModel.setValue(row, column, text)
        root.refusal = reason.length > 0
            ? root.describedAs + ", " + tableModel.headerData(row, Qt.Vertical) + " × "
              + tableModel.headerData(column, Qt.Horizontal) + ": " + reason
            : ""
        return reason.length === 0
    }

    RowLayout {
        spacing: 8
        visible: root.caption.length > 0
        Text {
            textFormat: Text.PlainText
            text: root.caption
            color: Theme.text
            font.pixelSize: Theme.smallSize
            font.bold: true
        }
        Text {
            textFormat: Text.PlainText
            text: tableModel.rows + " × " + tableModel.columns
            color: Theme.mutedText
            font.pixelSize: Theme.smallSize
        }
    }

    GridLayout {
        // Its own size, never stretched: in a wider layout (the Projections page) the extra
        // width went to the column labels' ListView and the layout gave the table beside it
        // no width at all under a real window, so W_Q showed its labels and no entries.
        Layout.fillWidth: false
        Layout.fillHeight: false
        columns: 2
        rowSpacing: 0
        columnSpacing: 0

        // Right-click (or a long press): copy the values for a spreadsheet.
        TapHandler {
            acceptedButtons: Qt.RightButton
            onTapped: eventPoint => copyMenu.popup()
        }
        TapHandler {
            acceptedDevices: PointerDevice.TouchScreen
            onLongPressed: copyMenu.popup()
        }
        ThemedMenu {
            id: copyMenu
            objectName: "copyMenu"
            MenuItem {
                text: qsTr("Copy the values (as shown)")
                onTriggered: root.copyValues(true)
            }
            MenuItem {
                text: qsTr("Copy the values (every digit)")
                onTriggered: root.copyValues(false)
            }
        }
        // Copying says it did, for a moment, beside the table: nothing in the lesson moves.
        ToolTip {
            id: copiedTip
            objectName: "copiedTip"
            timeout: 2000
        }

        Item {
            implicitWidth: root.rowLabelWidth
            implicitHeight: root.labelHeight
        }
        // Column labels, scrolled with the table.
        ListView {
            orientation: ListView.Horizontal
            interactive: false
            clip: true
            contentX: table.contentX
            model: tableModel.columnLabels
            implicitHeight: root.labelHeight
            Layout.fillWidth: true
            delegate: Text {
                textFormat: Text.PlainText
                required property string modelData
                required property int index
                width: root.columnWidth(index)
                height: root.labelHeight
                text: modelData
                color: Theme.mutedText
                font.pixelSize: Theme.smallSize
                horizontalAlignment: Text.AlignRight
                verticalAlignment: Text.AlignVCenter
                rightPadding: 8
                elide: Text.ElideRight
            }
        }
        // Row labels (the tokens) of the rows the table shows.
        Item {
            clip: true
            implicitWidth: root.rowLabelWidth
            Layout.preferredWidth: root.rowLabelWidth
            Layout.preferredHeight: table.shownHeight
            Repeater {
                model: table.rows > 0 ? Math.max(0, table.bottomRow - table.topRow + 1) : 0
                delegate: Text {
                    textFormat: Text.PlainText
                    required property int index
                    readonly property int row: table.topRow + index
                    y: row * root.rowHeight - table.contentY
                    width: root.rowLabelWidth
                    height: root.rowHeight
                    text: tableModel.rowLabels[row] || ""
                    color: Theme.text
                    font.pixelSize: Theme.smallSize
                    font.bold: true
                    horizontalAlignment: Text.AlignRight
                    verticalAlignment: Text.AlignVCenter
                    rightPadding: 8
                    elide: Text.ElideRight
                }
            }
        }
        TableView {
            id: table
            model: tableModel
            clip: true
            boundsBehavior: Flickable.StopAtBounds
            // Sized from the model, never from contentWidth/contentHeight: a TableView loads no
            // cells while hidden or zero-sized, and its content size comes from the cells it has
            // loaded, so a table made while hidden and grown later (a token added to the
            // Playground) kept its old height: Output Y showed 3 rows of 4.
            // Known from the start, so no scroll bar flashes on while the table measures itself.
            readonly property real fullHeight: tableModel.rows * root.rowHeight
            readonly property real fullWidth: {
                let width = 0
                for (let c = 0; c < tableModel.columns; ++c)
                    width += root.columnWidth(c)
                return width
            }
            readonly property bool tall: tableModel.rows > root.maximumRows
            readonly property bool wide: root.maximumWidth > 0
                                         && fullWidth > root.maximumWidth - root.rowLabelWidth + 1
            interactive: tall || wide
            Layout.preferredWidth: Math.min(fullWidth, root.maximumWidth - root.rowLabelWidth)
            readonly property real shownHeight: Math.min(fullHeight, root.maximumRows * root.rowHeight)
                                                + (wide ? 10 : 0)
            Layout.preferredHeight: shownHeight
            columnWidthProvider: column => root.columnWidth(column)
            rowHeightProvider: () => root.rowHeight
            ScrollBar.vertical: ScrollBar { policy: table.tall ? ScrollBar.AlwaysOn : ScrollBar.AlwaysOff }
            ScrollBar.horizontal: ScrollBar { policy: table.wide ? ScrollBar.AlwaysOn : ScrollBar.AlwaysOff }
            delegate: tableModel.editable ? editableEntry : shownEntry
        }
    }

    Component {
        id: shownEntry
        Rectangle {
            required property string display
            required property bool blocked
            required property bool isFocus
            required property string toolTip
            required property int row
            function takeFocus() {}
            color: isFocus ? Theme.focusRow : (row % 2 === 1 ? Theme.surfaceAlt : Theme.surface)
            border.color: Theme.border
            border.width: 0
            Text {
                textFormat: Text.PlainText
                anchors.fill: parent
                anchors.rightMargin: 7
                horizontalAlignment: Text.AlignRight
                verticalAlignment: Text.AlignVCenter
                text: parent.display
                color: parent.blocked ? Theme.mutedText : Theme.text
                font.family: Theme.monoFamily
                font.pixelSize: Theme.monoSize
                font.italic: parent.blocked
            }
        }
    }

    Component {
        id: editableEntry
        Rectangle {
            id: entry
            required property string display
            required property string editText
            required property int row
            required property int column
            property bool refused: false
            function takeFocus() { input.forceActiveFocus() }
            color: input.activeFocus ? Theme.surface : Theme.sunken
            border.color: refused ? Theme.bad : (input.activeFocus ? Theme.accent : Theme.border)
            border.width: input.activeFocus || refused ? 2 : 1

            TextInput {
                id: input
                objectName: "entry_" + root.matrix + "_" + entry.row + "_" + entry.column
                anchors.fill: parent
                anchors.leftMargin: 4
                anchors.rightMargin: 7
                horizontalAlignment: Text.AlignRight
                verticalAlignment: Text.AlignVCenter
                clip: true
                selectByMouse: true
                activeFocusOnTab: true
                color: Theme.text
                selectionColor: Theme.selection
                selectedTextColor: Theme.text
                font.family: Theme.monoFamily
                font.pixelSize: Theme.monoSize
                text: entry.display
                Accessible.name: root.describedAs + ", " + tableModel.headerData(entry.row, Qt.Vertical)
                                 + ", column " + tableModel.headerData(entry.column, Qt.Horizontal)
                Accessible.role: Accessible.EditableText

                // While editing show the exact number; otherwise the rounded one.
                onActiveFocusChanged: {
                    if (activeFocus) {
                        text = entry.editText
                        selectAll()
                    } else {
                        text = Qt.binding(() => entry.display)
                    }
                }
                function apply(): bool {
                    if (text === entry.editText || text === entry.display) {
                        entry.refused = false
                        return true
                    }
                    entry.refused = !root.commit(entry.row, entry.column, text)
                    if (!entry.refused)
                        text = entry.editText
                    return !entry.refused
                }
                onEditingFinished: apply()
                // Ctrl+Z with nothing typed here is the window's Undo (the value just applied
                // with Enter, a Keep): a TextInput takes every Ctrl+Z for its own text, so the key
                // did nothing until a click moved the keyboard away. Outside
                // the window (a cell alone) it is the cell's Undo.
                Keys.onPressed: event => {
                    if (!event.matches(StandardKey.Undo) || (text !== entry.editText && text !== entry.display))
                        return
                    const window = ApplicationWindow.window
                    if (window && typeof window.undo === "function")
                        window.undo()
                    else if (root.cell.canUndoWhatIf)
                        root.cell.undoWhatIf()
                    // The value the undo brought back, also when a large cell computes it later.
                    text = Qt.binding(() => entry.editText)
                    selectAll()
                    entry.refused = false
                    event.accepted = true
                }
                Keys.onReturnPressed: { if (apply()) root.focusEntry(entry.row + 1, entry.column) }
                Keys.onEnterPressed: { if (apply()) root.focusEntry(entry.row + 1, entry.column) }
                Keys.onUpPressed: { apply(); root.focusEntry(entry.row - 1, entry.column) }
                Keys.onDownPressed: { apply(); root.focusEntry(entry.row + 1, entry.column) }
                Keys.onLeftPressed: event => {
                    if (cursorPosition === 0 && selectedText.length === 0) {
                        apply(); root.focusEntry(entry.row, entry.column - 1)
                    } else {
                        event.accepted = false
                    }
                }
                Keys.onRightPressed: event => {
                    if (cursorPosition === text.length && selectedText.length === 0) {
                        apply(); root.focusEntry(entry.row, entry.column + 1)
                    } else {
                        event.accepted = false
                    }
                }
                Keys.onEscapePressed: { text = entry.editText; entry.refused = false; root.refusal = "" }
            }
            ToolTip.visible: hoverArea.hovered
            ToolTip.delay: 600
            ToolTip.text: qsTr("Type a number; Enter or an arrow key applies it")
            HoverHandler { id: hoverArea }
        }
    }

    Text {
        textFormat: Text.PlainText
        visible: root.note.length > 0
        text: root.note
        color: Theme.mutedText
        font.pixelSize: Theme.smallSize
        wrapMode: Text.WordWrap
        Layout.maximumWidth: root.maximumWidth
    }
    Refusal {
        text: root.refusal
        Layout.maximumWidth: root.maximumWidth
    }
}
