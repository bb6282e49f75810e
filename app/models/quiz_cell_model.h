#pragma once
// A quiz cell: its question and choices as Markdown with live bindings, and
// the checking of an answer. A numeric answer bound to a cell is looked up
// when checked, so it follows that cell's edits; a verdict already given is
// checked again when the answer moves.

#include <QObject>
#include <QStringList>
#include <QtQml/qqmlregistration.h>

#include "core/document/cell_specs.h"

#include <functional>
#include <optional>

namespace attnbook {

class QuizCellModel : public QObject {
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("quiz cells come from a LessonSession")
    Q_PROPERTY(QString cellId READ cellId CONSTANT)
    Q_PROPERTY(QString kind READ kind CONSTANT) // choice, number, text
    Q_PROPERTY(QString question READ question NOTIFY textChanged)
    Q_PROPERTY(QStringList choices READ choices NOTIFY textChanged)
    Q_PROPERTY(QString explanation READ explanation NOTIFY textChanged)
    Q_PROPERTY(QString sampleAnswer READ sampleAnswer CONSTANT)
    // How far a typed number may be from the answer (quiz_answer.h); follows a bound answer.
    Q_PROPERTY(double tolerance READ tolerance NOTIFY textChanged)
    // open (not answered), right, wrong (the answer stays hidden), revealed (shown on
    // request), refused (the input was not a number)
    Q_PROPERTY(QString verdict READ verdict NOTIFY verdictChanged)
    Q_PROPERTY(QString feedback READ feedback NOTIFY verdictChanged)
    Q_PROPERTY(int chosen READ chosen NOTIFY verdictChanged)

  public:
    using TextFilter = std::function<QString(const std::string&)>; // bindings → values
    using NumberSource = std::function<std::optional<double>()>;

    QuizCellModel(const std::string& id, const QuizCellSpec& spec, TextFilter markdown,
                  NumberSource answer, QObject* parent = nullptr);

    QString cellId() const { return id_; }
    QString kind() const { return kind_; }
    QString question() const { return question_; }
    QStringList choices() const { return choices_; }
    QString explanation() const { return explanation_; }
    QString sampleAnswer() const { return sampleAnswer_; }
    double tolerance() const;
    QString verdict() const { return verdict_; }
    QString feedback() const { return feedback_; }
    int chosen() const { return chosen_; }

    Q_INVOKABLE void checkChoice(int index);
    Q_INVOKABLE void checkNumber(const QString& text);
    // A free-text question has no verdict: show the sample answer.
    Q_INVOKABLE void reveal();
    // The learner gives up: show the answer (and the explanation).
    Q_INVOKABLE void showAnswer();
    Q_INVOKABLE void clear();
    // The answer as it stands now (a bound answer follows its cell).
    Q_INVOKABLE QString answerText() const;

    // The bound cells changed: rewrite the texts and re-check.
    void refresh();

  Q_SIGNALS:
    void textChanged();
    void verdictChanged();

  private:
    void setVerdict(const QString& verdict, const QString& feedback);
    void recheck();
    // A numeric answer with the digits the lesson writes it with (quizShownDecimals).
    QString shownAnswer(double answer) const;

    QString id_;
    QString kind_;
    int rightChoice_ = -1;
    QuizCellSpec spec_; // the answer's kind, decimals and tolerance
    std::string questionSource_;
    std::vector<std::string> choiceSources_;
    std::string explainSource_;
    QString sampleAnswer_;
    TextFilter markdown_;
    NumberSource answer_;
    QString question_;
    QStringList choices_;
    QString explanation_;
    QString verdict_ = QStringLiteral("open");
    QString feedback_;
    int chosen_ = -1;
    std::optional<double> lastNumber_;
    QString lastTyped_; // the learner's last number, as typed
};

} // namespace attnbook
