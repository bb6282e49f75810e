#include "exports/worksheet/worksheet_answers.h"

#include "core/math/number_format.h"
#include "exports/paint/pdf_cells.h"
#include "exports/worksheet/worksheet_transformer.h"

#include <set>

namespace attnbook {

namespace {

// The digits every exercise box is printed with.
constexpr int kBoxDigits = 4;

std::string joined(const arma::rowvec& values) {
    std::string out;
    for (const double v : values) {
        out += fixedNumber(v, kBoxDigits) + " ";
    }
    return out;
}

std::vector<SheetAnswer> attentionExerciseAnswers(const LessonCell& cell,
                                                  const AttentionCellSpec& spec,
                                                  const AttentionResult& result) {
    const std::set<std::string> blank(spec.worksheet->blank.begin(), spec.worksheet->blank.end());
    std::string text;
    for (const NamedMatrix& m : attentionMatrices(spec, result, false)) {
        if (!blank.count(m.name.toStdString())) {
            continue;
        }
        text += m.name.toStdString() + ":";
        const arma::mat& values = m.table.values;
        for (arma::uword r = 0; r < values.n_rows; ++r) {
            text += joined(values.row(r));
        }
    }
    if (text.empty()) {
        return {};
    }
    return {{"exercise " + cell.id, text}};
}

std::vector<SheetAnswer> transformerExerciseAnswers(const LessonCell& cell,
                                                    const TransformerCellSpec& spec,
                                                    const TransformerResult& result,
                                                    const TransformerSheetGivens& givens) {
    const TransformerExercises e = transformerExercises(spec, result, givens);
    const std::string name = "exercise " + cell.id;
    std::vector<SheetAnswer> out;
    if (e.norm.present) {
        out.push_back({name + ": LayerNorm", fixedNumber(e.norm.mean, kBoxDigits) + " " +
                                                 fixedNumber(e.norm.variance, kBoxDigits) + " " +
                                                 joined(e.norm.out)});
    }
    if (e.ffn.present) {
        out.push_back({name + ": FFN unit", fixedNumber(e.ffn.pre, kBoxDigits) + " " +
                                                fixedNumber(e.ffn.post, kBoxDigits)});
    }
    if (!e.next.words.empty()) {
        out.push_back(
            {name + ": next word", joined(e.next.probs) + e.next.words[size_t(e.next.pick)]});
    }
    out.push_back({name + ": cache", fixedNumber(e.cache.withCache, 0) + " " +
                                         fixedNumber(e.cache.without, 0) + " " +
                                         fixedNumber(e.cache.numbers, 0)});
    if (e.step) {
        out.push_back({name + ": training step",
                       joined(e.step->probs) + fixedNumber(e.step->loss, kBoxDigits) + " " +
                           joined(e.step->gradScores) + joined(e.step->newRow)});
    }
    return out;
}

} // namespace

std::string quizAnswerText(const QuizCellSpec& quiz, double value) {
    return fixedNumber(value, quiz.answerDecimals);
}

bool isNumericQuiz(const QuizCellSpec& quiz) {
    return quiz.answerKind == QuizCellSpec::AnswerKind::Number ||
           quiz.answerKind == QuizCellSpec::AnswerKind::Binding;
}

std::vector<SheetAnswer> exerciseAnswers(const LessonCell& cell, const ComputedCell& computed,
                                         const TransformerSheetGivens& givens) {
    const AttentionCellSpec* attention = cell.attention();
    if (attention && attention->worksheet && computed.attention) {
        return attentionExerciseAnswers(cell, *attention, *computed.attention);
    }
    const TransformerCellSpec* transformer = cell.transformer();
    if (transformer && transformer->worksheet && computed.transformer) {
        return transformerExerciseAnswers(cell, *transformer, *computed.transformer, givens);
    }
    return {};
}

std::vector<SheetAnswer> quizAnswersAbout(const Lesson& lesson, const std::string& cellId,
                                          const LessonResults& results) {
    std::vector<SheetAnswer> out;
    for (const LessonCell& cell : lesson.cells) {
        const QuizCellSpec* quiz = cell.quiz();
        if (!quiz || !isNumericQuiz(*quiz) || quizSubject(cell) != cellId) {
            continue;
        }
        // resolveQuizAnswer reports a binding that does not resolve in its results: a copy of
        // the (small) results keeps the caller's free of it.
        LessonResults scratch;
        scratch.cells = results.cells;
        const Json answer = resolveQuizAnswer(cell, *quiz, scratch);
        if (answer.isNumber()) {
            out.push_back({"quiz " + cell.id, quizAnswerText(*quiz, answer.number())});
        }
    }
    return out;
}

std::vector<SheetAnswer> variantAnswers(const WorksheetVariant& variant) {
    std::vector<SheetAnswer> out;
    const Lesson& lesson = variant.lesson;
    for (const LessonCell* cell : exerciseCells(lesson)) {
        if (const ComputedCell* computed = variant.results.cell(cell->id)) {
            const auto givens = variant.transformerGivens.find(cell->id);
            for (SheetAnswer& a : exerciseAnswers(*cell, *computed,
                                                  givens == variant.transformerGivens.end()
                                                      ? TransformerSheetGivens{}
                                                      : givens->second)) {
                out.push_back(std::move(a));
            }
        }
    }
    for (const LessonCell& cell : lesson.cells) {
        const QuizCellSpec* quiz = cell.quiz();
        const ComputedCell* computed = variant.results.cell(cell.id);
        const Json* answer = computed ? computed->json.find("answer") : nullptr;
        if (quiz && isNumericQuiz(*quiz) && answer && answer->isNumber()) {
            out.push_back({"quiz " + cell.id, quizAnswerText(*quiz, answer->number())});
        }
    }
    return out;
}

} // namespace attnbook
