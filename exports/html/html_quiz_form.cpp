#include "exports/html/html_quiz_form.h"

#include "exports/html/html_escape.h"
#include "exports/html/html_prose.h"

namespace attnbook {

namespace {

QString kindOf(const QuizCellSpec& quiz) {
    switch (quiz.answerKind) {
    case QuizCellSpec::AnswerKind::Choice:
        return QStringLiteral("choice");
    case QuizCellSpec::AnswerKind::Number:
    case QuizCellSpec::AnswerKind::Binding:
        return QStringLiteral("number");
    case QuizCellSpec::AnswerKind::Text:
        break;
    }
    return QStringLiteral("text");
}

} // namespace

QStringList quizFormIds(const std::string& id, const QuizCellSpec& quiz) {
    const QString field = QStringLiteral("quiz-") + QString::fromStdString(id);
    QStringList ids{field + QStringLiteral("-answer"), field + QStringLiteral("-hint"),
                    field + QStringLiteral("-verdict")};
    for (size_t i = 0; i < quiz.choices.size(); ++i) {
        ids << field + u'-' + QString::number(i);
    }
    return ids;
}

QString quizFormHtml(const std::string& id, const QuizCellSpec& quiz, int number,
                     const PresentedQuizText& text) {
    const QString quizId = htmlPageText(QString::fromStdString(id));
    const QString field = htmlPageText(QStringLiteral("quiz-") + QString::fromStdString(id));
    const QString kind = kindOf(quiz);
    QString html = QStringLiteral("<form class=\"quiz-form\" data-quiz=\"%1\" data-kind=\"%2\" "
                                  "hidden>\n<fieldset>\n<legend>Question %3</legend>\n")
                       .arg(quizId, kind)
                       .arg(number);
    if (kind == QLatin1String("choice")) {
        html += QLatin1String("<ol class=\"quiz-choices\" type=\"A\">\n");
        for (size_t i = 0; i < text.choices.size(); ++i) {
            html += QStringLiteral("<li><input type=\"radio\" name=\"%1\" id=\"%1-%2\" "
                                   "value=\"%2\"><label for=\"%1-%2\">%3</label></li>\n")
                        .arg(field)
                        .arg(i)
                        .arg(inlineProseHtml(QString::fromStdString(text.choices[i])));
        }
        html += QLatin1String("</ol>\n");
    } else if (kind == QLatin1String("number")) {
        // What the core reads as a number (parseAnswerNumber, docs/lesson-format.md).
        html +=
            QStringLiteral("<div class=\"quiz-row\"><label for=\"%1-answer\">Your answer</label>"
                           "<input type=\"text\" id=\"%1-answer\" inputmode=\"decimal\" "
                           "autocomplete=\"off\" spellcheck=\"false\" aria-describedby=\"%1-hint\">"
                           "</div>\n<p class=\"quiz-hint\" id=\"%1-hint\">A number, such as 0.25, "
                           "or a fraction, such as 1/4.</p>\n")
                .arg(field);
    } else {
        html += QStringLiteral("<div class=\"quiz-row\"><label for=\"%1-answer\">Your answer"
                               "</label><textarea id=\"%1-answer\" rows=\"3\"></textarea></div>\n")
                    .arg(field);
    }
    html += QStringLiteral("<div class=\"quiz-actions\"><button type=\"submit\">%1</button></div>\n"
                           "<p class=\"quiz-verdict\" id=\"%2-verdict\" role=\"status\" "
                           "aria-live=\"polite\"></p>\n</fieldset>\n</form>\n")
                .arg(kind == QLatin1String("text") ? QStringLiteral("Show the sample answer")
                                                   : QStringLiteral("Check"),
                     field);
    return html;
}

} // namespace attnbook
