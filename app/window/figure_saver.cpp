#include "app/window/figure_saver.h"

#include "app/models/attention_cell_model.h"
#include "app/models/chart_cell_model.h"
#include "app/window/save_dialog.h"
#include "exports/paint/pdf_figures.h"
#include "files/output_policy.h"

#include <QBuffer>
#include <QPainter>
#include <QSvgGenerator>
#include <QUrl>

#include <algorithm>
#include <cmath>
#include <vector>

namespace attnbook {
namespace {

constexpr qreal kMargin = 12;  // points of white around the figure
constexpr qreal kPngScale = 3; // pixels per point: 216 dpi, sharp on a projector
constexpr qreal kSharesWidth = 420;
const QSizeF kChartSize(520, 300);

// `figures` as one, `columns` to a row, each row as tall as its tallest.
Figure gridOf(std::vector<Figure> figures, int columns, qreal gap) {
    columns = std::max(1, std::min(columns, int(figures.size())));
    std::vector<qreal> widths(size_t(columns), 0);
    std::vector<qreal> heights((figures.size() + size_t(columns) - 1) / size_t(columns), 0);
    for (size_t i = 0; i < figures.size(); ++i) {
        widths[i % size_t(columns)] =
            std::max(widths[i % size_t(columns)], figures[i].size.width());
        heights[i / size_t(columns)] =
            std::max(heights[i / size_t(columns)], figures[i].size.height());
    }
    std::vector<QPointF> places;
    for (size_t i = 0; i < figures.size(); ++i) {
        qreal x = 0, y = 0;
        for (size_t c = 0; c < i % size_t(columns); ++c) {
            x += widths[c] + gap;
        }
        for (size_t r = 0; r < i / size_t(columns); ++r) {
            y += heights[r] + gap;
        }
        places.emplace_back(x, y);
    }
    qreal width = -gap, height = -gap;
    for (const qreal w : widths) {
        width += w + gap;
    }
    for (const qreal h : heights) {
        height += h + gap;
    }
    auto paint = [figures = std::move(figures), places](QPainter& p) {
        for (size_t i = 0; i < figures.size(); ++i) {
            p.save();
            p.translate(places[i]);
            figures[i].paint(p);
            p.restore();
        }
    };
    return Figure{QSizeF(std::max<qreal>(width, 0), std::max<qreal>(height, 0)), paint};
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
    const QString path = localFilePath(pathOrUrl);
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

QString FigureSaver::saveShares(AttentionCellModel* cell, const QString& pathOrUrl) const {
    if (!cell) {
        return tr("no cell to draw");
    }
    const AttentionResult& result = cell->result();
    const int focus = std::clamp(cell->focus(), 0, std::max(result.n - 1, 0));
    // Every head, as the window's chart shows them: two to a row, each captioned with its head.
    std::vector<Figure> heads;
    for (int head = 0; head < result.h; ++head) {
        heads.push_back(sharesFigure(result, head, focus, kSharesWidth));
    }
    return save(gridOf(std::move(heads), 2, 24), pathOrUrl,
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
