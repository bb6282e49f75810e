// The heatmaps' colours (core/present/heat_colours.h): the window, the PDF and the web page
// colour a share alike.
#include "core/present/heat_colours.h"

#include "test_support.h"

#include <cstdlib>
#include <limits>

using namespace attnbook;

namespace {

bool same(Rgb a, Rgb b) {
    return a.red == b.red && a.green == b.green && a.blue == b.blue;
}

// Within `by` of each channel: the palette is a table of 256 steps, so a stop in the middle
// lands on the step nearest to it.
bool near(Rgb a, Rgb b, int by) {
    return std::abs(a.red - b.red) <= by && std::abs(a.green - b.green) <= by &&
           std::abs(a.blue - b.blue) <= by;
}

} // namespace

TEST_CASE("a share's colour runs from the palette's palest blue to its deepest") {
    CHECK(same(shareColour(0.0), {247, 251, 255}));
    CHECK(same(shareColour(1.0), {8, 48, 107}));
    CHECK(near(shareColour(0.5), {107, 174, 214}, 1));
    // halfway between the stops at 0.25 and 0.5, to the table's 256 steps
    const Rgb between = shareColour(0.375);
    CHECK(between.red > 107);
    CHECK(between.red < 198);
    // out of range and NaN stay on the scale
    CHECK(same(shareColour(-1.0), shareColour(0.0)));
    CHECK(same(shareColour(2.0), shareColour(1.0)));
    CHECK(same(shareColour(std::numeric_limits<double>::quiet_NaN()), shareColour(0.0)));
    CHECK(near(changeColour(0.0), {247, 247, 247}, 2)); // no change: neutral
    CHECK(same(changeColour(-1.0), {33, 102, 172}));
    CHECK(same(changeColour(1.0), {178, 24, 43}));
}

TEST_CASE("text on a colour is dark on pale squares and light on deep ones") {
    CHECK(same(textOn(shareColour(0.0)), {20, 20, 24}));
    CHECK(same(textOn(shareColour(1.0)), {250, 250, 252}));
    CHECK_EQ(cssColour({8, 48, 107}), "#08306b");
    CHECK_EQ(cssColour({255, 0, 16}), "#ff0010");
    CHECK_EQ(cssColour({0, 0, 0}), "#000000");
    CHECK_EQ(cssColour({171, 205, 239}), "#abcdef");
}
