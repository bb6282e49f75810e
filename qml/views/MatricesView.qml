pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Attnbook
import Attnbook.Models

// The computation's matrices in order, X → Q, K, V → scores → weights →
// context → output, with a head picker for the per-head ones and a digits
// setting; the row check sits under the weights.
ColumnLayout {
    id: view
    required property AttentionCellModel cell
    property real availableWidth: 800
    property int head: 0
    property bool change: false
    spacing: 10

    readonly property int shownHead: Math.min(head, cell.heads - 1)
    // "H₁ … H₄": heads counted from 1, as the pickers count them.
    function subscript(n: int): string {
        return String(n).split("").map(d => "₀₁₂₃₄₅₆₇₈₉"[Number(d)]).join("")
    }
    readonly property string headList: cell.heads === 2 ? "H₁ H₂" : "H₁ … H" + subscript(cell.heads)

    RowLayout {
        spacing: 12
        HeadPicker {
            heads: view.cell.heads
            head: view.shownHead
            onHeadChanged: view.head = head
        }
        Text {
            textFormat: Text.PlainText
            text: qsTr("Digits")
            color: Theme.mutedText
            font.pixelSize: Theme.smallSize
        }
        SpinBox {
            id: digitsBox
            objectName: "digits"
            from: 0
            to: 8
            value: 4
            editable: true
            ToolTip.visible: hovered
            ToolTip.delay: 500
            ToolTip.text: qsTr("Decimals shown in the matrices")
            Accessible.name: qsTr("Digits shown")
        }
    }

    Flow {
        Layout.preferredWidth: view.availableWidth
        spacing: 24
        Repeater {
            model: view.cell.direct
                   ? [["Q", "Q (queries)"], ["K", "K (keys)"], ["V", "V (values)"]]
                   : view.cell.layerInput.length > 0
                     ? [["X0", view.cell.layerInput],
                        ["Q", "Q = H W_Qᵀ + b_Q"], ["K", "K = H W_Kᵀ + b_K"], ["V", "V = H W_Vᵀ + b_V"]]
                   : view.cell.positional === "none"
                     ? [["X0", "X (token vectors)"],
                        ["Q", "Q = X W_Qᵀ + b_Q"], ["K", "K = X W_Kᵀ + b_K"], ["V", "V = X W_Vᵀ + b_V"]]
                     : [["X0", "X₀ (token vectors)"], ["P", "P (positional)"], ["X", "X = X₀ + P"],
                        ["Q", "Q = X W_Qᵀ + b_Q"], ["K", "K = X W_Kᵀ + b_K"], ["V", "V = X W_Vᵀ + b_V"]]
            delegate: MatrixTable {
                required property var modelData
                cell: view.cell
                matrix: modelData[0]
                caption: modelData[1]
                digits: digitsBox.value
                maximumWidth: view.availableWidth
            }
        }
    }
    Flow {
        Layout.preferredWidth: view.availableWidth
        spacing: 24
        MatrixTable {
            cell: view.cell
            matrix: "scores"
            head: view.shownHead
            caption: qsTr("Scores S = Q Kᵀ · %1").arg(Number(view.cell.scale.toFixed(4)))
                     + (view.cell.heads > 1 ? qsTr(" (head %1)").arg(view.shownHead + 1) : "")
            digits: digitsBox.value
            maximumWidth: view.availableWidth
        }
        MatrixTable {
            cell: view.cell
            matrix: "weights"
            head: view.shownHead
            caption: qsTr("Weights A = softmax(S)")
                     + (view.cell.heads > 1 ? qsTr(" (head %1)").arg(view.shownHead + 1) : "")
            digits: digitsBox.value
            maximumWidth: view.availableWidth
        }
        MatrixTable {
            visible: view.change && view.cell.compareAvailable
            cell: view.cell
            matrix: "delta"
            head: view.shownHead
            caption: qsTr("Change in A against the lesson")
            digits: digitsBox.value
            maximumWidth: view.availableWidth
        }
    }
    RowCheck {
        cell: view.cell
        Layout.maximumWidth: view.availableWidth
    }
    Flow {
        Layout.preferredWidth: view.availableWidth
        spacing: 24
        MatrixTable {
            cell: view.cell
            matrix: "context"
            head: view.shownHead
            // In a transformer layer H names the layer's input: the context is A V, unnamed.
            caption: (view.cell.layerInput.length > 0 ? qsTr("Context = A V") : qsTr("Context H = A V"))
                     + (view.cell.heads > 1 ? qsTr(" (head %1)").arg(view.shownHead + 1) : "")
            digits: digitsBox.value
            maximumWidth: view.availableWidth
        }
        MatrixTable {
            visible: view.cell.heads > 1 && !view.cell.direct
            cell: view.cell
            matrix: "concat"
            caption: qsTr("C = [%1] (heads side by side)").arg(view.headList)
            digits: digitsBox.value
            maximumWidth: view.availableWidth
        }
        MatrixTable {
            cell: view.cell
            matrix: "output"
            caption: view.cell.direct ? qsTr("Output C = [%1]").arg(view.cell.heads === 1 ? "H₁" : view.headList)
                                      : qsTr("Output Y = C W_Oᵀ + b_O")
            digits: digitsBox.value
            maximumWidth: view.availableWidth
        }
    }
}
