pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Attnbook
import Attnbook.Models

// What a reader may change in a transformer cell, as its `controls` allow: the tokens (words
// of the vocabulary), how many layers run, LayerNorm and the FFN on or off, the mask, the
// positions, the temperature and generation. A refused change says why, here.
ColumnLayout {
    id: controls
    required property TransformerCellModel cell
    property string refusal: ""
    spacing: 10

    function report(reason: string) { controls.refusal = reason }

    // Tokens: each a word of the vocabulary; × removes one, the last box adds one.
    Flow {
        visible: controls.cell.allows("tokens")
        Layout.fillWidth: true
        spacing: 6
        Text {
            textFormat: Text.PlainText
            text: qsTr("Tokens")
            color: Theme.mutedText
            font.pixelSize: Theme.smallSize
            height: Theme.scaled(32)
            verticalAlignment: Text.AlignVCenter
        }
        Repeater {
            model: controls.cell.tokens
            delegate: Row {
                id: token
                required property string modelData
                required property int index
                spacing: 0
                ThemedComboBox {
                    objectName: "token_" + token.index
                    model: controls.cell.vocabWords
                    currentIndex: Array.from(controls.cell.vocabWords).indexOf(token.modelData)
                    implicitWidth: Theme.scaled(96)
                    onActivated: index => controls.report(controls.cell.replaceToken(token.index, controls.cell.vocabWords[index]))
                    Accessible.name: qsTr("Token %1").arg(token.index + 1)
                }
                ToolButton {
                    objectName: "removeToken_" + token.index
                    text: "×"
                    enabled: controls.cell.n > 1
                    onClicked: controls.report(controls.cell.removeToken(token.index))
                    ToolTip.visible: hovered
                    ToolTip.delay: 500
                    ToolTip.text: qsTr("Remove “%1”").arg(token.modelData)
                    Accessible.name: qsTr("Remove token %1").arg(token.index + 1)
                }
            }
        }
        ThemedComboBox {
            objectName: "addToken"
            model: Array.from([qsTr("+ add a word")]).concat(Array.from(controls.cell.vocabWords))
            implicitWidth: Theme.scaled(130)
            onActivated: index => {
                if (index > 0)
                    controls.report(controls.cell.addToken(controls.cell.vocabWords[index - 1]))
                currentIndex = 0
            }
            Accessible.name: qsTr("Add a token")
        }
    }

    Flow {
        Layout.fillWidth: true
        spacing: 16
        RowLayout {
            visible: controls.cell.allows("layers") && controls.cell.layerCount > 1
            spacing: 6
            Text { textFormat: Text.PlainText; text: qsTr("Layers"); color: Theme.mutedText; font.pixelSize: Theme.smallSize }
            Choice {
                name: "layers"
                accessibleName: qsTr("Layers to run")
                current: controls.cell.layersRun
                options: Array.from({ length: controls.cell.layerCount }, (_, i) => ({
                    value: i + 1, label: String(i + 1),
                    tip: i === 0 ? qsTr("Run the first layer only") : qsTr("Run the first %1 layers").arg(i + 1)
                }))
                onChosen: value => controls.report(controls.cell.setLayersRun(value))
            }
        }
        Switch {
            objectName: "normSwitch"
            visible: controls.cell.allows("norm")
            text: qsTr("LayerNorm")
            checked: controls.cell.norm
            indicator: Indicator { control: parent as Switch; kind: "switch" }
            onToggled: controls.report(controls.cell.setNorm(checked))
        }
        Switch {
            objectName: "ffnSwitch"
            visible: controls.cell.allows("ffn")
            text: qsTr("FFN")
            checked: controls.cell.ffn
            indicator: Indicator { control: parent as Switch; kind: "switch" }
            onToggled: controls.report(controls.cell.setFfn(checked))
        }
        RowLayout {
            visible: controls.cell.allows("mask")
            spacing: 6
            Text { textFormat: Text.PlainText; text: qsTr("Mask"); color: Theme.mutedText; font.pixelSize: Theme.smallSize }
            Choice {
                name: "transformerMask"
                accessibleName: qsTr("Mask")
                current: controls.cell.mask
                options: [
                    { value: "causal", label: qsTr("causal"), tip: qsTr("A token reads only itself and the tokens before it") },
                    { value: "none", label: qsTr("none"), tip: qsTr("Every token reads every token (generation then cannot use a cache)") }
                ]
                onChosen: value => controls.report(controls.cell.setMask(value))
            }
        }
        RowLayout {
            visible: controls.cell.allows("positional")
            spacing: 6
            Text { textFormat: Text.PlainText; text: qsTr("Positions"); color: Theme.mutedText; font.pixelSize: Theme.smallSize }
            Choice {
                name: "transformerPositional"
                accessibleName: qsTr("Positional encoding")
                current: controls.cell.positional
                options: Array.from([
                    { value: "none", label: qsTr("none") },
                    { value: "sinusoidal", label: qsTr("sinusoidal") }
                ]).concat(controls.cell.learnedPositional ? [{ value: "learned", label: qsTr("learned") }] : [])
                onChosen: value => controls.report(controls.cell.setPositional(value))
            }
        }
    }

    Flow {
        Layout.fillWidth: true
        spacing: 16
        RowLayout {
            visible: controls.cell.allows("temperature")
            spacing: 6
            Text { textFormat: Text.PlainText; text: qsTr("Temperature"); color: Theme.mutedText; font.pixelSize: Theme.smallSize }
            // A log scale: 0.1 … 10, 1 in the middle.
            Slider {
                objectName: "temperature"
                from: -1
                to: 1
                stepSize: 0.05
                value: Math.log10(controls.cell.temperature)
                implicitWidth: Theme.scaled(160)
                onMoved: controls.report(controls.cell.setTemperature(Number(Math.pow(10, value).toFixed(2))))
                // One drag is one Undo step.
                onPressedChanged: pressed ? controls.cell.beginGesture() : controls.cell.endGesture()
                Accessible.name: qsTr("Temperature")
            }
            Text {
                textFormat: Text.PlainText
                objectName: "temperatureReadout"
                // As wide as the widest value (10.00), so Generate beside it never moves.
                Layout.preferredWidth: widestTemperature.advanceWidth
                TextMetrics { id: widestTemperature; font.family: Theme.monoFamily; font.pixelSize: Theme.smallSize; text: "10.00" }
                text: controls.cell.number(controls.cell.temperature, 2)
                color: Theme.text
                font.family: Theme.monoFamily
                font.pixelSize: Theme.smallSize
            }
        }
        RowLayout {
            visible: controls.cell.allows("generate")
            spacing: 6
            Text { textFormat: Text.PlainText; text: qsTr("Generate"); color: Theme.mutedText; font.pixelSize: Theme.smallSize }
            SpinBox {
                objectName: "generateSteps"
                from: 0
                to: 16
                value: controls.cell.generateSteps
                onValueModified: controls.report(controls.cell.setGenerate(value, controls.cell.pick, controls.cell.seed))
                // A held arrow is one Undo step.
                readonly property bool held: up.pressed || down.pressed
                onHeldChanged: held ? controls.cell.beginGesture() : controls.cell.endGesture()
                Accessible.name: qsTr("Words to generate")
            }
            Text { textFormat: Text.PlainText; text: qsTr("words"); color: Theme.mutedText; font.pixelSize: Theme.smallSize }
            Choice {
                name: "pick"
                accessibleName: qsTr("How to pick each word")
                current: controls.cell.pick
                options: [
                    { value: "greedy", label: qsTr("greedy"), tip: qsTr("Take the most likely word") },
                    { value: "sample", label: qsTr("sample"), tip: qsTr("Draw a word by its chance (seeded: everyone draws the same)") }
                ]
                onChosen: value => controls.report(controls.cell.setGenerate(Math.max(1, controls.cell.generateSteps), value, controls.cell.seed))
            }
            Text { textFormat: Text.PlainText; visible: controls.cell.pick === "sample"; text: qsTr("seed"); color: Theme.mutedText; font.pixelSize: Theme.smallSize }
            SpinBox {
                objectName: "seed"
                visible: controls.cell.pick === "sample"
                from: 0
                to: 999999
                editable: true
                value: controls.cell.seed
                onValueModified: controls.report(controls.cell.setGenerate(controls.cell.generateSteps, controls.cell.pick, value))
                readonly property bool held: up.pressed || down.pressed
                onHeldChanged: held ? controls.cell.beginGesture() : controls.cell.endGesture()
                Accessible.name: qsTr("Seed")
            }
        }
    }
    Refusal {
        Layout.fillWidth: true
        text: controls.refusal.length > 0 ? controls.refusal : controls.cell.problem
    }
}
