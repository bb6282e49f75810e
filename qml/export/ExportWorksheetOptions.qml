pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import QtQuick.Dialogs
import Attnbook
import Attnbook.Models

// The worksheet's options: its answer key, how many variants, their seed, and a roster of
// names (each on a sheet of their own). Typed options wait for Render again.
ColumnLayout {
    id: sheet
    required property ExportController exporter
    spacing: 6

    FileDialog {
        id: rosterDialog
        title: qsTr("Choose a roster: one student name per line")
        fileMode: FileDialog.OpenFile
        nameFilters: [qsTr("Text files (*.txt *.csv)"), qsTr("All files (*)")]
        onAccepted: sheet.exporter.rosterPath = String(selectedFile)
    }

    SectionTitle {
        text: qsTr("WORKSHEET")
        Layout.topMargin: 12
        font.letterSpacing: 0.8
    }
    CheckBox {
        id: answersBox
        indicator: Indicator { control: answersBox; kind: "check" }
        objectName: "answersKey"
        text: qsTr("Answer key")
        checked: sheet.exporter.answers
        onToggled: sheet.exporter.answers = checked
        leftPadding: 0
        ToolTip.visible: hovered
        ToolTip.delay: 500
        ToolTip.text: qsTr("Render the key too; it is saved beside the worksheet as NAME-answers.pdf")
        Accessible.name: qsTr("Answer key")
        Accessible.description: ToolTip.text
    }
    GridLayout {
        columns: 2
        columnSpacing: 10
        rowSpacing: 6
        Layout.fillWidth: true

        Label {
            text: qsTr("Variants")
            color: Theme.text
        }
        SpinBox {
            objectName: "variants"
            from: 0
            to: 1000
            editable: true
            value: sheet.exporter.variants
            onValueModified: sheet.exporter.variants = value
            Layout.fillWidth: true
            textFromValue: (v, locale) => v === 0 ? qsTr("none") : Number(v).toLocaleString(locale, "f", 0)
            valueFromText: (text, locale) => text.trim() === qsTr("none") || text.trim() === ""
                                             ? 0 : Number.fromLocaleString(locale, text)
            validator: RegularExpressionValidator { regularExpression: /none|[0-9]{0,4}/ }
            ToolTip.visible: hovered
            ToolTip.delay: 500
            ToolTip.text: qsTr("How many versions with freshly drawn numbers; none prints the lesson's own numbers")
            Accessible.name: qsTr("Variants")
            Accessible.description: ToolTip.text
        }
        Label {
            text: qsTr("Seed")
            color: sheet.exporter.seedUsed ? Theme.text : Theme.mutedText
        }
        TextField {
            objectName: "seed"
            enabled: sheet.exporter.seedUsed
            text: sheet.exporter.seed
            onTextEdited: sheet.exporter.seed = text
            validator: RegularExpressionValidator { regularExpression: /[0-9]{1,20}/ }
            inputMethodHints: Qt.ImhDigitsOnly
            selectByMouse: true
            Layout.fillWidth: true
            ToolTip.visible: hovered
            ToolTip.delay: 500
            ToolTip.text: qsTr("The same seed draws the same variants again")
            Accessible.name: qsTr("Seed")
            Accessible.description: ToolTip.text
        }
        Label {
            text: qsTr("Roster")
            color: Theme.text
        }
        RowLayout {
            spacing: 4
            Layout.fillWidth: true
            Button {
                objectName: "chooseRoster"
                text: sheet.exporter.rosterPath.length > 0 ? qsTr("Change…") : qsTr("Choose…")
                onClicked: rosterDialog.open()
                ToolTip.visible: hovered
                ToolTip.delay: 500
                ToolTip.text: qsTr("A text file with one student name per line: each gets a named sheet, and a roster CSV is saved beside the worksheet")
                Accessible.name: qsTr("Choose a roster file")
                Accessible.description: ToolTip.text
            }
            Button {
                objectName: "clearRoster"
                text: qsTr("Clear")
                visible: sheet.exporter.rosterPath.length > 0
                onClicked: sheet.exporter.rosterPath = ""
                Accessible.name: qsTr("Clear the roster")
            }
        }
    }
    Text {
        textFormat: Text.PlainText
        objectName: "rosterLine"
        Layout.fillWidth: true
        text: sheet.exporter.rosterProblem.length > 0 ? sheet.exporter.rosterProblem
              : sheet.exporter.rosterPath.length === 0 ? qsTr("No roster: one unnamed sheet per variant.")
              : sheet.exporter.rosterCount === 1
                ? qsTr("%1: 1 name, on a sheet of its own.").arg(sheet.exporter.rosterName)
                : qsTr("%1: %2 names, each on a sheet of their own.").arg(sheet.exporter.rosterName)
                                                                     .arg(sheet.exporter.rosterCount)
        color: sheet.exporter.rosterProblem.length > 0 ? Theme.bad : Theme.mutedText
        font.pixelSize: Theme.smallSize
        wrapMode: Text.Wrap
    }
}
