#include "exports/paint/heat_palette.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace attnbook {
namespace {

struct Stop {
    double at;
    QRgb colour;
};

using Table = std::array<QRgb, 256>;

// Interpolates the stops into a table once, so a 512 × 512 heatmap costs one
// lookup per square.
template <size_t N> Table makeTable(const std::array<Stop, N>& stops) {
    Table table{};
    for (size_t i = 0; i < table.size(); ++i) {
        const double t = double(i) / double(table.size() - 1);
        size_t k = 1;
        while (k + 1 < N && stops[k].at < t) {
            ++k;
        }
        const Stop& a = stops[k - 1];
        const Stop& b = stops[k];
        const double f = std::clamp((t - a.at) / (b.at - a.at), 0.0, 1.0);
        const auto mix = [f](int x, int y) { return int(std::lround(x + (y - x) * f)); };
        table[i] =
            qRgb(mix(qRed(a.colour), qRed(b.colour)), mix(qGreen(a.colour), qGreen(b.colour)),
                 mix(qBlue(a.colour), qBlue(b.colour)));
    }
    return table;
}

// ColorBrewer "Blues" for the light theme: pale for nothing, deep for all.
const Table& lightShares() {
    static const Table table = makeTable(std::array<Stop, 5>{{{0.0, qRgb(247, 251, 255)},
                                                              {0.25, qRgb(198, 219, 239)},
                                                              {0.5, qRgb(107, 174, 214)},
                                                              {0.75, qRgb(33, 113, 181)},
                                                              {1.0, qRgb(8, 48, 107)}}});
    return table;
}

// On a dark page more attention should glow: dim navy up to pale cyan.
const Table& darkShares() {
    static const Table table = makeTable(std::array<Stop, 5>{{{0.0, qRgb(30, 36, 48)},
                                                              {0.25, qRgb(28, 70, 110)},
                                                              {0.5, qRgb(35, 120, 170)},
                                                              {0.75, qRgb(90, 180, 215)},
                                                              {1.0, qRgb(200, 240, 255)}}});
    return table;
}

// ColorBrewer "RdBu" reversed: blue below zero, red above.
const Table& lightChange() {
    static const Table table = makeTable(std::array<Stop, 5>{{{0.0, qRgb(33, 102, 172)},
                                                              {0.25, qRgb(146, 197, 222)},
                                                              {0.5, qRgb(247, 247, 247)},
                                                              {0.75, qRgb(244, 165, 130)},
                                                              {1.0, qRgb(178, 24, 43)}}});
    return table;
}

const Table& darkChange() {
    static const Table table = makeTable(std::array<Stop, 5>{{{0.0, qRgb(67, 147, 235)},
                                                              {0.25, qRgb(45, 85, 130)},
                                                              {0.5, qRgb(40, 42, 48)},
                                                              {0.75, qRgb(140, 60, 55)},
                                                              {1.0, qRgb(240, 100, 80)}}});
    return table;
}

QRgb lookup(const Table& table, double t) {
    if (!(t >= 0.0)) { // also NaN, which never reaches here, but never indexes out
        t = 0.0;
    }
    return table[size_t(std::min(t, 1.0) * 255.0 + 0.5)];
}

} // namespace

QRgb HeatPalette::share(double t) const {
    return lookup(dark ? darkShares() : lightShares(), t);
}

QRgb HeatPalette::change(double t) const {
    return lookup(dark ? darkChange() : lightChange(), (std::clamp(t, -1.0, 1.0) + 1.0) / 2.0);
}

QColor HeatPalette::blocked() const {
    return dark ? QColor(58, 58, 62) : QColor(226, 226, 230);
}

QColor HeatPalette::textOn(QRgb background) {
    const double luminance =
        0.2126 * qRed(background) + 0.7152 * qGreen(background) + 0.0722 * qBlue(background);
    return luminance > 140 ? QColor(20, 20, 24) : QColor(250, 250, 252);
}

} // namespace attnbook
