pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Attnbook
import Attnbook.Models

// W_Q, W_K, W_V, W_O and their biases as editable grids, one tab each, with
// "identity" and "zero" buttons.
ColumnLayout {
    id: editor
    required property AttentionCellModel cell
    property real availableWidth: 800
    property string refusal: ""
    spacing: 6

    readonly property var names: ["W_Q", "W_K", "W_V", "W_O"]

    property int shown: 0
    Choice {
        name: "projection"
        accessibleName: qsTr("Matrix to edit")
        current: editor.shown
        options: editor.names.concat([qsTr("biases")]).map((label, i) => ({
            value: i, label: label, tip: i < 4 ? qsTr("Edit %1").arg(label) : qsTr("Edit the biases")
        }))
        onChosen: value => editor.shown = value
    }
    StackLayout {
        currentIndex: editor.shown
        Layout.fillWidth: true
        Repeater {
            model: editor.names
            delegate: ColumnLayout {
                id: page
                required property string modelData
                spacing: 6
                RowLayout {
                    spacing: 6
                    Button {
                        objectName: "identity_" + page.modelData
                        text: qsTr("Identity")
                        onClicked: editor.refusal = editor.cell.setIdentity(page.modelData)
                        ToolTip.visible: hovered
                        ToolTip.delay: 500
                        ToolTip.text: qsTr("Make %1 the identity (only when it is square)").arg(page.modelData)
                        Accessible.name: qsTr("%1 identity").arg(page.modelData)
                    }
                    Button {
                        objectName: "zero_" + page.modelData
                        text: qsTr("Zero")
                        onClicked: editor.refusal = editor.cell.setZero(page.modelData)
                        ToolTip.visible: hovered
                        ToolTip.delay: 500
                        ToolTip.text: qsTr("Set every entry of %1 to 0").arg(page.modelData)
                        Accessible.name: qsTr("%1 zero").arg(page.modelData)
                    }
                }
                MatrixTable {
                    cell: editor.cell
                    matrix: page.modelData
                    caption: page.modelData + qsTr(" (one output unit per row)")
                    maximumWidth: editor.availableWidth
                }
            }
        }
        Flow {
            spacing: 20
            Repeater {
                model: ["b_Q", "b_K", "b_V", "b_O"]
                delegate: ColumnLayout {
                    id: biasPage
                    required property string modelData
                    MatrixTable {
                        cell: editor.cell
                        matrix: biasPage.modelData
                        caption: biasPage.modelData
                        maximumWidth: editor.availableWidth
                    }
                    Button {
                        objectName: "zero_" + biasPage.modelData
                        text: qsTr("Zero")
                        onClicked: editor.refusal = editor.cell.setZero(biasPage.modelData)
                        ToolTip.visible: hovered
                        ToolTip.delay: 500
                        ToolTip.text: qsTr("Set %1 to zeros").arg(biasPage.modelData)
                        Accessible.name: qsTr("%1 zero").arg(biasPage.modelData)
                    }
                }
            }
        }
    }
    Refusal {
        text: editor.refusal
        Layout.fillWidth: true
    }
}
