#include "exports/paint/heat_palette.h"

#include "core/present/heat_colours.h"

namespace attnbook {
namespace {

QRgb qRgbOf(Rgb colour) {
    return qRgb(colour.red, colour.green, colour.blue);
}

} // namespace

// The colours are the core's (core/present/heat_colours.h), which the web page's heatmaps use.
QRgb HeatPalette::share(double t) const {
    return qRgbOf(shareColour(t, dark));
}

QRgb HeatPalette::change(double t) const {
    return qRgbOf(changeColour(t, dark));
}

QColor HeatPalette::blocked() const {
    return dark ? QColor(58, 58, 62) : QColor(226, 226, 230);
}

QColor HeatPalette::textOn(QRgb background) {
    return QColor(
        qRgbOf(attnbook::textOn({qRed(background), qGreen(background), qBlue(background)})));
}

} // namespace attnbook
