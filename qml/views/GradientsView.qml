pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Attnbook
import Attnbook.Models

// The gradient of a chosen parameter and of the input, with the gradient
// check's largest relative error.
ColumnLayout {
    id: view
    required property AttentionCellModel cell
    property real availableWidth: 700
    property int digits: 4
    spacing: 8

    RowLayout {
        spacing: 8
        Text {
            textFormat: Text.PlainText
            text: qsTr("Gradient of L with respect to")
            color: Theme.mutedText
            font.pixelSize: Theme.smallSize
        }
        ThemedComboBox {
            id: parameter
            objectName: "gradientParameter"
            model: view.cell.gradientNames
            implicitContentWidthPolicy: ComboBox.WidestText
            ToolTip.visible: hovered
            ToolTip.delay: 500
            ToolTip.text: qsTr("The parameter whose gradient is shown")
            Accessible.name: qsTr("Parameter")
        }
    }
    Flow {
        Layout.preferredWidth: view.availableWidth
        spacing: 24
        MatrixTable {
            cell: view.cell
            matrix: "grad." + parameter.currentText
            caption: "∂L/∂" + parameter.currentText
            digits: view.digits
            maximumWidth: view.availableWidth
        }
        MatrixTable {
            cell: view.cell
            matrix: view.cell.direct ? "grad.queries" : "grad.X"
            caption: view.cell.direct ? "∂L/∂queries" : qsTr("∂L/∂X (the input)")
            digits: view.digits
            maximumWidth: view.availableWidth
        }
        MatrixTable {
            cell: view.cell
            matrix: "grad.upstream"
            caption: qsTr("∂L/∂Y (upstream)")
            digits: view.digits
            maximumWidth: view.availableWidth
        }
    }
    Text {
        textFormat: Text.PlainText
        objectName: "gradientCheck"
        text: view.cell.gradientCheckText
        color: !view.cell.gradientChecked ? Theme.mutedText
               : view.cell.gradientCheckPassed ? Theme.good : Theme.bad
        font.pixelSize: Theme.smallSize
        wrapMode: Text.WordWrap
        Layout.maximumWidth: view.availableWidth
    }
}
