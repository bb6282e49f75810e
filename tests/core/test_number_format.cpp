// One number formatter (core/math/number_format.h) for every view: bound prose, worked lines,
// the window and the paper write a negative number with the real minus sign, never "−0.0000",
// never "nan".
#include "core/document/bindings.h"
#include "core/document/json.h"
#include "core/math/number_format.h"

#include "test_support.h"

#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace attnbook;

namespace {
const std::string minus = "\u2212";
}

TEST_CASE("fixedNumber writes exactly DIGITS decimals with a real minus sign") {
    CHECK_EQ(fixedNumber(0.5, 4), "0.5000");
    CHECK_EQ(fixedNumber(-0.25, 2), minus + "0.25");
    CHECK_EQ(fixedNumber(-1.23456, 3), minus + "1.235");
    CHECK_EQ(fixedNumber(2.0, 0), "2");
    CHECK_EQ(fixedNumber(1e6, 1), "1000000.0");
}

TEST_CASE("a negative number that rounds to zero has no sign") {
    CHECK_EQ(fixedNumber(-0.00004, 4), "0.0000");
    CHECK_EQ(fixedNumber(-0.0, 2), "0.00");
    CHECK_EQ(readableNumber(-0.00004, 4), "0.0000");
    CHECK_EQ(readableNumber(-0.0, 4), "0");
}

TEST_CASE("infinities and NaN never print as inf or nan") {
    CHECK_EQ(fixedNumber(-std::numeric_limits<double>::infinity(), 4), minus + "∞");
    CHECK_EQ(fixedNumber(std::numeric_limits<double>::infinity(), 4), "∞");
    CHECK_EQ(fixedNumber(std::nan(""), 4), "?");
    CHECK_EQ(readableNumber(std::nan(""), 2), "?");
    CHECK_EQ(readableNumber(-std::numeric_limits<double>::infinity(), 2), minus + "∞");
}

TEST_CASE("readableNumber drops the decimals of whole numbers only") {
    CHECK_EQ(readableNumber(-2.0, 4), minus + "2");
    CHECK_EQ(readableNumber(0.5, 4), "0.5000");
    CHECK_EQ(readableNumber(-0.126, 2), minus + "0.13");
}

TEST_CASE("allWhole: a table of whole numbers, or one that needs decimals for all") {
    const double whole[] = {1, 0, -2, -std::numeric_limits<double>::infinity()};
    CHECK(allWhole(whole, 4)); // a blocked score is no decimal
    const double mixed[] = {-1, 0.9945};
    CHECK_FALSE(allWhole(mixed, 2));
    CHECK(allWhole(mixed, 1));
    CHECK(allWhole(nullptr, 0));
    const double nearlyOne[] = {1 - 1e-14}; // written "1" by readableNumber
    CHECK(allWhole(nearlyOne, 1));
}

TEST_CASE("valueRange: the finite extremes, and whether an infinity is among the values") {
    constexpr double inf = std::numeric_limits<double>::infinity();
    const double nan = std::nan("");
    // Every length from 0 to 11, so that the four-wide loop and its tail are both tested, and
    // the extremes at every position, against a plain scan written here.
    std::mt19937 random(11);
    std::uniform_real_distribution<double> value(-5.0, 5.0);
    for (size_t count = 1; count <= 11; ++count) {
        for (int trial = 0; trial < 50; ++trial) {
            std::vector<double> v(count);
            for (double& x : v) {
                x = value(random);
            }
            if (trial % 5 == 1) {
                v[size_t(trial) % count] = -inf; // a blocked score
            }
            if (trial % 7 == 2) {
                v[size_t(trial * 3) % count] = nan;
            }
            double lowest = inf, highest = -inf;
            bool hasInfinity = false;
            for (const double x : v) {
                hasInfinity = hasInfinity || std::isinf(x);
                if (std::isfinite(x)) {
                    lowest = std::min(lowest, x);
                    highest = std::max(highest, x);
                }
            }
            const ValueRange range = valueRange(v.data(), v.size());
            CHECK_EQ(range.lowest, lowest);
            CHECK_EQ(range.highest, highest);
            CHECK_EQ(range.hasInfinity, hasInfinity);
        }
    }
    const ValueRange none = valueRange(nullptr, 0);
    CHECK_EQ(none.lowest, inf);
    CHECK_EQ(none.highest, -inf);
    CHECK_FALSE(none.hasInfinity);
    const double blocked[] = {-inf, -inf, -inf, -inf, -inf};
    CHECK(valueRange(blocked, 5).hasInfinity);
    CHECK_EQ(valueRange(blocked, 5).lowest, inf);
}

TEST_CASE("numbers bound into prose read like the window's") {
    CHECK_EQ(formatBoundValue(Json(-0.25), 4), minus + "0.2500");
    CHECK_EQ(formatBoundValue(Json(-0.00001), 4), "0.0000");
    CHECK_EQ(formatBoundValue(Json(nullptr), 4), minus + "∞"); // a blocked score
}

TEST_CASE("asciiMinus turns every real minus sign into '-'") {
    CHECK_EQ(asciiMinus(minus + "1, " + minus + "2"), "-1, -2");
    CHECK_EQ(asciiMinus("0.5"), "0.5");
}
