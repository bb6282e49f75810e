#include "core/present/heat_colours.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace attnbook {
namespace {

struct Stop {
    double at;
    Rgb colour;
};

using Table = std::array<Rgb, 256>;

// Interpolates the stops into a table once, so a 512 × 512 heatmap costs one lookup per square.
Table makeTable(const std::array<Stop, 5>& stops) {
    Table table{};
    for (size_t i = 0; i < table.size(); ++i) {
        const double t = double(i) / double(table.size() - 1);
        size_t k = 1;
        while (k + 1 < stops.size() && stops[k].at < t) {
            ++k;
        }
        const Stop& a = stops[k - 1];
        const Stop& b = stops[k];
        const double f = std::clamp((t - a.at) / (b.at - a.at), 0.0, 1.0);
        const auto mix = [f](int x, int y) { return int(std::lround(x + (y - x) * f)); };
        table[i] = {mix(a.colour.red, b.colour.red), mix(a.colour.green, b.colour.green),
                    mix(a.colour.blue, b.colour.blue)};
    }
    return table;
}

// ColorBrewer "Blues" for the light theme: pale for nothing, deep for all.
const Table& lightShares() {
    static const Table table = makeTable({{{0.0, {247, 251, 255}},
                                           {0.25, {198, 219, 239}},
                                           {0.5, {107, 174, 214}},
                                           {0.75, {33, 113, 181}},
                                           {1.0, {8, 48, 107}}}});
    return table;
}

// On a dark page more attention should glow: dim navy up to pale cyan.
const Table& darkShares() {
    static const Table table = makeTable({{{0.0, {30, 36, 48}},
                                           {0.25, {28, 70, 110}},
                                           {0.5, {35, 120, 170}},
                                           {0.75, {90, 180, 215}},
                                           {1.0, {200, 240, 255}}}});
    return table;
}

// ColorBrewer "RdBu" reversed: blue below zero, red above.
const Table& lightChange() {
    static const Table table = makeTable({{{0.0, {33, 102, 172}},
                                           {0.25, {146, 197, 222}},
                                           {0.5, {247, 247, 247}},
                                           {0.75, {244, 165, 130}},
                                           {1.0, {178, 24, 43}}}});
    return table;
}

const Table& darkChange() {
    static const Table table = makeTable({{{0.0, {67, 147, 235}},
                                           {0.25, {45, 85, 130}},
                                           {0.5, {40, 42, 48}},
                                           {0.75, {140, 60, 55}},
                                           {1.0, {240, 100, 80}}}});
    return table;
}

Rgb lookup(const Table& table, double t) {
    if (!(t >= 0.0)) { // also NaN, which never reaches here, but never indexes out
        t = 0.0;
    }
    return table[size_t(std::min(t, 1.0) * 255.0 + 0.5)];
}

} // namespace

Rgb shareColour(double t, bool dark) {
    return lookup(dark ? darkShares() : lightShares(), t);
}

Rgb changeColour(double t, bool dark) {
    return lookup(dark ? darkChange() : lightChange(), (std::clamp(t, -1.0, 1.0) + 1.0) / 2.0);
}

Rgb textOn(Rgb background) {
    const double luminance =
        0.2126 * background.red + 0.7152 * background.green + 0.0722 * background.blue;
    return luminance > 140 ? Rgb{20, 20, 24} : Rgb{250, 250, 252};
}

std::string cssColour(Rgb colour) {
    // "#rrggbb" by hand: a heatmap writes one per entry, and printf is slow in the browser.
    static constexpr char kHex[] = "0123456789abcdef";
    std::string text = "#000000";
    int at = 1;
    for (const int channel : {colour.red & 0xff, colour.green & 0xff, colour.blue & 0xff}) {
        text[size_t(at++)] = kHex[channel >> 4];
        text[size_t(at++)] = kHex[channel & 0xf];
    }
    return text;
}

} // namespace attnbook
