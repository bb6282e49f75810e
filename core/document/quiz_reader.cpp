// A quiz cell's body (docs/lesson-format.md): its question, choices and answer, with the kind
// of answer (a choice, a number, a binding or a text) told from how it is written.
#include "core/document/body_reader.h"

#include "core/document/expression.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace attnbook {

namespace {

// `tolerance: 0.001` (absolute) or `tolerance: 1%` (relative to the answer).
std::optional<QuizCellSpec::Tolerance> readTolerance(BodyReader& in, const YamlNode& value) {
    QuizCellSpec::Tolerance tolerance;
    if (value.isScalar() && !value.scalar.empty() && value.scalar.back() == '%') {
        YamlNode number = value;
        number.scalar.pop_back();
        std::string ignored;
        const std::optional<double> percent = yamlNumber(number, ignored);
        if (!percent || *percent < 0 || *percent > 100) {
            in.error(value.at, "tolerance must be a number ≥ 0 or a percentage like 1%");
            return std::nullopt;
        }
        tolerance.relative = *percent / 100;
        return tolerance;
    }
    const std::optional<double> absolute = in.number(value, "tolerance");
    if (!absolute) {
        return std::nullopt;
    }
    if (*absolute < 0) {
        in.error(value.at, "tolerance must be ≥ 0");
        return std::nullopt;
    }
    tolerance.absolute = *absolute;
    return tolerance;
}

// Decimals typed in a number: "0.25" → 2, "5" → 0, "1e-3" → 3.
int typedDecimals(const std::string& text) {
    const size_t exponent = text.find_first_of("eE");
    const std::string mantissa = text.substr(0, exponent);
    const size_t point = mantissa.find('.');
    int decimals = point == std::string::npos ? 0 : int(mantissa.size() - point - 1);
    if (exponent != std::string::npos) {
        decimals -= std::atoi(text.c_str() + exponent + 1);
    }
    return std::clamp(decimals, 0, 15);
}

} // namespace

std::optional<QuizCellSpec> readQuiz(BodyReader& in, const YamlNode& body) {
    QuizCellSpec quiz;
    const int errorsBefore = in.errorCount();
    static const std::vector<std::string> keys = {"question",  "choices", "answer",
                                                  "tolerance", "explain", "cell"};
    const YamlNode* answer = nullptr;
    for (const auto& [key, value] : body.entries) {
        const std::string& k = key.scalar;
        in.note(k, key, value);
        if (k == "question") {
            quiz.question = in.text(value, "question").value_or("");
        } else if (k == "choices") {
            quiz.choices = in.textList(value, "choices").value_or(std::vector<std::string>{});
        } else if (k == "answer") {
            answer = &value;
        } else if (k == "tolerance") {
            quiz.tolerance = readTolerance(in, value);
        } else if (k == "cell") {
            quiz.cell = in.text(value, "cell").value_or("");
            if (!quiz.cell.empty() && !isValidCellId(quiz.cell)) {
                in.error(value.at, "cell must be a cell id, like colour");
            }
        } else if (k == "explain") {
            quiz.explain = in.text(value, "explain").value_or("");
        } else {
            const std::string guess = closestName(k, keys);
            in.warning(key.at, "unknown key '" + k + "'" +
                                   (guess.empty() ? "" : " — did you mean '" + guess + "'?"));
        }
    }
    if (quiz.question.empty()) {
        in.error(body.at, "a quiz needs a question");
    }
    if (!answer) {
        in.error(body.at, "a quiz needs an answer");
    } else if (!answer->isScalar()) {
        in.error(answer->at, "answer must be a choice number, a number, a binding or a text");
    } else {
        std::string ignored;
        const std::string& a = answer->scalar;
        const std::optional<double> number = yamlNumber(*answer, ignored);
        if (a.size() > 4 && a.rfind("{{", 0) == 0 && a.compare(a.size() - 2, 2, "}}") == 0) {
            quiz.answerKind = QuizCellSpec::AnswerKind::Binding;
            quiz.text = a.substr(2, a.size() - 4);
            quiz.answerBinding = parseBinding(quiz.text, quiz.answerBindingError);
            if (quiz.answerBinding) {
                quiz.answerDecimals = quiz.answerBinding->digits;
            }
        } else if (!number && !answer->quoted && ignored.find("not finite") != std::string::npos) {
            in.error(answer->at, ignored); // 1e400, .inf: a number, but not one to compare with
        } else if (number && !quiz.choices.empty()) {
            if (*number != std::floor(*number) || *number < 0 ||
                *number >= double(quiz.choices.size())) {
                in.error(answer->at, "answer must be the index of a choice, from 0 to " +
                                         std::to_string(quiz.choices.size() - 1));
            }
            quiz.answerKind = QuizCellSpec::AnswerKind::Choice;
            quiz.choice = int(*number);
        } else if (number) {
            quiz.answerKind = QuizCellSpec::AnswerKind::Number;
            quiz.number = *number;
            quiz.answerDecimals = typedDecimals(a);
        } else {
            quiz.answerKind = QuizCellSpec::AnswerKind::Text;
            quiz.text = a;
        }
    }
    if (in.errorCount() != errorsBefore) {
        return std::nullopt;
    }
    return quiz;
}

} // namespace attnbook
