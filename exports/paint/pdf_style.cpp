#include "exports/paint/pdf_style.h"

#include "exports/paint/heat_palette.h"

#include <QtGui/QImage>

#include <algorithm>
#include <array>
#include <cmath>

namespace attnbook {

PageGeometry pageGeometry(Paper paper) {
    PageGeometry g;
    g.paper = paper;
    const qreal mm = 72.0 / 25.4;
    g.page = paper == Paper::Letter ? QSizeF(612.0, 792.0) : QSizeF(210.0 * mm, 297.0 * mm);
    // 25 mm at the sides keeps lines near 80 characters; the bottom margin holds the footer.
    g.margins = QMarginsF(25.0 * mm, 22.0 * mm, 25.0 * mm, 24.0 * mm);
    return g;
}

QPageSize PageGeometry::pageSize() const {
    return paper == Paper::Letter ? QPageSize(QPageSize::Letter) : QPageSize(QPageSize::A4);
}

QPaintDevice* layoutDevice() {
    // 72 dpi: 2835 dots per metre round back to 72 in QPaintDevice::logicalDpiX().
    thread_local QImage device = [] {
        QImage image(1, 1, QImage::Format_ARGB32);
        image.setDotsPerMeterX(2835);
        image.setDotsPerMeterY(2835);
        return image;
    }();
    return &device;
}

namespace pdf {

QFont font(const QString& family, qreal points, bool bold, bool italic) {
    QFont f(family);
    f.setPointSizeF(points);
    f.setBold(bold);
    f.setItalic(italic);
    f.setHintingPreference(QFont::PreferNoHinting);
    f.setKerning(true);
    // Qt 6.4 has no QFont::setFeature to turn ligatures off; Latin text needs no shaping.
    f.setStyleStrategy(QFont::PreferNoShaping);
    return f;
}

// The window's light palette (heat_palette.h), so a printed heatmap and the one on screen
// colour every share alike.
QColor heat(double share) {
    return QColor(HeatPalette{}.share(std::isfinite(share) ? share : 0.0));
}

QColor inkOnHeat(double share) {
    return HeatPalette::textOn(heat(share).rgb());
}

QColor seriesColour(int index) {
    static const std::array<QColor, 5> colours = {
        QColor(0x1f, 0x4e, 0x8c), QColor(0xd9, 0x5f, 0x02), QColor(0x1b, 0x9e, 0x77),
        QColor(0x75, 0x70, 0xb3), QColor(0x66, 0x66, 0x66)};
    return colours[size_t(index) % colours.size()];
}

} // namespace pdf

} // namespace attnbook
