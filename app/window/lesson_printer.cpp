#include "app/window/lesson_printer.h"

#include "exports/export_request.h"
#include "files/output_policy.h"

#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QPrintDialog>
#include <QPrinter>
#include <QTemporaryDir>
#include <QtPdf/QPdfDocument>

#include <algorithm>

namespace attnbook {

Paper paperForPrinter(const QPageLayout& layout) {
    const QPageSize::PageSizeId id = layout.pageSize().id();
    return id == QPageSize::Letter || id == QPageSize::Legal ? Paper::Letter : Paper::A4;
}

namespace {

// Print to File (PDF): the lesson PDF itself, its text, fonts, links and outline as the export
// wrote them, not pictures of its pages (a 23.5 MB file of 300 dpi images where the PDF is
// 228 kB). Written whole or not at all.
ExportResult copyPdf(const QString& pdfPath, const QString& target) {
    QFile source(pdfPath);
    if (!source.open(QIODevice::ReadOnly)) {
        return ExportResult::failed(QObject::tr("cannot read the PDF to print"));
    }
    const QByteArray bytes = source.readAll();
    QPdfDocument check;
    if (check.load(pdfPath) != QPdfDocument::Error::None || check.pageCount() < 1) {
        return ExportResult::failed(QObject::tr("cannot read the PDF to print"));
    }
    QString error; // "TARGET: cannot write: why"
    if (!writeOutputFile(target, bytes, &error)) {
        return ExportResult::failed(error);
    }
    return ExportResult::done();
}

} // namespace

ExportResult printPdfPages(const QString& pdfPath, QPrinter& printer, int dpi) {
    if (printer.outputFormat() == QPrinter::PdfFormat && !printer.outputFileName().isEmpty()) {
        return copyPdf(pdfPath, printer.outputFileName());
    }
    QPdfDocument document;
    if (document.load(pdfPath) != QPdfDocument::Error::None || document.pageCount() < 1) {
        return ExportResult::failed(QObject::tr("cannot read the PDF to print"));
    }
    // The whole sheet: the PDF brings its own margins.
    printer.setFullPage(true);
    printer.setDocName(document.metaData(QPdfDocument::MetaDataField::Title).toString());
    QPainter painter;
    if (!painter.begin(&printer)) {
        return ExportResult::failed(QObject::tr("cannot start printing"));
    }
    const QRectF sheet = printer.paperRect(QPrinter::DevicePixel);
    const double resolution = std::min(printer.resolution(), dpi);
    for (int page = 0; page < document.pageCount(); ++page) {
        if (page > 0 && !printer.newPage()) {
            painter.end();
            return ExportResult::failed(QObject::tr("cannot add a page to the print job"));
        }
        // The page in points (1/72 inch), fitted to the sheet in device pixels.
        const QSizeF points = document.pagePointSize(page);
        const QSizeF fitted = points.scaled(sheet.size(), Qt::KeepAspectRatio);
        const QRectF target(sheet.left() + (sheet.width() - fitted.width()) / 2,
                            sheet.top() + (sheet.height() - fitted.height()) / 2, fitted.width(),
                            fitted.height());
        const QSize pixels = (points * resolution / 72.0).toSize();
        const QImage rendered = document.render(page, pixels);
        if (rendered.isNull()) {
            painter.end();
            return ExportResult::failed(QObject::tr("cannot render page %1").arg(page + 1));
        }
        // QtPdf leaves the paper transparent: white paper, and no alpha mask for the printer.
        QImage sheetImage(rendered.size(), QImage::Format_RGB32);
        sheetImage.fill(Qt::white);
        QPainter(&sheetImage).drawImage(0, 0, rendered);
        painter.drawImage(target, sheetImage);
    }
    if (!painter.end()) {
        return ExportResult::failed(QObject::tr("cannot finish the print job"));
    }
    return ExportResult::done();
}

LessonPrinter::LessonPrinter(QObject* parent) : QObject(parent) {}

void LessonPrinter::setSession(LessonSession* session) {
    if (session != session_) {
        session_ = session;
        Q_EMIT sessionChanged();
    }
}

ExportResult LessonPrinter::printLessonTo(QPrinter& printer) {
    if (!session_ || !session_->loaded()) {
        return ExportResult::failed(tr("no lesson is open"));
    }
    ExportRequest request;
    request.lessonPdf = true;
    request.paper = paperForPrinter(printer.pageLayout());
    RenderedExport rendered;
    const ExportResult result =
        renderExport(session_->documentText().toStdString(), session_->filePath().toStdString(),
                     session_->lesson().files, request, &rendered);
    if (!result.ok()) {
        return result;
    }
    QTemporaryDir folder;
    const QString path = folder.filePath(QStringLiteral("lesson.pdf"));
    QFile file(path);
    const QByteArray& bytes = rendered.part(QStringLiteral("lesson"))->bytes;
    if (!folder.isValid() || !file.open(QIODevice::WriteOnly) ||
        file.write(bytes) != bytes.size()) {
        return ExportResult::failed(tr("cannot write a temporary copy of the lesson PDF"));
    }
    file.close();
    return printPdfPages(path, printer);
}

bool LessonPrinter::finish(const ExportResult& result, const QString& what) {
    error_ = result.ok() ? QString() : tr("Could not print %1: %2").arg(what, result.error);
    message_ = result.ok() ? tr("Sent %1 to the printer.").arg(what) : QString();
    Q_EMIT statusChanged();
    return result.ok();
}

bool LessonPrinter::printLesson() {
    QPrinter printer(QPrinter::HighResolution);
    // The job's name, and the file's when printing to a file: the lesson's, not "print.pdf".
    if (session_) {
        printer.setDocName(QFileInfo(session_->fileName()).completeBaseName());
    }
    QPrintDialog dialog(&printer);
    dialog.setWindowTitle(tr("Print the lesson"));
    if (dialog.exec() != QDialog::Accepted) {
        return false;
    }
    QGuiApplication::setOverrideCursor(Qt::WaitCursor);
    const ExportResult result = printLessonTo(printer);
    QGuiApplication::restoreOverrideCursor();
    return finish(result, tr("the lesson"));
}

bool LessonPrinter::printPdf(const QUrl& pdf, const QString& title) {
    QPrinter printer(QPrinter::HighResolution);
    printer.setDocName(QFileInfo(pdf.toLocalFile()).completeBaseName());
    QPrintDialog dialog(&printer);
    dialog.setWindowTitle(tr("Print %1").arg(title));
    if (dialog.exec() != QDialog::Accepted) {
        return false;
    }
    QGuiApplication::setOverrideCursor(Qt::WaitCursor);
    const ExportResult result = printPdfPages(pdf.toLocalFile(), printer);
    QGuiApplication::restoreOverrideCursor();
    return finish(result, title);
}

} // namespace attnbook
