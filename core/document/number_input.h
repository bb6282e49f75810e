#pragma once
// A number a reader types (one rule, without Qt): into a matrix's cell, a divisor, a
// quiz's answer. Read strictly, and when refused, say why in words a learner can act on
// ("use a point for decimals: 1.5, not 1,5"). The window's fields and parseAnswerNumber
// (quiz_answer.h) read through it.

#include <optional>
#include <string>
#include <string_view>

namespace attnbook {

// The number in `text`, or nullopt with `reason` set. Spaces around it are ignored; accepts a
// leading + and the real minus sign (−) the window writes; refuses empty text, decimal commas,
// trailing junk and anything that is not finite. Follows no locale (decimalFromChars).
std::optional<double> readTypedNumber(std::string_view text, std::string& reason);

} // namespace attnbook
