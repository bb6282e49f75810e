#include "app/models/figure_saver.h"

#include "app/models/attention_cell_model.h"
#include "app/models/chart_cell_model.h"
#include "exports/output_policy.h"
#include "exports/pdf_figures.h"

#include <QBuffer>
#include <QPainter>
#include <QSvgGenerator>
#include <QUrl>

#include <algorithm>
#include <cmath>

namespace attnbook {
namespace {

constexpr qreal kMargin = 12;  // points of white around the figure
constexpr qreal kPngScale = 3; // pixels per point: 216 dpi, sharp on a projector
constexpr qreal kSharesWidth = 420;
const QSizeF kChartSize(520, 300);

QString localPath(const QString& pathOrUrl) {
    return pathOrUrl.startsWith(QLatin1String("file:")) ? QUrl(pathOrUrl).toLocalFile() : pathOrUrl;
}

} // namespace

std::optional<FigureSaver::Format> FigureSaver::formatOf(const QString& path) {
    if (path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive)) {
        return Format::Svg;
    }
    if (path.endsWith(QLatin1String(".png"), Qt::CaseInsensitive)) {
        return Format::Png;
    }
    return std::nullopt;
}

QByteArray FigureSaver::figureBytes(const Figure& figure, Format format, const QString& title) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (format == Format::Png) {
        renderFigures({figure}, kPngScale, 0, kMargin).save(&buffer, "PNG");
        return bytes;
    }
    // One SVG unit is one point, as in the PDF.
    const QSizeF page(figure.size.width() + 2 * kMargin, figure.size.height() + 2 * kMargin);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(QSize(int(std::ceil(page.width())), int(std::ceil(page.height()))));
    svg.setViewBox(QRectF(QPointF(0, 0), page));
    svg.setResolution(72);
    svg.setTitle(title);
    svg.setDescription(QStringLiteral("attnbook"));
    QPainter painter(&svg);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.fillRect(QRectF(QPointF(0, 0), page), Qt::white);
    painter.translate(kMargin, kMargin);
    figure.paint(painter);
    painter.end();
    return bytes;
}

QString FigureSaver::save(const Figure& figure, const QString& pathOrUrl,
                          const QString& title) const {
    const QString path = localPath(pathOrUrl);
    const std::optional<Format> format = formatOf(path);
    if (!format) {
        return tr("%1: a figure is saved as .svg or .png").arg(path);
    }
    QString error;
    if (!writeOutputFile(path, figureBytes(figure, *format, title), &error)) {
        return error;
    }
    return {};
}

QString FigureSaver::saveHeatmap(AttentionCellModel* cell, int head,
                                 const QString& pathOrUrl) const {
    if (!cell) {
        return tr("no cell to draw");
    }
    const AttentionResult& result = cell->result();
    head = std::clamp(head, 0, std::max(result.h - 1, 0));
    return save(heatmapFigure(result, head), pathOrUrl,
                tr("%1: weights of head %2").arg(cell->cellId()).arg(head + 1));
}

QString FigureSaver::saveShares(AttentionCellModel* cell, int head,
                                const QString& pathOrUrl) const {
    if (!cell) {
        return tr("no cell to draw");
    }
    const AttentionResult& result = cell->result();
    head = std::clamp(head, 0, std::max(result.h - 1, 0));
    const int focus = std::clamp(cell->focus(), 0, std::max(result.n - 1, 0));
    return save(sharesFigure(result, head, focus, kSharesWidth), pathOrUrl,
                tr("%1: shares of token %2").arg(cell->cellId()).arg(focus + 1));
}

QString FigureSaver::saveChart(ChartCellModel* chart, const QString& pathOrUrl) const {
    if (!chart) {
        return tr("no chart to draw");
    }
    return save(chartFigure(chart->spec(), chart->seriesData(), kChartSize), pathOrUrl,
                chart->title());
}

QString FigureSaver::suggestedName(const QString& cellId, const QString& what) {
    QString name = cellId + u'-' + what;
    for (QChar& c : name) {
        if (!c.isLetterOrNumber() && c != u'-' && c != u'_') {
            c = u'_';
        }
    }
    return name + QStringLiteral(".svg");
}

} // namespace attnbook
