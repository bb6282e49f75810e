#pragma once
// The colours of the heatmaps and their legend, in one place so that the
// squares and the scale always agree. Shares (0 … 1) use one hue that grows
// stronger with the share; a change against the authored cell uses two hues,
// blue for less and red for more, around a neutral middle.

#include <QColor>
#include <QImage>

namespace attnbook {

struct HeatPalette {
    bool dark = false;

    // t in [0, 1]: 0 is no share, 1 all of it.
    QRgb share(double t) const;
    // t in [−1, 1]: the signed change relative to the largest change shown.
    QRgb change(double t) const;
    // The colour of a masked entry, behind its hatching.
    QColor blocked() const;
    // Black or white text, whichever reads on `background`.
    static QColor textOn(QRgb background);
};

} // namespace attnbook
