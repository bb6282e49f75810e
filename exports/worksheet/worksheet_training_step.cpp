#include "exports/worksheet/worksheet_training_step.h"

#include "exports/paint/pdf_figures.h"
#include "exports/paint/pdf_transformer.h"
#include "exports/worksheet/worksheet_parts.h"

namespace attnbook {

using namespace sheet;

namespace {

QStringList wordLabels(const TrainingStepExercise& e) {
    QStringList labels;
    for (const std::string& w : e.words) {
        labels << shortWord(w, 12);
    }
    return labels;
}

// "a × b + c × d" for a dot product, written out while it is short.
QString dotText(const arma::rowvec& a, const arma::rowvec& b) {
    QStringList parts;
    for (arma::uword k = 0; k < a.n_elem; ++k) {
        parts << tight(QStringLiteral("%1 × %2").arg(term(a(k)), term(b(k))));
    }
    return int(a.n_elem) <= kFewTerms ? parts.join(QStringLiteral(" + "))
                                      : QStringLiteral("the sum of the %1 products").arg(a.n_elem);
}

QString vectorText(const arma::rowvec& v) {
    QStringList parts;
    for (double x : v) {
        parts << num(x);
    }
    return tight(QStringLiteral("[%1]").arg(parts.join(QStringLiteral(", "))));
}

std::vector<Figure> givenFigures(const TrainingStepExercise& e) {
    std::vector<Figure> givens = vectorFigures(QStringLiteral("z"), QString(), e.z);
    MatrixTable rows;
    rows.caption = QStringLiteral("Output rows u");
    rows.rowLabels = wordLabels(e);
    rows.columnLabels = coordinateLabels(int(e.z.n_elem));
    rows.values = e.rows;
    rows.maxColumns = kChunk;
    givens.push_back(matrixFigure(rows));
    if (e.biasGiven) {
        MatrixTable bias;
        bias.caption = QStringLiteral("Biases b");
        bias.rowLabels = {QString()};
        bias.columnLabels = wordLabels(e);
        bias.values = arma::mat(e.bias);
        bias.maxColumns = kMostAnswers;
        givens.push_back(matrixFigure(bias));
    }
    return givens;
}

QStringList working(const TrainingStepExercise& e) {
    const arma::uword t = arma::uword(e.target);
    const QString right = word(e.words[t]);
    QStringList scores, exps, chances, grads;
    for (arma::uword w = 0; w < e.scores.n_elem; ++w) {
        const QString name = word(e.words[w]) + QStringLiteral(" ");
        const QString bias = e.biasGiven ? QStringLiteral(" + %1").arg(term(e.bias(w))) : QString();
        scores << name + formula(QStringLiteral("%1%2 = %3")
                                     .arg(dotText(e.rows.row(w), e.z), bias, num(e.scores(w))));
        exps << name +
                    formula(tight(QStringLiteral("e^(%1)").arg(num(e.scores(w) - e.scores.max()))) +
                            QStringLiteral(" = ") + num(e.exps(w)));
        chances << name + formula(QStringLiteral("%1 = %2").arg(
                              tight(QStringLiteral("%1 / %2").arg(num(e.exps(w)),
                                                                  num(arma::accu(e.exps)))),
                              num(e.probs(w))));
        grads << name + formula(w == t ? QStringLiteral("%1 − 1 = %2")
                                             .arg(num(e.probs(w)), num(e.gradScores(w)))
                                       : num(e.gradScores(w)));
    }
    QStringList out;
    out << QStringLiteral("Scores: ") + scores.join(QStringLiteral("; ")) + u'.';
    out << QStringLiteral("Subtract the largest, %1, and exponentiate: ").arg(num(e.scores.max())) +
               exps.join(QStringLiteral("; ")) +
               QStringLiteral("; the total is %1.").arg(num(arma::accu(e.exps)));
    out << QStringLiteral("Chances: ") + chances.join(QStringLiteral("; ")) + u'.';
    out << QStringLiteral("Loss: −ln p(%1) = −ln %2 = %3.")
               .arg(right, num(e.probs(t)), num(e.loss));
    out << QStringLiteral("Gradient on each score, p − 1 for %1 and p for the others: ")
                   .arg(right) +
               grads.join(QStringLiteral("; ")) + u'.';
    out << QStringLiteral("The score of %1 is u · z, so its row's gradient is %2 × z = %3, and one "
                          "step gives %4 − %5 × %3 = %6.")
               .arg(right, term(e.gradScores(t)), vectorText(e.gradRow), vectorText(e.rows.row(t)),
                    shortest(e.lr), vectorText(e.newRow));
    out << QStringLiteral("With z as it was, the score of %1 rises from %2 to %3: the step moved "
                          "the row towards z, by lr × (1 − p) = %4 of z.")
               .arg(right, num(e.scores(t)), num(e.newScore), num(e.lr * (1 - e.probs(t))));
    return out;
}

} // namespace

PdfBoxPtr trainingStepPart(const TrainingStepExercise& e, const QString& label, bool key,
                           const CellPrintArea& area) {
    const QString right = word(e.words[size_t(e.target)]);
    QStringList question;
    question << QStringLiteral("<b>%1 One step of training.</b> ").arg(label) +
                    QStringLiteral(
                        "At the last position the model ends with the vector z below, and the "
                        "word that really comes next is %1. Each word w scores "
                        "ℓ<sub>w</sub> = u<sub>w</sub> · z%2 with its output row "
                        "u<sub>w</sub>. Work out the chances softmax(ℓ), the loss −ln p(%1), the "
                        "gradient of the loss on each score (p − 1 for %1, p for the others), "
                        "and the row of %1 after one step of gradient descent with learning "
                        "rate %3: u − %3 × (its gradient) × z. (A real step moves every number "
                        "of the model at once; follow only this row.)")
                        .arg(right)
                        .arg(e.biasGiven ? QStringLiteral(" + b<sub>w</sub>") : QString())
                        .arg(shortest(e.lr));
    const QStringList words = wordLabels(e);
    std::vector<Figure> answers = answerFigures(QStringLiteral("Chances"), words, e.probs, key);
    for (Figure& f : answerFigures(QStringLiteral("Loss"), {QStringLiteral("−ln p")},
                                   arma::rowvec{e.loss}, key)) {
        answers.push_back(std::move(f));
    }
    for (Figure& f :
         answerFigures(QStringLiteral("Gradient on the scores"), words, e.gradScores, key)) {
        answers.push_back(std::move(f));
    }
    for (Figure& f :
         answerFigures(QStringLiteral("New row of ") + shortWord(e.words[size_t(e.target)], 12), {},
                       e.newRow, key)) {
        answers.push_back(std::move(f));
    }
    return partBox(question, givenFigures(e), answers, working(e), key, area);
}

} // namespace attnbook
