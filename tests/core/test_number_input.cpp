// A number a reader types, one rule without Qt (core/document/number_input): read
// strictly with the reason when refused; a quiz's answer (parseAnswerNumber) reads each side
// of a fraction by the same rule, the real minus sign included.
#include "core/document/number_input.h"
#include "core/document/quiz_answer.h"

#include "test_support.h"

#include <optional>
#include <string>

using namespace attnbook;

namespace {

std::optional<double> read(const std::string& text) {
    std::string reason;
    const std::optional<double> value = readTypedNumber(text, reason);
    CHECK_EQ(value.has_value(), reason.empty());
    return value;
}

std::string reasonFor(const std::string& text) {
    std::string reason;
    CHECK_FALSE(readTypedNumber(text, reason).has_value());
    return reason;
}

} // namespace

TEST_CASE("typed numbers are read strictly") {
    CHECK_EQ(read(" \xE2\x88\x92"
                  "1.25 "),
             std::optional<double>(-1.25));
    CHECK_EQ(read("1e-3"), std::optional<double>(1e-3));
    CHECK_EQ(read("+2"), std::optional<double>(2));
    CHECK_EQ(read("\t-0.5\n"), std::optional<double>(-0.5));
    CHECK_EQ(read("\xC2\xA0"
                  "7"),
             std::optional<double>(7)); // a no-break space pasted
    for (const char* bad : {"", "  ", "1.5x", "abc", "1 2", "--1", "0x10", "nan"}) {
        CHECK_MESSAGE(!read(bad).has_value(), bad);
    }
}

TEST_CASE("a refused number says why") {
    CHECK_EQ(reasonFor(" "), "type a number");
    CHECK_EQ(reasonFor("1,5"), "use a point for decimals: 1.5, not 1,5");
    CHECK_EQ(reasonFor(" 1.5x "), "'1.5x' is not a number");
    CHECK_EQ(reasonFor("nan"), "'nan' is not a number");
    CHECK_EQ(reasonFor("inf"), "the number must be finite");
    CHECK_EQ(reasonFor("1e999"), "1e999 is too large: it must be a finite number");
}

TEST_CASE("a quiz's answer reads its numbers by the same rule") {
    CHECK_EQ(parseAnswerNumber("\xE2\x88\x92"
                               "1/2"),
             std::optional<double>(-0.5));
    CHECK_EQ(parseAnswerNumber("\xE2\x88\x92"
                               "0.25"),
             std::optional<double>(-0.25));
    CHECK_EQ(parseAnswerNumber(" 3 / 4 "), std::optional<double>(0.75));
    CHECK_FALSE(parseAnswerNumber("1,5").has_value());
    CHECK_FALSE(parseAnswerNumber("1/0").has_value());
    CHECK_FALSE(parseAnswerNumber("inf").has_value());
}
