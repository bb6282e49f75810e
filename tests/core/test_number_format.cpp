// One number formatter (core/math/number_format.h) for every view: bound prose, worked lines,
// the window and the paper write a negative number with the real minus sign, never "−0.0000",
// never "nan".
#include "core/document/bindings.h"
#include "core/document/json.h"
#include "core/math/number_format.h"

#include "test_support.h"

#include <cmath>
#include <cstdio>
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

namespace {

// fixedNumber as it was written first, with printf: the slow reference (printf rounds the
// exact binary value, to even on a tie).
std::string printfFixed(double value, int digits) {
    char buffer[400];
    std::snprintf(buffer, sizeof buffer, "%.*f", digits, std::abs(value));
    const std::string text = buffer;
    const bool zero = text.find_first_not_of("0.") == std::string::npos;
    return value < 0 && !zero ? minus + text : text;
}

} // namespace

TEST_CASE("fixedNumber writes what printf writes, ties to even included") {
    std::mt19937_64 random(20261206);
    std::vector<double> values = {0.0,         -0.0,
                                  0.5,         1.5,
                                  2.5,         0.125,
                                  0.375,       -0.125,
                                  0.0625,      1e-300,
                                  5e-324,      1e20,
                                  9.99e20,     1e21,
                                  1e22,        1e300,
                                  0.045,       0.0045,
                                  1.0005,      2.675,
                                  1e15 + 0.5,  4503599627370497.0,
                                  123456.78125};
    // every k / 2^m for small k and m: the exact ties and the values beside them
    for (int m = 0; m <= 20; ++m) {
        for (int k = -70; k <= 70; ++k) {
            const double tie = std::ldexp(double(k), -m);
            values.insert(values.end(), {tie, std::nextafter(tie, 1e9), std::nextafter(tie, -1e9)});
        }
    }
    // decimals just beside a rounding boundary, and numbers of every size
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    std::uniform_int_distribution<int> exponent(-30, 25);
    for (int i = 0; i < 40000; ++i) {
        values.push_back(unit(random) * std::pow(10.0, exponent(random)));
        const double boundary = std::round(unit(random) * 1e6) / 1e4 + 0.00005;
        values.insert(values.end(), {boundary, std::nextafter(boundary, 0.0)});
    }
    size_t compared = 0;
    for (const double value : values) {
        for (const int digits : {0, 1, 2, 3, 4, 6, 8, 17, 20}) {
            if (printfFixed(value, digits) != fixedNumber(value, digits)) {
                CHECK_EQ(fixedNumber(value, digits), printfFixed(value, digits));
            }
            ++compared;
        }
        CHECK_EQ(readableNumber(value, 3),
                 std::abs(value - std::round(value)) < 1e-12 && std::abs(value) < 1e15
                     ? printfFixed(std::round(value), 0)
                     : printfFixed(value, 3));
    }
    CHECK(compared > 1000000);
    CHECK_EQ(fixedNumber(0.125, 2), "0.12"); // a tie: to even
    CHECK_EQ(fixedNumber(0.375, 2), "0.38");
    CHECK_EQ(fixedNumber(2.5, 0), "2");
    CHECK_EQ(fixedNumber(-2.5, 0), minus + "2");
    CHECK_EQ(fixedNumber(1e22, 1), "10000000000000000000000.0"); // past ToFixed's range
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
