#include "exports/html/html_figures.h"

#include "exports/html/html_escape.h"

#include <QtCore/QBuffer>
#include <QtCore/QRegularExpression>
#include <QtGui/QPainter>
#include <QtSvg/QSvgGenerator>

#include <cmath>
#include <functional>

namespace attnbook {

namespace {

// Points (the layout's units) to CSS pixels: 72 to 96 per inch, so a figure is as large on
// screen as on paper.
constexpr qreal kPixelsPerPoint = 96.0 / 72.0;

QString number(qreal v) {
    return QString::number(v, 'f', 2).remove(QRegularExpression(QStringLiteral("\\.?0+$")));
}

QString svgOf(QSizeF size, const std::function<void(QPainter&)>& paint, const QString& label) {
    const QSizeF whole(std::max<qreal>(1, std::ceil(size.width())),
                       std::max<qreal>(1, std::ceil(size.height())));
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setResolution(72);
    generator.setSize(whole.toSize());
    generator.setViewBox(QRectF(QPointF(0, 0), whole));
    {
        QPainter painter(&generator);
        painter.setRenderHint(QPainter::Antialiasing);
        paint(painter);
    }
    QString svg = QString::fromUtf8(bytes);
    // The generator's own root element (with its fixed millimetre size, a title and a
    // description) gives way to one that scales with the page and carries the label.
    const qsizetype open = svg.indexOf(QLatin1String("<svg"));
    const qsizetype openEnd = open < 0 ? -1 : svg.indexOf(u'>', open);
    if (openEnd < 0) {
        return {};
    }
    svg = htmlValidCharacters(QStringView(svg).mid(openEnd + 1));
    static const QRegularExpression metadata(
        QStringLiteral("<title>[^<]*</title>\\s*|<desc>[^<]*</desc>\\s*"));
    svg.remove(metadata);
    return QStringLiteral("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %1 %2\" "
                          "width=\"%3\" height=\"%4\" role=\"img\" aria-label=\"%5\">")
               .arg(number(whole.width()), number(whole.height()),
                    number(whole.width() * kPixelsPerPoint),
                    number(whole.height() * kPixelsPerPoint), htmlPageText(label)) +
           svg.trimmed() + u'\n';
}

} // namespace

QString figureSvg(const Figure& figure, const QString& label) {
    return svgOf(figure.size, figure.paint, label);
}

QString boxSvg(const PdfBox& box, qreal width, const QString& label) {
    const qreal height = box.height();
    return svgOf(
        QSizeF(width, height), [&box, height](QPainter& p) { box.paint(p, 0, height); }, label);
}

} // namespace attnbook
