#include "app/models/quiz_cell_model.h"

#include "app/models/number_text.h"
#include "core/document/quiz_answer.h"

#include <cmath>

namespace attnbook {

QuizCellModel::QuizCellModel(const std::string& id, const QuizCellSpec& spec, TextFilter markdown,
                             NumberSource answer, QObject* parent)
    : QObject(parent), id_(QString::fromStdString(id)), spec_(spec), questionSource_(spec.question),
      choiceSources_(spec.choices), explainSource_(spec.explain), markdown_(std::move(markdown)),
      answer_(std::move(answer)) {
    using Kind = QuizCellSpec::AnswerKind;
    switch (spec.answerKind) {
    case Kind::Choice:
        kind_ = QStringLiteral("choice");
        rightChoice_ = spec.choice;
        break;
    case Kind::Number:
    case Kind::Binding:
        kind_ = QStringLiteral("number");
        break;
    case Kind::Text:
        kind_ = QStringLiteral("text");
        sampleAnswer_ = QString::fromStdString(spec.text);
        break;
    }
    refresh();
}

void QuizCellModel::refresh() {
    question_ = markdown_(questionSource_);
    choices_.clear();
    for (const std::string& choice : choiceSources_) {
        choices_ << markdown_(choice);
    }
    explanation_ = markdown_(explainSource_);
    Q_EMIT textChanged();
    if (verdict_ == QLatin1String("revealed") && kind_ != QLatin1String("text")) {
        showAnswer(); // a bound answer moved with its cell
        return;
    }
    recheck();
}

double QuizCellModel::tolerance() const {
    const std::optional<double> answer = answer_ ? answer_() : std::nullopt;
    return quizTolerance(spec_, answer.value_or(0.0));
}

QString QuizCellModel::answerText() const {
    if (kind_ == QLatin1String("choice")) {
        return rightChoice_ >= 0 && rightChoice_ < choices_.size() ? choices_[rightChoice_]
                                                                   : QString();
    }
    if (kind_ == QLatin1String("text")) {
        return sampleAnswer_;
    }
    const std::optional<double> answer = answer_();
    return answer ? editableNumber(*answer) : QString();
}

void QuizCellModel::setVerdict(const QString& verdict, const QString& feedback) {
    verdict_ = verdict;
    feedback_ = feedback;
    Q_EMIT verdictChanged();
}

void QuizCellModel::checkChoice(int index) {
    if (kind_ != QLatin1String("choice") || index < 0 || index >= choices_.size()) {
        return;
    }
    chosen_ = index;
    if (index == rightChoice_) {
        setVerdict(QStringLiteral("right"), QStringLiteral("Right."));
    } else {
        setVerdict(QStringLiteral("wrong"),
                   QStringLiteral("Not this one. Try again, or show the answer."));
    }
}

void QuizCellModel::checkNumber(const QString& text) {
    if (kind_ != QLatin1String("number")) {
        return;
    }
    std::string reason; // read as the live page reads it (quiz_answer.h)
    const std::optional<double> typed = readQuizAnswer(text.toStdString(), reason);
    if (!typed) {
        lastNumber_.reset();
        lastTyped_.clear();
        setVerdict(QStringLiteral("refused"), QString::fromStdString(reason));
        return;
    }
    lastNumber_ = typed;
    lastTyped_ = text.trimmed(); // echoed as typed: "0.3", not "0.3000"
    recheck();
}

void QuizCellModel::recheck() {
    if (!lastNumber_) {
        return;
    }
    const std::optional<double> answer = answer_();
    if (!answer) {
        setVerdict(QStringLiteral("refused"),
                   QStringLiteral("This question's answer cannot be computed right now."));
        return;
    }
    if (quizAccepts(spec_, *lastNumber_, *answer)) {
        setVerdict(QStringLiteral("right"),
                   QStringLiteral("Right: the answer is %1.").arg(shownAnswer(*answer)));
    } else {
        // The answer stays hidden after a wrong try, so the learner can try again.
        setVerdict(QStringLiteral("wrong"),
                   QStringLiteral("Not quite: %1 is not it. Try again, or show the answer.")
                       .arg(lastTyped_));
    }
}

void QuizCellModel::showAnswer() {
    if (kind_ == QLatin1String("text")) {
        reveal();
        return;
    }
    const std::optional<double> number =
        kind_ == QLatin1String("number") ? answer_() : std::optional<double>();
    const QString answer = number ? shownAnswer(*number) : answerText();
    setVerdict(QStringLiteral("revealed"),
               answer.isEmpty()
                   ? QStringLiteral("This question's answer cannot be computed right now.")
                   : QStringLiteral("The answer is %1.").arg(answer));
}

void QuizCellModel::reveal() {
    setVerdict(QStringLiteral("revealed"), QString());
}

QString QuizCellModel::shownAnswer(double answer) const {
    return displayNumber(answer, quizShownDecimals(spec_));
}

void QuizCellModel::clear() {
    chosen_ = -1;
    lastNumber_.reset();
    lastTyped_.clear();
    setVerdict(QStringLiteral("open"), QString());
}

} // namespace attnbook
