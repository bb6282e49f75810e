#include "core/document/quiz_answer.h"

#include <algorithm>
#include <charconv>
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

namespace {

std::optional<double> decimal(std::string_view text) {
    while (!text.empty() && text.front() == ' ') {
        text.remove_prefix(1);
    }
    while (!text.empty() && text.back() == ' ') {
        text.remove_suffix(1);
    }
    if (!text.empty() && text.front() == '+') {
        text.remove_prefix(1);
    }
    double value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size() ||
        !std::isfinite(value)) {
        return std::nullopt;
    }
    return value;
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

} // namespace attnbook
