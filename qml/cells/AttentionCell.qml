// Not `pragma ComponentBehavior: Bound`: Qt 6.4's Loader refuses to create
// bound components ("outside its creation context"), and the rows below
// pick their component with a Loader. Without it, qmllint 6.4 takes every use of an
// outer id inside those components for an unqualified access: that one check is off here.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Attnbook
import Attnbook.Models
// qmllint disable unqualified

// An attention cell: the controls its `controls` key allows, then the views
// its `views` key asks for, all following the live numbers. After an edit,
// "Compare" shows the change in each weight against the lesson's cell,
// "Reset" restores the lesson's cell and "Keep" writes the edit into the
// document (an unsaved change).
Card {
    id: card
    required property AttentionCellModel cell
    property bool compare: false
    // Whether the lesson asks this cell for view `name` ("heatmap", "trace", …).
    function shows(name: string): bool { return Array.from(card.cell.views).indexOf(name) >= 0 }
    property string keepMessage: ""
    property string keepRefusal: ""
    readonly property real innerWidth: contentWidth
    readonly property bool hasControls: cell.controls.length > 0

    objectName: "attention_" + cell.cellId
    kind: qsTr("Attention")
    cellId: cell.cellId
    edge: cell.edited ? Theme.accent : Theme.border
    Accessible.role: Accessible.Grouping
    Accessible.name: qsTr("Attention cell %1").arg(cell.cellId)

    headerExtras: [
        Text {
            textFormat: Text.PlainText
            // Its place is kept while hidden, so that Compare, Undo, Reset and Keep never move.
            opacity: card.cell.edited ? 1 : 0
            Accessible.ignored: !card.cell.edited
            text: qsTr("edited")
            // As tall as the buttons beside it, its word centred on theirs.
            height: compareSwitch.height
            verticalAlignment: Text.AlignVCenter
            color: Theme.accent
            font.pixelSize: Theme.smallSize
            font.italic: true
        },
        Text {
            textFormat: Text.PlainText
            // A large cell computes an edit on a worker thread; until its numbers arrive the
            // views show the last ones. Said only after 150 ms, so quick edits do not flicker.
            objectName: "updating"
            visible: card.cell.updating && updatingDelay.elapsed
            // A whole width: the header's right-aligned row then keeps its buttons to the pixel
            // when this appears at its left.
            width: Math.ceil(implicitWidth)
            text: qsTr("updating…")
            color: Theme.mutedText
            font.pixelSize: Theme.smallSize
            font.italic: true
            Accessible.role: Accessible.StaticText
            Accessible.name: qsTr("The numbers are updating")
            Timer {
                id: updatingDelay
                property bool elapsed: false
                interval: 150
                running: card.cell.updating
                onRunningChanged: if (!running) elapsed = false
                onTriggered: elapsed = true
            }
        },
        Switch {
            objectName: "compare"
            id: compareSwitch
            indicator: Indicator { control: compareSwitch; kind: "switch" }
            visible: card.hasControls
            text: qsTr("Compare")
            enabled: card.cell.edited && card.cell.compareAvailable
            checked: card.compare
            onToggled: card.compare = checked
            ToolTip.visible: hovered
            ToolTip.delay: 500
            ToolTip.text: card.cell.compareNote.length > 0 ? card.cell.compareNote
                          : qsTr("Show how much each weight changed against the lesson's own cell")
            Accessible.name: qsTr("Compare with the lesson's cell")
        },
        Button {
            objectName: "undoWhatIf"
            visible: card.hasControls
            text: qsTr("Undo")
            enabled: card.cell.canUndoWhatIf
            onClicked: {
                card.cell.undoWhatIf()
                if (!card.cell.edited)
                    card.compare = false
                if (!card.cell.canUndoWhatIf)
                    card.forceActiveFocus()
            }
            ToolTip.visible: hovered
            ToolTip.delay: 500
            ToolTip.text: qsTr("Take back your last change to this cell (Ctrl+Z)")
            Accessible.name: qsTr("Undo the last change to the cell")
        },
        Button {
            objectName: "reset"
            visible: card.hasControls
            text: qsTr("Reset")
            enabled: card.cell.edited
            onClicked: {
                card.cell.reset()
                card.compare = false
                card.keepMessage = ""
                card.forceActiveFocus()
            }
            ToolTip.visible: hovered
            ToolTip.delay: 500
            ToolTip.text: qsTr("Back to the cell as the lesson wrote it")
            Accessible.name: qsTr("Reset the cell")
        },
        Button {
            objectName: "keep"
            visible: card.hasControls
            text: qsTr("Keep")
            enabled: card.cell.edited
            onClicked: {
                card.keepRefusal = card.cell.keep()
                card.keepMessage = card.keepRefusal.length === 0
                    ? qsTr("Kept: the lesson now holds these values (not saved yet).") : ""
                card.compare = false
                // Keep is disabled now: the card keeps the keyboard (Ctrl+Z at once).
                card.forceActiveFocus()
            }
            ToolTip.visible: hovered
            ToolTip.delay: 500
            ToolTip.text: qsTr("Make these values part of the lesson (an unsaved change)")
            Accessible.name: qsTr("Keep the edits")
        }
    ]

    Text {
        textFormat: Text.PlainText
        objectName: "summary"
        width: card.contentWidth
        text: {
            const c = card.cell
            const parts = []
            parts.push(c.direct ? (c.n === 1 ? qsTr("1 query") : qsTr("%1 queries").arg(c.n))
                                  + ", " + (c.m === 1 ? qsTr("1 key") : qsTr("%1 keys").arg(c.m))
                                : (c.n === 1 ? qsTr("1 token") : qsTr("%1 tokens").arg(c.n)))
            if (!c.direct)
                parts.push(qsTr("width d = %1").arg(c.d))
            parts.push(c.heads === 1 ? qsTr("1 head, d_k = %1").arg(c.dK)
                                     : qsTr("%1 heads, d_k = %2 each").arg(c.heads).arg(c.dK))
            parts.push(qsTr("scores × %1").arg(Number(c.scale.toFixed(4))))
            parts.push(qsTr("mask: %1").arg(c.mask) + (c.padding.indexOf(true) >= 0 ? qsTr(" + padding") : ""))
            if (c.layerInput.length > 0)
                parts.push(qsTr("input: %1").arg(c.layerInput)) // positions were added before layer 1
            else if (!c.direct)
                parts.push(qsTr("positional: %1").arg(c.positional))
            return parts.join("  ·  ")
        }
        color: Theme.mutedText
        font.pixelSize: Theme.smallSize
        wrapMode: Text.WordWrap
    }

    // The controls the lesson lets a reader use, on a panel of their own.
    Rectangle {
        visible: card.hasControls
        width: card.contentWidth
        height: controlsColumn.height + 20
        color: Theme.sunken
        border.color: Theme.border
        radius: 4

        Column {
            id: controlsColumn
            x: 10
            y: 10
            width: parent.width - 20
            spacing: 10
            SectionTitle {
                text: qsTr("Try it: the lesson lets you change these")
                width: parent.width
            }
            TokenEditor {
                visible: card.cell.allows("tokens") && !card.cell.direct
                cell: card.cell
                width: parent.width
            }
            SettingsControls {
                visible: card.cell.allows("heads") || card.cell.allows("mask") || card.cell.allows("positional") || card.cell.allows("scale")
                cell: card.cell
                width: parent.width
            }
            Column {
                visible: card.cell.allows("vectors")
                spacing: 6
                width: parent.width
                SectionTitle {
                    text: card.cell.direct ? qsTr("Queries, keys and values") : qsTr("Token vectors")
                }
                Flow {
                    width: parent.width
                    spacing: 24
                    Repeater {
                        model: card.cell.direct ? ["queries", "keys", "values"] : ["X0"]
                        delegate: MatrixTable {
                            required property string modelData
                            cell: card.cell
                            matrix: modelData
                            caption: modelData === "X0" ? "" : modelData
                            describedAs: modelData === "X0" ? qsTr("Token vectors") : modelData
                            maximumWidth: card.innerWidth - 20
                            note: modelData === "X0" && card.cell.usesVocab
                                  ? qsTr("Equal tokens share one vocab vector: editing one row of a word changes every row of that word.")
                                  : ""
                        }
                    }
                }
            }
            Column {
                visible: card.cell.allows("projections") && !card.cell.direct
                spacing: 6
                width: parent.width
                SectionTitle { text: qsTr("Projections") }
                ProjectionsEditor {
                    cell: card.cell
                    availableWidth: card.innerWidth - 20
                    width: parent.width
                }
            }
        }
    }

    // Why Compare is off: the shapes no longer match the lesson's (a disabled
    // switch shows no tooltip, so the reason is written out). Below the controls, so that
    // the edit that turns it on moves nothing under the pointer.
    Text {
        textFormat: Text.PlainText
        objectName: "compareNote"
        visible: card.cell.edited && !card.cell.compareAvailable && card.hasControls
        width: card.contentWidth
        text: qsTr("Compare is off: %1 Undo or Reset to compare again.").arg(card.cell.compareNote)
        color: Theme.warning
        font.pixelSize: Theme.smallSize
        wrapMode: Text.WordWrap
    }

    Repeater {
        model: card.cell.warnings
        delegate: Text {
            textFormat: Text.PlainText
            required property string modelData
            text: "⚠ " + modelData
            color: Theme.warning
            font.pixelSize: Theme.smallSize
            wrapMode: Text.WordWrap
            width: card.contentWidth
        }
    }
    Refusal {
        text: card.keepRefusal
        width: card.contentWidth
    }
    Connections {
        // An edit of a large cell refused only once the worker computed it (its numbers
        // overflow): the cell is back where it was, and says why here.
        target: card.cell
        function onRefused(reason) { card.keepRefusal = reason }
    }
    Text {
        textFormat: Text.PlainText
        visible: card.keepMessage.length > 0 && !card.cell.edited
        text: card.keepMessage
        color: Theme.good
        font.pixelSize: Theme.smallSize
    }

    // With "Compare" on, the change heatmap shows even where the lesson
    // asked for no heatmap.
    Column {
        visible: card.compare && card.cell.compareAvailable && !card.shows("heatmap")
        width: card.contentWidth
        spacing: 6
        SectionTitle { text: qsTr("Change against the lesson") }
        HeatmapView {
            cell: card.cell
            change: true
            availableWidth: card.innerWidth
        }
    }

    // The token that the shares, the arithmetic and the trace follow.
    FocusPicker {
        cell: card.cell
        visible: card.shows("shares") || card.shows("arithmetic") || card.shows("trace")
    }

    Repeater {
        model: card.cell.views
        delegate: Column {
            id: viewBox
            required property string modelData
            objectName: "view_" + modelData
            width: card.contentWidth
            spacing: 6
            SectionTitle {
                // The paper's names (core/present/view_titles.h); a compared heatmap says so.
                text: viewBox.modelData === "heatmap" && card.compare && card.cell.compareAvailable
                      ? qsTr("Heatmap: change against the lesson") : ViewNames.title(viewBox.modelData)
            }
            Loader {
                width: parent.width
                sourceComponent: ({
                    matrices: matricesView,
                    heatmap: heatmapView,
                    shares: sharesView,
                    arithmetic: arithmeticView,
                    trace: traceView,
                    gradients: gradientsView
                })[viewBox.modelData] || null
            }
        }
    }

    Component {
        id: matricesView
        MatricesView {
            cell: card.cell
            availableWidth: card.innerWidth
            change: card.compare
        }
    }
    Component {
        id: heatmapView
        ColumnLayout {
            spacing: 6
            HeatmapView {
                cell: card.cell
                change: card.compare && card.cell.compareAvailable
                availableWidth: card.innerWidth
            }
            RowCheck {
                cell: card.cell
                Layout.maximumWidth: card.innerWidth
            }
        }
    }
    Component {
        id: sharesView
        SharesView {
            cell: card.cell
            availableWidth: card.innerWidth
        }
    }
    Component {
        id: arithmeticView
        ArithmeticView {
            cell: card.cell
            availableWidth: card.innerWidth
        }
    }
    Component {
        id: traceView
        TraceView {
            cell: card.cell
            availableWidth: card.innerWidth
        }
    }
    Component {
        id: gradientsView
        GradientsView {
            cell: card.cell
            availableWidth: card.innerWidth
        }
    }
}
