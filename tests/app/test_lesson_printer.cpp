// File → Print: the paper holds the lesson PDF's pages, rendered by the export route
// at the paper the print dialog chose. The system dialog itself needs a person; what it hands
// on is tested here: a QPrinter writing a PDF file (QPrinter::PdfFormat) stands for the printer,
// and its pages are compared with the lesson PDF's, sheet size, page count and pixels.
#include "app/models/lesson_session.h"
#include "app/window/lesson_printer.h"
#include "exports/export_request.h"
#include "tests/exports/pdf_text.h"
#include "tests/test_files.h"

#include <QFile>
#include <QImage>
#include <QPainter>
#include <QPrinter>
#include <QTemporaryDir>
#include <QtPdf/QPdfDocument>
#include <QtTest>

using namespace attnbook;

namespace {

const QString kLesson = QStringLiteral(ATTNBOOK_SOURCE_DIR "/documents/real-head.md");

// The lesson PDF as `attnbook export --pdf --paper PAPER` renders it, written to `path`.
int writeLessonPdf(const QString& path, Paper paper) {
    QFile source(kLesson);
    if (!source.open(QIODevice::ReadOnly)) {
        return -1;
    }
    ExportRequest request;
    request.lessonPdf = true;
    request.paper = paper;
    RenderedExport rendered;
    const ExportResult result =
        renderExport(source.readAll().toStdString(), kLesson.toStdString(),
                     dataFilesBeside(kLesson.toStdString()), request, &rendered);
    QFile out(path);
    if (!result.ok() || !out.open(QIODevice::WriteOnly)) {
        return -1;
    }
    out.write(rendered.part(QStringLiteral("lesson"))->bytes);
    out.close();
    QPdfDocument document;
    document.load(path);
    return document.pageCount();
}

// A printer that writes what it is sent to `path` as a PDF, on `size` paper.
void toFile(QPrinter& printer, const QString& path, QPageSize::PageSizeId size) {
    printer.setOutputFormat(QPrinter::PdfFormat);
    printer.setOutputFileName(path);
    printer.setPageSize(QPageSize(size));
}

// Page `page` of `document` on white paper, in grey, rendered at 72 dpi and averaged over
// 4 × 4 pixel blocks: text becomes grey blocks, so a page drawn from the printer's 300 dpi image
// and one drawn from the PDF's vectors differ only where their content does.
QImage onPaper(QPdfDocument& document, int page) {
    const QImage rendered = document.render(page, document.pagePointSize(page).toSize());
    QImage paper(rendered.size(), QImage::Format_RGB32);
    paper.fill(Qt::white);
    QPainter(&paper).drawImage(0, 0, rendered);
    return paper.convertToFormat(QImage::Format_Grayscale8)
        .scaled(paper.size() / 4, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
}

// The mean difference of two pages on paper where either has ink, 0 (the same) to 255. A page
// and its print differ by about 5 (the print is a JPEG of the page), two pages of real-head.md
// by 25 or more.
constexpr double kSamePage = 10;
double pageDifference(QPdfDocument& a, int pageOfA, QPdfDocument& b, int pageOfB) {
    const QImage x = onPaper(a, pageOfA);
    const QImage y = onPaper(b, pageOfB);
    if (x.size() != y.size() || x.isNull()) {
        return 255;
    }
    double sum = 0;
    int inked = 0;
    for (int row = 0; row < x.height(); ++row) {
        const uchar* p = x.constScanLine(row);
        const uchar* q = y.constScanLine(row);
        for (int col = 0; col < x.width(); ++col) {
            if (p[col] < 250 || q[col] < 250) {
                sum += std::abs(int(p[col]) - int(q[col]));
                ++inked;
            }
        }
    }
    return inked ? sum / inked : 0;
}

} // namespace

class TestLessonPrinter : public QObject {
    Q_OBJECT

  private Q_SLOTS:
    void paperFollowsThePrinter() {
        const auto layout = [](QPageSize::PageSizeId id) {
            return QPageLayout(QPageSize(id), QPageLayout::Portrait, QMarginsF());
        };
        QCOMPARE(paperForPrinter(layout(QPageSize::Letter)), Paper::Letter);
        QCOMPARE(paperForPrinter(layout(QPageSize::Legal)), Paper::Letter);
        QCOMPARE(paperForPrinter(layout(QPageSize::A4)), Paper::A4);
        QCOMPARE(paperForPrinter(layout(QPageSize::A5)), Paper::A4);
    }

    // Every page of the PDF on one sheet each, 1:1 when the paper matches.
    void pagesGoOneToASheet() {
        QTemporaryDir dir;
        const QString lessonPath = dir.filePath(QStringLiteral("lesson.pdf"));
        const int pages = writeLessonPdf(lessonPath, Paper::Letter);
        QVERIFY(pages > 1);
        QPrinter printer(QPrinter::HighResolution);
        const QString printed = dir.filePath(QStringLiteral("printed.pdf"));
        toFile(printer, printed, QPageSize::Letter);
        QVERIFY(printPdfPages(lessonPath, printer).ok());
        QPdfDocument lesson, paper;
        QCOMPARE(lesson.load(lessonPath), QPdfDocument::Error::None);
        QCOMPARE(paper.load(printed), QPdfDocument::Error::None);
        QCOMPARE(paper.pageCount(), pages);
        for (int page = 0; page < pages; ++page) {
            QCOMPARE(paper.pagePointSize(page).toSize(), QSize(612, 792));
            const double difference = pageDifference(lesson, page, paper, page);
            QVERIFY2(difference < kSamePage, qPrintable(QString::number(difference)));
        }
        // The measure tells pages apart: the next page is far from this one.
        for (int page = 0; page + 1 < pages; ++page) {
            QVERIFY(pageDifference(lesson, page, paper, page + 1) > 2 * kSamePage);
        }
        QVERIFY(!printPdfPages(dir.filePath(QStringLiteral("none.pdf")), printer).ok());
    }

    // File → Print renders the lesson at the paper the dialog chose: on A4 the A4 lesson PDF,
    // on Letter the Letter one, each page the same as `export --pdf --paper` gives.
    void theLessonIsRenderedForThePaperChosen() {
        LessonSession session;
        QVERIFY(session.open(kLesson));
        LessonPrinter printer;
        printer.setSession(&session);
        QTemporaryDir dir;
        for (const auto& [size, paper, points] :
             {std::tuple{QPageSize::A4, Paper::A4, QSize(595, 842)},
              std::tuple{QPageSize::Letter, Paper::Letter, QSize(612, 792)}}) {
            const QString lessonPath = dir.filePath(QStringLiteral("lesson-%1.pdf").arg(int(size)));
            const int pages = writeLessonPdf(lessonPath, paper);
            QPrinter device(QPrinter::HighResolution);
            const QString printed = dir.filePath(QStringLiteral("printed-%1.pdf").arg(int(size)));
            toFile(device, printed, size);
            const ExportResult result = printer.printLessonTo(device);
            QVERIFY2(result.ok(), qPrintable(result.error));
            QPdfDocument lesson, sheets;
            QCOMPARE(lesson.load(lessonPath), QPdfDocument::Error::None);
            QCOMPARE(sheets.load(printed), QPdfDocument::Error::None);
            QCOMPARE(sheets.pageCount(), pages);
            QCOMPARE(sheets.pagePointSize(0).toSize(), points);
            QCOMPARE(lesson.pagePointSize(0).toSize(), points);
            for (int page = 0; page < pages; ++page) {
                const double difference = pageDifference(lesson, page, sheets, page);
                QVERIFY2(difference < kSamePage, qPrintable(QString::number(difference)));
            }
        }
    }

    // Print to File writes the lesson PDF itself: text a reader can search (the lesson's
    // headings), small (transformer.md under 2 MB; its pages as images were 23.5 MB).
    void printToFileIsTheLessonPdfWithItsText() {
        LessonSession session;
        QVERIFY(session.open(QStringLiteral(ATTNBOOK_SOURCE_DIR "/documents/transformer.md")));
        LessonPrinter printer;
        printer.setSession(&session);
        QTemporaryDir dir;
        QPrinter device(QPrinter::HighResolution);
        const QString printed = dir.filePath(QStringLiteral("transformer.pdf"));
        toFile(device, printed, QPageSize::A4);
        const ExportResult result = printer.printLessonTo(device);
        QVERIFY2(result.ok(), qPrintable(result.error));
        const QByteArray bytes = readAll(printed);
        QVERIFY(bytes.startsWith("%PDF"));
        QVERIFY2(bytes.size() < 2 * 1024 * 1024, qPrintable(QString::number(bytes.size())));
        const QString text = pdfPageTexts(bytes).join(QLatin1Char(' '));
        for (const char* heading :
             {"Attention was only one part", "The residual stream", "Coding challenges"}) {
            QVERIFY2(text.contains(QLatin1String(heading)), heading);
        }
    }

    void nothingToPrintWithoutALesson() {
        LessonPrinter printer;
        QPrinter device;
        QTemporaryDir dir;
        toFile(device, dir.filePath(QStringLiteral("x.pdf")), QPageSize::A4);
        QVERIFY(!printer.printLessonTo(device).ok());
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("x.pdf"))));
    }
};

QTEST_MAIN(TestLessonPrinter)
#include "test_lesson_printer.moc"
