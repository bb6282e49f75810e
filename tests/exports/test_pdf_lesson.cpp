// The printed lesson: the numbers of the shipped lesson's cells and its prose are real,
// searchable text in the PDF; the paper sizes; vector figures only; and the page layout rules
// (a view moves whole to the next page, a heading never ends a page, paragraphs break between
// lines with no widow or orphan).
#include "exports/paint/pdf_layout.h"
#include "exports/paint/pdf_prose.h"
#include "exports/pdf/pdf_lesson.h"
#include "tests/exports/pdf_text.h"

#include <QtCore/QTemporaryDir>
#include <QtGui/QTextDocument>
#include <QtPdf/QPdfDocument>
#include <QtTest>

using namespace attnbook;

namespace {

// The text of every page of a PDF, as a reader's search would see it.

class Box : public PdfBox {
  public:
    Box(qreal h, std::vector<qreal> b = {}) : h_(h), b_(std::move(b)) {}
    qreal height() const override { return h_; }
    std::vector<qreal> breaks() const override { return b_; }
    void paint(QPainter&, qreal, qreal) const override {}

  private:
    qreal h_;
    std::vector<qreal> b_;
};

std::shared_ptr<Box> box(qreal h, std::vector<qreal> breaks = {}) {
    return std::make_shared<Box>(h, std::move(breaks));
}

// The pages each box starts on.
std::vector<int> startPages(const PdfSection& section) {
    std::vector<int> out;
    for (const PdfBoxPtr& b : section.boxes) {
        for (size_t p = 0; p < section.pages.size(); ++p) {
            bool found = false;
            for (const PdfPlacement& item : section.pages[p].items) {
                if (item.box == b.get() && item.from == 0) {
                    out.push_back(int(p));
                    found = true;
                }
            }
            if (found) {
                break;
            }
        }
    }
    return out;
}

} // namespace

class TestPdfLesson : public QObject {
    Q_OBJECT

  private Q_SLOTS:
    void initTestCase() {
        lesson_ = loadLesson(ATTNBOOK_SOURCE_DIR "/documents/attention.md");
        QVERIFY(!hasErrors(lesson_.diagnostics));
        AttentionEngine engine;
        results_ = computeLesson(lesson_, engine);
        QVERIFY(!hasErrors(results_.diagnostics));
        QVERIFY(renderLessonPdf(lesson_, results_, Paper::A4, &pdf_).ok());
        pages_ = pdfPageTexts(pdf_);
        QVERIFY(pages_.size() > 5);
        all_ = pages_.join(u' ');
    }

    void numbersAtTheirDigits() {
        // The colour example (attention.md "Worked numbers") in the cells' views and the prose.
        for (const char* number : {"0.3837", "0.2327", "0.2741", "0.4519", "0.7673", "0.5481",
                                   "0.8022", "0.1978", "0.3775", "0.6225", "0.3349", "0.4053",
                                   "0.2599", "0.2013", "0.1547", "0.6440", "1.9093"}) {
            QVERIFY2(all_.contains(QLatin1String(number)), number);
        }
        // The worked arithmetic and the trace as numbered lines.
        QVERIFY(all_.contains(QStringLiteral("total = 1 + 0.6065 + 1 = 2.6065")));
        QVERIFY(all_.contains(QStringLiteral("(11) red: 1 / 2.6065 = 0.3837")));
        QVERIFY(all_.contains(QStringLiteral("3. Scores")));
    }

    // At d_k = 1 the scores are divided by √1: the scores' caption says so, as the cell's
    // header does ("scores ÷ √1"), never "not scaled" beside it. A cell of width 2
    // with the scale turned off is "not scaled" in both.
    void theScaleCaptionAgreesWithTheHeaderAtOneCoordinate() {
        const QString cell =
            QStringLiteral("# One\n\n```attention c\ntokens: [a, b]\nvocab:\n  a: [1]\n  b: [2]\n%1"
                           "views: [matrices]\n```\n");
        const auto pdfText = [](const QString& markdown) {
            const Lesson lesson = parseLesson(markdown.toStdString(), "one.md");
            AttentionEngine engine;
            const LessonResults results = computeLesson(lesson, engine);
            QByteArray pdf;
            return renderLessonPdf(lesson, results, Paper::A4, &pdf).ok()
                       ? pdfPageTexts(pdf).join(u' ')
                       : QString();
        };
        const QString root = pdfText(cell.arg(QString()));
        QVERIFY2(root.contains(QStringLiteral("scores ÷ √1")), qPrintable(root));
        QVERIFY2(root.contains(QStringLiteral("S = Q Kᵀ · s s = 1/√1 = 1")), qPrintable(root));
        QVERIFY2(!root.contains(QStringLiteral("not scaled")), qPrintable(root));
        const QString off = pdfText(QStringLiteral(
            "# Two\n\n```attention c\ntokens: [a, b]\nvocab:\n  a: [1, 0]\n  b: [0, 2]\n"
            "scale: false\nviews: [matrices]\n```\n"));
        QVERIFY2(off.contains(QStringLiteral("scores not scaled")), qPrintable(off));
        QVERIFY2(off.contains(QStringLiteral("S = Q Kᵀ · s not scaled")), qPrintable(off));
    }

    void proseIsSearchableText() {
        QVERIFY(all_.contains(QStringLiteral("One vector for a whole sentence is too narrow")));
        // No ligature glyphs: "first" is found as typed.
        QVERIFY(all_.contains(QStringLiteral("The first neural translation systems")));
        QVERIFY(!all_.contains(QChar(0xFB01)));
        // Bindings are replaced by their values, never printed raw.
        QVERIFY(!all_.contains(QStringLiteral("{{")));
        QVERIFY(all_.contains(QStringLiteral("The shares are [0.3837, 0.2327, 0.3837]")));
        // Code stays code, in its own font.
        QVERIFY(all_.contains(QStringLiteral("def softmax_rows(scores):")));
        // Quiz questions with their choices.
        QVERIFY(all_.contains(QStringLiteral("Question 3.")));
        QVERIFY(all_.contains(QStringLiteral("Exactly half.")));
    }

    // Each challenge's sample answer printed right under it. They are at
    // the end now, on a page of their own, after the last challenge.
    void sampleAnswersComeAfterTheChallenges() {
        const auto pageOf = [this](const QString& text) {
            for (int page = 0; page < pages_.size(); ++page) {
                if (pages_[page].contains(text)) {
                    return page;
                }
            }
            return -1;
        };
        const int lastChallenge = pageOf(QStringLiteral("3. A causal softmax"));
        const int answers = pageOf(QStringLiteral("Sample answers"));
        QVERIFY(lastChallenge >= 0);
        QVERIFY2(answers > lastChallenge, qPrintable(QString::number(answers)));
        // The page's text starts with its footer, then the appendix: nothing of the lesson.
        QVERIFY2(pages_[answers].contains(QRegularExpression(
                     QStringLiteral("^Attention Page \\d+ of \\d+ Sample answers 1\\. Softmax"))),
                 qPrintable(pages_[answers].left(80)));
        QCOMPARE(pageOf(QStringLiteral("def softmax_rows(scores):")), answers);
        QVERIFY(pages_[answers].contains(QStringLiteral("1. Softmax that does not overflow")));
        // The label above each answer is gone: the appendix's title says what they are.
        QCOMPARE(all_.count(QStringLiteral("Sample answer")), 1);
    }

    void titleBlockAndPageNumbers() {
        QVERIFY(pages_.front().contains(QStringLiteral("How each token gathers what it needs")));
        for (int i = 0; i < pages_.size(); ++i) {
            QVERIFY2(
                pages_[i].contains(QStringLiteral("Page %1 of %2").arg(i + 1).arg(pages_.size())),
                qPrintable(QString::number(i)));
        }
    }

    void figuresAreVectors() {
        QVERIFY(!pdf_.contains("/Subtype /Image")); // heatmaps and charts are drawn, not pasted
        QVERIFY(pdf_.contains("/FontFile2"));       // fonts embedded
        QVERIFY(pdf_.contains("DejaVu"));
    }

    void paperSizes() {
        QTemporaryDir dir;
        for (Paper paper : {Paper::A4, Paper::Letter}) {
            QByteArray bytes;
            QVERIFY(renderLessonPdf(lesson_, results_, paper, &bytes).ok());
            const QString path = dir.filePath(QStringLiteral("p.pdf"));
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes);
            f.close();
            QPdfDocument doc;
            QCOMPARE(doc.load(path), QPdfDocument::Error::None);
            const QSizeF size = doc.pagePointSize(0);
            const QSizeF expected = paper == Paper::A4 ? QSizeF(595.3, 841.9) : QSizeF(612, 792);
            QVERIFY(std::abs(size.width() - expected.width()) < 1);
            QVERIFY(std::abs(size.height() - expected.height()) < 1);
        }
    }

    void aBoxThatMustStayWholeMovesToTheNextPage() {
        PdfSection s;
        s.boxes = {box(500), box(200)};
        std::const_pointer_cast<PdfBox>(s.boxes[1])->keepTogether = true;
        paginate(s, 600);
        QCOMPARE(s.pages.size(), size_t(2));
        QCOMPARE(startPages(s), (std::vector<int>{0, 1}));
        QCOMPARE(s.pages[1].items.front().from, 0.0);
        QCOMPARE(s.pages[1].items.front().to, 200.0);
    }

    void aHeadingStaysWithWhatFollows() {
        PdfSection s;
        auto heading = box(30);
        heading->keepWithNext = true;
        auto paragraph = box(120, {24, 48, 72, 96});
        s.boxes = {box(560), heading, paragraph};
        paginate(s, 600);
        // 40 pt of room are left: the heading would fit, its paragraph's first two lines would not.
        QCOMPARE(startPages(s), (std::vector<int>{0, 1, 1}));
    }

    void aParagraphBreaksBetweenLines() {
        PdfSection s;
        s.boxes = {box(520), box(120, {24, 48, 72, 96})};
        paginate(s, 600);
        // 80 pt of room: the cut falls at the last allowed line that fits.
        QCOMPARE(s.pages.size(), size_t(2));
        QCOMPARE(s.pages[0].items.back().to, 72.0);
        QCOMPARE(s.pages[1].items.front().from, 72.0);
        QCOMPARE(s.pages[1].items.front().to, 120.0);
    }

    void proseBoxesKeepHeadingsWithTheirText() {
        auto doc =
            markdownDocument(QStringLiteral("# A heading\n\nSome text.\n\n- one\n- two\n"), 400);
        const std::vector<PdfBoxPtr> boxes = proseBoxes(doc);
        QCOMPARE(boxes.size(), size_t(4));
        QVERIFY(boxes[0]->keepWithNext);
        QVERIFY(!boxes[1]->keepWithNext);
        qreal total = 0;
        for (const PdfBoxPtr& b : boxes) {
            total += b->height();
        }
        QCOMPARE(total, doc->size().height());
    }

  private:
    Lesson lesson_;
    LessonResults results_;
    QByteArray pdf_;
    QStringList pages_;
    QString all_;
};

QTEST_MAIN(TestPdfLesson)
#include "test_pdf_lesson.moc"
