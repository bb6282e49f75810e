#include "core/document/quiz_answer.h"

#include "core/document/bindings.h"
#include "core/document/number_input.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace attnbook {

double quizTolerance(const QuizCellSpec& quiz, double answer) {
    if (quiz.tolerance) {
        return std::max(quiz.tolerance->absolute, quiz.tolerance->relative * std::abs(answer));
    }
    const bool wholeNumber =
        quiz.answerKind == QuizCellSpec::AnswerKind::Number && quiz.answerDecimals == 0;
    const double unit = wholeNumber ? 0.5 : std::pow(10.0, -quiz.answerDecimals);
    return std::max(0.01 * std::abs(answer), unit);
}

bool quizAccepts(const QuizCellSpec& quiz, double typed, double answer) {
    // A little slack for the rounding of the tolerance itself (0.001 is not a binary number).
    const double slack = 1e-9 * std::max(1.0, std::abs(answer));
    return std::abs(typed - answer) <= quizTolerance(quiz, answer) + slack;
}

int quizShownDecimals(const QuizCellSpec& quiz) {
    if (quiz.answerKind != QuizCellSpec::AnswerKind::Binding) {
        return quiz.answerDecimals;
    }
    std::string error;
    const std::optional<Binding> answer = parseBinding(quiz.text, error);
    const size_t first = quiz.text.find_first_not_of(' ');
    const size_t last = quiz.text.find_last_not_of(' ');
    const std::string written =
        first == std::string::npos ? std::string() : quiz.text.substr(first, last - first + 1);
    if (!answer || answer->expression != written) {
        return quiz.answerDecimals; // digits written in the answer's binding (`:2`) win
    }
    std::vector<const std::string*> texts = {&quiz.explain, &quiz.question};
    for (const std::string& choice : quiz.choices) {
        texts.push_back(&choice);
    }
    for (const std::string* text : texts) {
        for (const ProsePiece& piece : scanProse(*text, 1)) {
            if (piece.kind == ProsePiece::Kind::Binding && !piece.binding.claim &&
                piece.binding.expression == answer->expression) {
                return piece.binding.digits;
            }
        }
    }
    return quiz.answerDecimals;
}

namespace {

// One side of a fraction, or the whole answer: a number as every field reads one.
std::optional<double> decimal(std::string_view text) {
    std::string reason;
    return readTypedNumber(text, reason);
}

} // namespace

std::optional<double> parseAnswerNumber(std::string_view text) {
    const size_t slash = text.find('/');
    if (slash == std::string_view::npos) {
        return decimal(text);
    }
    const std::optional<double> numerator = decimal(text.substr(0, slash));
    const std::optional<double> denominator = decimal(text.substr(slash + 1));
    if (!numerator || !denominator || *denominator == 0) {
        return std::nullopt;
    }
    const double value = *numerator / *denominator;
    return std::isfinite(value) ? std::optional(value) : std::nullopt;
}

std::optional<double> readQuizAnswer(std::string_view typed, std::string& reason) {
    const size_t first = typed.find_first_not_of(" \t\r\n");
    const std::string_view text =
        first == std::string_view::npos
            ? std::string_view()
            : typed.substr(first, typed.find_last_not_of(" \t\r\n") - first + 1);
    reason.clear();
    // A fraction such as 1/2 is a number too (docs/lesson-format.md); a decimal that does not
    // read says why, as the window's fields do.
    const std::optional<double> number = text.find('/') != std::string_view::npos
                                             ? parseAnswerNumber(text)
                                             : readTypedNumber(text, reason);
    if (!number && reason.empty()) {
        reason = "'" + std::string(text) + "' is not a number or a fraction like 1/2";
    }
    return number;
}

} // namespace attnbook
