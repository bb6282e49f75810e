// Not `pragma ComponentBehavior: Bound`: the views are picked with a Loader (see
// AttentionCell.qml for why Qt 6.4 then needs this off).
import QtQuick
import QtQuick.Controls
import Attnbook
import Attnbook.Models
// qmllint disable unqualified

// A transformer cell: the controls its `controls` key allows, then a tab for each view its
// `views` key asks for — the residual stream, the FFN, the next word, generation, the cache,
// attention in blocks — and each layer's attention with the attention views.
Card {
    id: card
    required property TransformerCellModel cell
    // Edit mode: the gradient check's sentence shows open (readers see it behind a question).
    property bool authoring: false
    property bool gradientsExplained: false
    property string keepMessage: ""
    readonly property bool hasControls: cell.controls.length > 0
    readonly property var ownViews: [
        { name: "stream", label: ViewNames.title("stream") },
        { name: "ffn", label: ViewNames.title("ffn") },
        { name: "next", label: ViewNames.title("next") },
        { name: "generation", label: ViewNames.title("generation") },
        { name: "cache", label: ViewNames.title("cache") },
        { name: "blocks", label: ViewNames.title("blocks") },
        { name: "knockout", label: ViewNames.title("knockout") },
        { name: "training", label: ViewNames.title("training") }
    ]
    readonly property var tabs: {
        // In the order the lesson lists them, its first view showing first; the attention
        // views (matrices, heatmap, …) give one tab per layer, where the first of them stands:
        // per layer of the model, so running fewer layers moves no button.
        const out = []
        let attentionPlaced = false
        for (const name of Array.from(card.cell.views)) {
            const own = card.ownViews.find(v => v.name === name)
            if (own !== undefined) {
                out.push(own)
            } else if (!attentionPlaced) {
                attentionPlaced = true
                for (let l = 0; l < card.cell.layerCount; ++l)
                    out.push({ name: "attention", layer: l, label: qsTr("Layer %1 attention").arg(l + 1) })
            }
        }
        return out
    }

    objectName: "transformer_" + cell.cellId
    kind: qsTr("Transformer")
    cellId: cell.cellId
    edge: cell.edited ? Theme.accent : Theme.border
    Accessible.role: Accessible.Grouping
    Accessible.name: qsTr("Transformer cell %1").arg(cell.cellId)

    headerExtras: [
        Text {
            textFormat: Text.PlainText
            // Its place is kept while hidden, so that Compare, Undo, Reset and Keep never move.
            opacity: card.cell.edited ? 1 : 0
            Accessible.ignored: !card.cell.edited
            text: qsTr("edited")
            height: undoButton.height
            verticalAlignment: Text.AlignVCenter
            color: Theme.accent
            font.pixelSize: Theme.smallSize
            font.italic: true
        },
        Text {
            textFormat: Text.PlainText
            visible: card.cell.updating
            // A whole width: the header's right-aligned row then keeps its buttons to the pixel
            // when this appears at its left.
            width: Math.ceil(implicitWidth)
            text: qsTr("updating…")
            height: undoButton.height
            verticalAlignment: Text.AlignVCenter
            color: Theme.mutedText
            font.pixelSize: Theme.smallSize
            font.italic: true
        },
        Button {
            id: undoButton
            objectName: "undoWhatIf"
            opacity: enabled ? 1 : 0.4
            visible: card.hasControls
            text: qsTr("Undo")
            enabled: card.cell.canUndoWhatIf
            onClicked: card.cell.undoWhatIf()
            ToolTip.visible: hovered
            ToolTip.delay: 500
            ToolTip.text: qsTr("Take back your last change to this cell (Ctrl+Z)")
        },
        Button {
            objectName: "reset"
            opacity: enabled ? 1 : 0.4
            visible: card.hasControls
            text: qsTr("Reset")
            enabled: card.cell.edited
            onClicked: { card.cell.reset(); card.keepMessage = "" }
            ToolTip.visible: hovered
            ToolTip.delay: 500
            ToolTip.text: qsTr("Back to the cell as the lesson wrote it")
        },
        Button {
            objectName: "keep"
            opacity: enabled ? 1 : 0.4
            visible: card.hasControls
            text: qsTr("Keep")
            enabled: card.cell.edited
            onClicked: { card.keepMessage = card.cell.keep(); card.forceActiveFocus() }
            ToolTip.visible: hovered
            ToolTip.delay: 500
            ToolTip.text: qsTr("Make the tokens, temperature and generation part of the lesson (an unsaved change)")
        }
    ]

    Text {
        textFormat: Text.PlainText
        objectName: "summary"
        width: card.contentWidth
        text: {
            const c = card.cell
            const parts = [c.n === 1 ? qsTr("1 token") : qsTr("%1 tokens").arg(c.n),
                           qsTr("width d = %1").arg(c.d),
                           c.layersRun === c.layerCount ? (c.layerCount === 1 ? qsTr("1 layer") : qsTr("%1 layers").arg(c.layerCount))
                                                        : qsTr("%1 of %2 layers").arg(c.layersRun).arg(c.layerCount),
                           qsTr("%1 words").arg(c.vocabWords.length)]
            if (c.hasLoss)
                parts.push(qsTr("loss %1").arg(c.number(c.loss, 4)))
            return parts.join("  ·  ")
        }
        color: Theme.mutedText
        font.pixelSize: Theme.smallSize
        wrapMode: Text.WordWrap
    }
    Rectangle {
        visible: card.hasControls
        width: card.contentWidth
        height: controlsColumn.implicitHeight + 20
        color: Theme.sunken
        border.color: Theme.border
        radius: 4
        Column {
            id: controlsColumn
            x: 10
            y: 10
            width: parent.width - 20
            spacing: 8
            SectionTitle {
                text: qsTr("Try it: the lesson lets you change these")
                width: parent.width
            }
            TransformerControls {
                id: controlsBox
                cell: card.cell
                width: parent.width
            }
        }
    }
    Text {
        textFormat: Text.PlainText
        visible: card.keepMessage.length > 0
        width: card.contentWidth
        text: card.keepMessage
        color: Theme.good
        font.pixelSize: Theme.smallSize
        wrapMode: Text.WordWrap
    }
    // The views, one at a time: a row of buttons as the other controls are. The choice is the
    // cell's, so it stays when the card scrolls away.
    readonly property int viewIndex: Math.min(card.cell.shown.viewIndex, card.tabs.length - 1)
    Flow {
        objectName: "transformerViews"
        visible: card.tabs.length > 1
        width: card.contentWidth
        spacing: 6
        Text {
            textFormat: Text.PlainText
            text: qsTr("Show")
            color: Theme.mutedText
            font.pixelSize: Theme.smallSize
            height: Theme.scaled(32)
            verticalAlignment: Text.AlignVCenter
        }
        // One button per view, wrapping onto a second line when the card is narrow.
        Repeater {
            model: card.tabs
            delegate: ChoiceButton {
                required property var modelData
                required property int index
                objectName: "view_" + modelData.name + (modelData.layer !== undefined ? modelData.layer : "")
                text: modelData.label
                checked: card.viewIndex === index
                onToggled: {
                    card.cell.shown.viewIndex = index
                    if (modelData.layer !== undefined)
                        card.cell.shown.attentionLayer = modelData.layer
                    checked = Qt.binding(() => card.viewIndex === index)
                }
                Accessible.name: qsTr("Show %1").arg(modelData.label)
            }
        }
    }
    Loader {
        id: viewLoader
        width: card.contentWidth
        readonly property var tab: card.tabs[card.viewIndex] || null
        sourceComponent: tab === null ? null : ({
            stream: streamView, ffn: ffnView, next: nextView, generation: generationView,
            cache: cacheView, blocks: blocksView, knockout: knockoutView, training: trainingView,
            attention: attentionView
        })[tab.name]
    }
    // How we know the gradients are right is an author's question: a reader sees it folded,
    // unless the check failed (then it is a warning everyone should read).
    readonly property bool gradientCheckOpen: card.authoring || card.gradientsExplained
                                              || (card.cell.complete && !card.cell.gradientCheckPassed)
    Button {
        objectName: "gradientsQuestion"
        visible: !card.authoring && (card.cell.gradientCheckPassed || !card.cell.complete)
        flat: true
        padding: 2
        leftPadding: 0
        contentItem: Text {
            textFormat: Text.PlainText
            text: (card.gradientsExplained ? "▾ " : "▸ ") + qsTr("How do we know the gradients are right?")
            color: Theme.link
            font.pixelSize: Theme.smallSize
        }
        background: null
        onClicked: card.gradientsExplained = !card.gradientsExplained
        Accessible.name: qsTr("How do we know the gradients are right?")
    }
    Text {
        textFormat: Text.PlainText
        objectName: "gradientCheck"
        visible: card.gradientCheckOpen
        width: card.contentWidth
        text: card.cell.gradientCheckText
        color: card.cell.gradientCheckPassed || !card.cell.complete ? Theme.mutedText : Theme.warning
        font.pixelSize: Theme.smallSize
        wrapMode: Text.WordWrap
    }

    Component { id: streamView; StreamView { cell: card.cell } }
    Component { id: ffnView; FfnView { cell: card.cell } }
    Component { id: nextView; NextWordsView { cell: card.cell } }
    Component { id: generationView; GenerationView { cell: card.cell } }
    Component { id: cacheView; CacheView { cell: card.cell } }
    Component { id: blocksView; BlocksView { cell: card.cell } }
    Component { id: knockoutView; KnockoutView { cell: card.cell } }
    Component { id: trainingView; TrainingView { cell: card.cell } }
    Component {
        id: attentionView
        Loader {
            readonly property AttentionCellModel layerCell: card.cell.shown.attention as AttentionCellModel
            sourceComponent: layerCell ? layerAttention : layerNotRun
            Component {
                id: layerAttention
                AttentionCell { cell: layerCell }
            }
            Component {
                id: layerNotRun
                Text {
                    textFormat: Text.PlainText
                    objectName: "layerNotRun"
                    text: qsTr("Layer %1 does not run: Layers is set to %2.")
                          .arg(card.cell.shown.attentionLayer + 1).arg(card.cell.layersRun)
                    color: Theme.mutedText
                    font.pixelSize: Theme.smallSize
                }
            }
        }
    }
}
