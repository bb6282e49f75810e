#pragma once
// How a numeric quiz answer is judged (docs/lesson-format.md, quiz cells): one rule for the
// window that grades it and the answer key that prints it.

#include "core/document/cell_specs.h"

#include <optional>
#include <string_view>

namespace attnbook {

// The largest |typed − answer| that counts as right. Without `tolerance:` it is the larger
// of 1% of the answer and one unit in the last decimal the key shows (0.0001 at 4 digits),
// so 0 is never right for 0.0009. A whole-number answer typed as such allows half a unit,
// so 4 is not right for 5.
double quizTolerance(const QuizCellSpec& quiz, double answer);

bool quizAccepts(const QuizCellSpec& quiz, double typed, double answer);

// The decimals a numeric answer is shown with, so that it reads as the lesson writes the same
// value: a typed answer as typed (0.5), a bound one with the digits written in its binding
// ({{x:2}}), else with those of a binding of the same value in the quiz's own question,
// choices or explanation (an explanation that writes {{x:1}} as "0.5" is not answered with
// "0.5000"), else 4. Only the showing: the tolerance keeps answerDecimals.
int quizShownDecimals(const QuizCellSpec& quiz);

// A typed answer: a decimal number ("0.25", "-1.5", "1e-3") or a fraction of two such
// numbers ("1/2", "-3/4"). Nullopt when it is neither, or not finite.
std::optional<double> parseAnswerNumber(std::string_view text);

// A reader's typed answer to a number quiz, as the window and the live page read it: a
// decimal, or a fraction (parseAnswerNumber); spaces around it ignored. Nullopt with `reason`
// in words a learner can act on ("use a point for decimals: 1.5, not 1,5", number_input.h).
std::optional<double> readQuizAnswer(std::string_view typed, std::string& reason);

} // namespace attnbook
