#pragma once
// The printed look shared by every PDF and figure: paper and margins, the fonts (DejaVu, from
// fonts-dejavu-core), the colours. All lengths are PostScript points (1/72 inch): the PDF is
// written at 72 dpi, so painter units, font point sizes and layout units are the same thing.

#include <QtCore/QMarginsF>
#include <QtCore/QRectF>
#include <QtGui/QColor>
#include <QtGui/QFont>
#include <QtGui/QPageSize>

class QPaintDevice;

namespace attnbook {

enum class Paper { A4, Letter };

struct PageGeometry {
    Paper paper = Paper::A4;
    QSizeF page;       // the sheet, points
    QMarginsF margins; // points
    QRectF content() const { return QRectF(QPointF(0, 0), page).marginsRemoved(margins); }
    QPageSize pageSize() const;
};

PageGeometry pageGeometry(Paper paper);

// The device text is measured and laid out for: 72 dpi, like the PDF writer. One per thread,
// so variants can be laid out in parallel.
QPaintDevice* layoutDevice();

namespace pdf {

inline const QString kSerif = QStringLiteral("DejaVu Serif");
inline const QString kSans = QStringLiteral("DejaVu Sans");
inline const QString kMono = QStringLiteral("DejaVu Sans Mono");

// A font for print: unhinted (exact advances at any size) and without ligatures, so that
// "first" is extracted and found as "first", not "ﬁrst".
QFont font(const QString& family, qreal points, bool bold = false, bool italic = false);

// Sizes, points.
constexpr qreal kBody = 10.0;
constexpr qreal kSmall = 8.5; // tables, figure text
constexpr qreal kTiny = 8.0;  // the smallest print: heatmap digits, figure labels, page furniture
constexpr qreal kCaption = 8.5;

// Colours.
inline const QColor kInk = QColor(0x1b, 0x1f, 0x24);
inline const QColor kMuted = QColor(0x5c, 0x63, 0x6e);
inline const QColor kRule = QColor(0xb8, 0xbe, 0xc6);
inline const QColor kFaint = QColor(0xee, 0xf0, 0xf3);
inline const QColor kAccent = QColor(0x1f, 0x4e, 0x8c);
inline const QColor kAnswer = QColor(0xb0, 0x24, 0x1c); // the key's filled-in values
inline const QColor kCodeBackground = QColor(0xf4, 0xf5, 0xf7);

// The shares' colour from 0 to 1: the window's light HeatPalette.
QColor heat(double share);
// Ink that reads on top of heat(share).
QColor inkOnHeat(double share);
// Line colours for chart series, distinct in greyscale print too.
QColor seriesColour(int index);

} // namespace pdf

} // namespace attnbook
