// Doubles to text and back without <charconv>'s floating point (core/document/decimal_text.h):
// the same text as std::to_chars and the same reading as std::from_chars, which this native
// build has and the WebAssembly build's libc++ has not, whatever LC_NUMERIC says.
#include "core/document/decimal_text.h"

#include "test_support.h"

#include <charconv>
#include <clocale>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace attnbook;

namespace {

std::string standardText(double value) {
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, result.ptr);
}

// Every kind of double: random bit patterns (every exponent, subnormals), the range lessons
// hold, short decimals and their neighbours, powers of two (whose lower neighbour is nearer)
// and the extremes.
std::vector<double> sampleDoubles() {
    std::vector<double> out = {0.0,
                               -0.0,
                               5e-324,
                               2.2250738585072014e-308,
                               1.7976931348623157e308,
                               0.1,
                               0.3,
                               1e21,
                               1e22,
                               123456789012345680000.0,
                               1e-5,
                               0.001,
                               1e5};
    std::mt19937_64 bits(7);
    for (int i = 0; i < 100000; ++i) {
        const std::uint64_t pattern = bits();
        double value = 0;
        std::memcpy(&value, &pattern, sizeof value);
        if (std::isfinite(value)) {
            out.push_back(value);
        }
    }
    std::uniform_real_distribution<double> lesson(-10, 10);
    for (int i = 0; i < 50000; ++i) {
        out.push_back(lesson(bits));
    }
    for (int e = -325; e <= 309; ++e) {
        for (int m = 1; m < 30; ++m) {
            const double value =
                std::strtod((std::to_string(m) + "e" + std::to_string(e)).c_str(), nullptr);
            out.push_back(value);
            out.push_back(std::nextafter(value, 0.0));
        }
    }
    for (int e = -1074; e <= 1023; ++e) {
        out.push_back(std::ldexp(1.0, e));
    }
    return out;
}

void checkAgainstCharconv() {
    int differing = 0;
    for (const double value : sampleDoubles()) {
        const std::string text = shortestDecimal(value);
        if (text != standardText(value) && ++differing <= 5) {
            CHECK_EQ(text, standardText(value));
        }
        double back = 0;
        const auto read = decimalFromChars(text.data(), text.data() + text.size(), back);
        if ((read.ec != std::errc() || back != value) && ++differing <= 5) {
            FAIL_CHECK("reading " << text << " back");
        }
    }
    CHECK_EQ(differing, 0);

    const char* texts[] = {"1e-400",
                           "4e-320",
                           "1e999",
                           "-1e999",
                           "inf",
                           "-inf",
                           "INF",
                           "Infinity",
                           "infin",
                           "nan",
                           "NaN(abc)",
                           "nan(",
                           "0x10",
                           "+1",
                           ".5",
                           "5.",
                           ".",
                           "-.",
                           "1e",
                           "1e+",
                           "1e-5x",
                           "-0",
                           "1.5x",
                           " 1",
                           "e5",
                           "-",
                           "",
                           "00012.50",
                           "1.7976931348623159e308",
                           "2.4703282292062328e-324",
                           "0e999999",
                           "123456789012345678901234567890",
                           "1E+2",
                           "--1"};
    for (const char* text : texts) {
        CAPTURE(text);
        const char* last = text + std::strlen(text);
        double ours = -7, standard = -7;
        const auto a = decimalFromChars(text, last, ours);
        const auto b = std::from_chars(text, last, standard);
        CHECK_EQ(int(a.ec), int(b.ec));
        CHECK_EQ(a.ptr - text, b.ptr - text);
        CHECK_EQ(std::isnan(ours), std::isnan(standard));
        if (!std::isnan(standard)) {
            CHECK_EQ(std::memcmp(&ours, &standard, sizeof ours), 0);
        }
    }
}

} // namespace

TEST_CASE("doubles are written and read as <charconv> writes and reads them") {
    checkAgainstCharconv();
}

TEST_CASE("LC_NUMERIC does not change them (Qt sets it from the environment)") {
    const std::string before = std::setlocale(LC_NUMERIC, nullptr);
    bool commaLocale = false;
    for (const char* name : {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8"}) {
        if (std::setlocale(LC_NUMERIC, name)) {
            commaLocale = true;
            break;
        }
    }
    if (!commaLocale) {
        MESSAGE("no locale with a decimal comma here: only the C locale was checked");
    }
    CHECK_EQ(shortestDecimal(0.5), "0.5");
    double value = 0;
    const std::string half = "0.5";
    CHECK(decimalFromChars(half.data(), half.data() + half.size(), value).ec == std::errc());
    CHECK_EQ(value, 0.5);
    checkAgainstCharconv();
    std::setlocale(LC_NUMERIC, before.c_str());
}
