#include "exports/paint/pdf_render.h"

#include "exports/paint/pdf_outline.h"
#include "exports/paint/pdf_style.h"

#include <QtCore/QBuffer>
#include <QtCore/QIODevice>
#include <QtGui/QPageLayout>
#include <QtGui/QPainter>
#include <QtGui/QPdfWriter>

namespace attnbook {

namespace {

void paintPageFurniture(QPainter& p, const PageGeometry& g, const PdfSection& section, int page,
                        int pages) {
    const QRectF content = g.content();
    p.save();
    p.setFont(pdf::font(pdf::kSans, pdf::kTiny));
    p.setPen(pdf::kMuted);
    if (!section.headerLeft.isEmpty() || !section.headerRight.isEmpty()) {
        const QRectF head(content.left(), content.top() - 26, content.width(), 12);
        p.drawText(head, Qt::AlignLeft | Qt::AlignBottom, section.headerLeft);
        p.drawText(head, Qt::AlignRight | Qt::AlignBottom, section.headerRight);
        p.setPen(QPen(pdf::kRule, 0.5));
        p.drawLine(QPointF(content.left(), content.top() - 11),
                   QPointF(content.right(), content.top() - 11));
        p.setPen(pdf::kMuted);
    }
    const QRectF foot(content.left(), content.bottom() + 22, content.width(), 12);
    p.drawText(foot, Qt::AlignLeft | Qt::AlignTop, section.footerLeft);
    p.drawText(foot, Qt::AlignRight | Qt::AlignTop,
               QStringLiteral("Page %1 of %2").arg(page + 1).arg(pages));
    p.restore();
}

} // namespace

ExportResult renderPdf(QIODevice& out, const PageGeometry& g, const PdfDocumentInfo& info,
                       const std::vector<const PdfSection*>& sections, const ExportControl& control,
                       int firstStep, int totalSteps) {
    QByteArray painted;
    QBuffer buffer(&painted);
    buffer.open(QIODevice::WriteOnly);
    QPdfWriter writer(&buffer);
    writer.setResolution(72);
    writer.setPageLayout(QPageLayout(g.pageSize(), QPageLayout::Portrait, QMarginsF(0, 0, 0, 0),
                                     QPageLayout::Point));
    writer.setTitle(info.title);
    writer.setCreator(QStringLiteral("attnbook %1").arg(QStringLiteral(ATTNBOOK_VERSION)));
    QPainter painter;
    if (!painter.begin(&writer)) {
        return ExportResult::failed(QStringLiteral("cannot start a PDF"));
    }
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    const QRectF content = g.content();
    const int total = totalSteps > 0 ? totalSteps : pageCount(sections);
    int step = firstStep;
    bool first = true;
    std::vector<PdfOutlineEntry> outline;
    int pageIndex = 0;
    for (const PdfSection* section : sections) {
        for (size_t n = 0; n < section->pages.size(); ++n) {
            if (control.cancelled()) {
                painter.end();
                return ExportResult::cancelled();
            }
            if (!first && !writer.newPage()) {
                painter.end();
                return ExportResult::failed(QStringLiteral("cannot add a page to the PDF"));
            }
            first = false;
            paintPageFurniture(painter, g, *section, int(n), int(section->pages.size()));
            for (const PdfPlacement& item : section->pages[n].items) {
                if (item.box->outlineLevel > 0 && item.from == 0) {
                    outline.push_back({item.box->outlineLevel, item.box->outlineTitle, pageIndex,
                                       content.top() + item.y});
                }
                painter.save();
                painter.translate(content.left(), content.top() + item.y - item.from);
                item.box->paint(painter, item.from, item.to);
                painter.restore();
            }
            ++step;
            ++pageIndex;
            control.report(step, total, QStringLiteral("page %1").arg(step));
        }
    }
    if (!painter.end()) {
        return ExportResult::failed(QStringLiteral("cannot finish the PDF"));
    }
    QString error;
    const QByteArray finished = addOutlineAndInfo(painted, outline, info, &error);
    if (finished.isEmpty()) {
        return ExportResult::failed(error);
    }
    if (out.write(finished) != finished.size()) {
        return ExportResult::failed(
            QStringLiteral("cannot write the PDF: %1").arg(out.errorString()));
    }
    return ExportResult::done();
}

} // namespace attnbook
