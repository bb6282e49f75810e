pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Attnbook
import Attnbook.Models
import Attnbook.Window

// A quiz: choices or a number field, Check, then right or wrong with the
// explanation. A numeric answer bound to a cell follows that cell's edits.
Card {
    id: card
    required property QuizCellModel quiz
    property int picked: -1
    objectName: "quiz_" + quiz.cellId
    kind: qsTr("Check yourself")
    cellId: "" // the id is the author's name for it: students see only the question
    edge: quiz.verdict === "right" ? Theme.good : quiz.verdict === "wrong" ? Theme.bad : Theme.border
    Accessible.role: Accessible.Grouping
    Accessible.name: qsTr("Quiz %1").arg(quiz.cellId)

    Text {
        // Wrapped text: its width is given, not left to the layout, which
        // would keep the height of an early, narrow pass.
        width: card.contentWidth
        textFormat: Text.RichText
        text: ProseFormatter.markdownAsHtml(card.quiz.question)
        color: Theme.text
        font.pixelSize: Theme.proseSize
        wrapMode: Text.WordWrap
    }

    ButtonGroup { id: choiceGroup }
    Column {
        visible: card.quiz.kind === "choice"
        width: card.contentWidth
    Repeater {
        model: card.quiz.kind === "choice" ? card.quiz.choices : []
        delegate: RadioButton {
            id: option
            required property string modelData
            required property int index
            objectName: "choice_" + index
            indicator: Indicator { control: option; kind: "radio" }
            text: modelData
            ButtonGroup.group: choiceGroup
            width: card.contentWidth
            checked: card.picked === index
            onToggled: if (checked) card.picked = index
            Accessible.name: modelData
            contentItem: Text {
                leftPadding: option.indicator.width + option.spacing
                text: ProseFormatter.markdownAsHtml(option.modelData)
                textFormat: Text.RichText
                color: card.quiz.verdict !== "open" && card.quiz.chosen === option.index
                       ? (card.quiz.verdict === "right" ? Theme.good : Theme.bad) : Theme.text
                font.pixelSize: Theme.proseSize - 1
                wrapMode: Text.WordWrap
                verticalAlignment: Text.AlignVCenter
            }
        }
    }

    }

    RowLayout {
        spacing: 8
        TextField {
            id: answer
            objectName: "answer"
            visible: card.quiz.kind === "number"
            placeholderText: qsTr("your answer")
            selectByMouse: true
            implicitWidth: Theme.scaled(160)
            onAccepted: check.clicked()
            ToolTip.visible: hovered
            ToolTip.delay: 500
            ToolTip.text: qsTr("A number; the answer counts within ±%1").arg(card.quiz.tolerance)
            Accessible.name: qsTr("Your answer")
        }
        Button {
            id: check
            objectName: "check"
            text: card.quiz.kind === "text" ? qsTr("Show a sample answer") : qsTr("Check")
            enabled: card.quiz.kind !== "choice" || card.picked >= 0
            onClicked: {
                if (card.quiz.kind === "choice")
                    card.quiz.checkChoice(card.picked)
                else if (card.quiz.kind === "number")
                    card.quiz.checkNumber(answer.text)
                else
                    card.quiz.reveal()
            }
            ToolTip.visible: hovered
            ToolTip.delay: 500
            ToolTip.text: qsTr("Check your answer")
            Accessible.name: text
        }
        Text {
            textFormat: Text.PlainText
            objectName: "verdict"
            visible: card.quiz.verdict !== "open" && card.quiz.feedback.length > 0
            text: (card.quiz.verdict === "right" ? "✓ " : card.quiz.verdict === "wrong" ? "✗ "
                   : card.quiz.verdict === "revealed" ? "" : "⚠ ") + card.quiz.feedback
            color: card.quiz.verdict === "right" ? Theme.good
                   : card.quiz.verdict === "revealed" ? Theme.text : Theme.bad
            font.pixelSize: Theme.proseSize - 1
            font.bold: true
            wrapMode: Text.WordWrap
            Layout.preferredWidth: Math.min(implicitWidth, card.contentWidth - 260)
            Accessible.role: Accessible.AlertMessage
            Accessible.name: text
        }
    }

    // After a wrong try the answer stays hidden until the learner asks for it.
    Button {
        objectName: "showAnswer"
        visible: card.quiz.verdict === "wrong"
        text: qsTr("Show the answer")
        onClicked: card.quiz.showAnswer()
        Accessible.name: text
    }
    Text {
        visible: card.quiz.verdict === "revealed" && card.quiz.sampleAnswer.length > 0
        width: card.contentWidth
        textFormat: Text.RichText
        text: ProseFormatter.markdownAsHtml(card.quiz.sampleAnswer)
        color: Theme.text
        font.pixelSize: Theme.proseSize - 1
        wrapMode: Text.WordWrap
    }
    Rectangle {
        objectName: "explanation"
        visible: (card.quiz.verdict === "right" || card.quiz.verdict === "revealed")
                 && card.quiz.explanation.length > 0
        width: card.contentWidth
        implicitHeight: explainText.implicitHeight + 16
        color: Theme.surfaceAlt
        radius: 4
        Text {
            id: explainText
            x: 8
            y: 8
            width: Math.max(parent.width - 16, 0)
            textFormat: Text.RichText
            text: ProseFormatter.markdownAsHtml(card.quiz.explanation)
            color: Theme.text
            font.pixelSize: Theme.proseSize - 1
            wrapMode: Text.WordWrap
        }
    }
}
