// Print that reads like a document, checked on both shipped lessons, a worksheet and
// its key by their text and structure as pdftotext and mutool see them: no line printed on two
// pages and no orphaned bullet, bullets with a space, formulas never wrapped inside, no stretched
// gaps, nothing past the margins, no text under 8 pt, chart ticks in one format, an outline of
// the headings, Title/Author/Subject, tall views split rather than leave a third of a page empty,
// code shaded and wrapped, answer boxes at least 22 × 8 mm.
#include "exports/paint/pdf_figures.h"
#include "exports/paint/pdf_layout.h"
#include "exports/paint/pdf_prose.h"
#include "exports/pdf/pdf_lesson.h"
#include "exports/worksheet/worksheet_pdf.h"
#include "tests/exports/pdf_tools.h"

#include <QtCore/QRegularExpression>
#include <QtCore/QStandardPaths>
#include <QtGui/QAbstractTextDocumentLayout>
#include <QtGui/QTextBlock>
#include <QtGui/QTextDocument>
#include <QtGui/QTextFrame>
#include <QtTest>

#include <map>
#include <memory>

using namespace attnbook;

namespace {

constexpr qreal kMm = 72.0 / 25.4;

struct Printed {
    Lesson lesson;
    LessonResults results;
    QByteArray pdf;
    std::unique_ptr<pdftools::PdfFile> file;
};

// A box with row breaks, like a view of several rows.
class Rows : public PdfBox {
  public:
    Rows(qreal h, std::vector<qreal> b) : h_(h), b_(std::move(b)) {}
    qreal height() const override { return h_; }
    std::vector<qreal> breaks() const override { return b_; }
    void paint(QPainter&, qreal, qreal) const override {}

  private:
    qreal h_;
    std::vector<qreal> b_;
};

// The page furniture: "Page 3 of 18" and the lesson's title below every page.
bool furniture(const QString& line, const QString& title) {
    static const QRegularExpression pageNumber(QStringLiteral("^Page \\d+ of \\d+$"));
    return pageNumber.match(line).hasMatch() || line == title;
}

// The lesson's headings as written, outside code blocks, with their level.
std::vector<std::pair<int, QString>> markdownHeadings(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return {};
    }
    std::vector<std::pair<int, QString>> out;
    bool code = false;
    static const QRegularExpression atx(QStringLiteral("^(#{1,6})\\s+(.*?)\\s*#*\\s*$"));
    for (const QString& line : QString::fromUtf8(file.readAll()).split(u'\n')) {
        if (line.startsWith(QLatin1String("```")) || line.startsWith(QLatin1String("~~~"))) {
            code = !code;
            continue;
        }
        if (const auto m = atx.match(line); !code && m.hasMatch()) {
            QString text = m.captured(2);
            text.remove(u'*').remove(u'`');
            out.emplace_back(int(m.captured(1).size()), text);
        }
    }
    return out;
}

} // namespace

class TestPdfPrint : public QObject {
    Q_OBJECT

  private Q_SLOTS:
    void initTestCase() {
        for (const QString& name : {QStringLiteral("attention"), QStringLiteral("transformers")}) {
            Printed& p = printed_[name];
            p.lesson = loadLesson(
                (QStringLiteral(ATTNBOOK_SOURCE_DIR "/documents/") + name + QStringLiteral(".md"))
                    .toStdString());
            QVERIFY(!hasErrors(p.lesson.diagnostics));
            AttentionEngine engine;
            p.results = computeLesson(p.lesson, engine);
            QVERIFY(!hasErrors(p.results.diagnostics));
            QVERIFY(renderLessonPdf(p.lesson, p.results, Paper::A4, &p.pdf).ok());
            p.file = std::make_unique<pdftools::PdfFile>(p.pdf);
            QVERIFY(p.file->ok());
        }
        WorksheetFiles files;
        QVERIFY(renderWorksheets(printed_[QStringLiteral("attention")].lesson, {}, &files).ok());
        worksheet_ = std::make_unique<pdftools::PdfFile>(files.worksheet);
        key_ = std::make_unique<pdftools::PdfFile>(files.answers);
        QVERIFY(worksheet_->ok() && key_->ok());
        for (const char* tool : {"pdftotext", "pdfinfo", "mutool"}) {
            QVERIFY2(!QStandardPaths::findExecutable(QLatin1String(tool)).isEmpty(),
                     "pdftotext, pdfinfo (poppler-utils) and mutool (mupdf-tools) are needed: "
                     "scripts/setup.sh installs them");
        }
    }

    void lessons_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("attention") << QStringLiteral("attention");
        QTest::newRow("transformers") << QStringLiteral("transformers");
    }

    // transformers.pdf printed "works on every token separately…" at the bottom of page 4 and
    // again at the top of page 5, under a bullet of its own.
    void noLineOnTwoPages_data() { lessons_data(); }
    void noLineOnTwoPages() {
        QFETCH(QString, name);
        const Printed& p = printed_[name];
        const QString title = QString::fromStdString(p.lesson.title());
        std::vector<QStringList> pages = pdftools::pageLines(p.file->path());
        QVERIFY(pages.size() > 3);
        for (QStringList& lines : pages) {
            lines.erase(std::remove_if(lines.begin(), lines.end(),
                                       [&](const QString& l) { return furniture(l, title); }),
                        lines.end());
        }
        for (size_t i = 0; i + 1 < pages.size(); ++i) {
            // Where a page breaks: its last lines and the next page's first.
            const QStringList before = pages[i].mid(std::max<qsizetype>(0, pages[i].size() - 6));
            const QStringList after = pages[i + 1].mid(0, 6);
            for (const QString& line : before) {
                QVERIFY2(line.size() < 12 || !after.contains(line),
                         qPrintable(QStringLiteral("page %1 and %2 both print \"%3\"")
                                        .arg(i + 1)
                                        .arg(i + 2)
                                        .arg(line)));
            }
        }
        for (size_t i = 0; i < pages.size(); ++i) {
            for (const QString& line : pages[i]) {
                QVERIFY2(line != QStringLiteral("•"),
                         qPrintable(QStringLiteral("a bullet alone on page %1").arg(i + 1)));
            }
        }
    }

    void bulletsHaveASpace_data() { lessons_data(); }
    void bulletsHaveASpace() {
        QFETCH(QString, name);
        int bullets = 0;
        for (const QStringList& lines : pdftools::pageLines(printed_[name].file->path())) {
            for (const QString& line : lines) {
                if (line.startsWith(u'•')) {
                    ++bullets;
                    QVERIFY2(line.size() > 2 && line[1] == u' ' && !line[2].isSpace(),
                             qPrintable(line));
                }
            }
        }
        QVERIFY(bullets >= 3); // both lessons have bulleted lists
        // On the page the bullet is set off by a space's width at least.
        for (const pdftools::Page& page : pdftools::pageChars(printed_[name].file->path())) {
            for (const pdftools::Line& line : page.lines) {
                for (size_t i = 0; i + 1 < line.chars.size(); ++i) {
                    if (line.chars[i].c == u'•') {
                        size_t next = i + 1;
                        while (next < line.chars.size() && line.chars[next].c.isSpace()) {
                            ++next;
                        }
                        if (next < line.chars.size()) {
                            QVERIFY(line.chars[next].x0 - line.chars[i].x1 >=
                                    0.25 * line.chars[i].size);
                        }
                    }
                }
            }
        }
    }

    // "√4 = / 2": the trace's step title wrapped inside its formula.
    void formulasStayOnOneLine_data() { lessons_data(); }
    void formulasStayOnOneLine() {
        QFETCH(QString, name);
        for (const QStringList& lines : pdftools::pageLines(printed_[name].file->path())) {
            for (const QString& line : lines) {
                for (const char* end : {" =", " ×", " ÷", " ·"}) {
                    QVERIFY2(!line.endsWith(QLatin1String(end)) ||
                                 line.endsWith(QStringLiteral("Q Kᵀ ·")),
                             qPrintable(line));
                }
                QVERIFY2(!line.startsWith(QStringLiteral("= ")), qPrintable(line));
            }
        }
        if (name == QLatin1String("attention")) {
            const QString all = pdftools::run(QStringLiteral("pdftotext"),
                                              {printed_[name].file->path(), QStringLiteral("-")})
                                    .replace(QChar(QChar::Nbsp), u' ');
            QVERIFY(all.contains(QStringLiteral("Scale: divide by √4 = 2")));
        }
    }

    void keptTogetherBindsOperatorsAndBrackets() {
        const QChar nb(QChar::Nbsp);
        QCOMPARE(keptTogether(QStringLiteral("by √4 = 2")),
                 QStringLiteral("by √4") + nb + u'=' + nb + u'2');
        QCOMPARE(keptTogether(QStringLiteral("a [0.5, 0] + b")),
                 QStringLiteral("a [0.5,") + nb + QStringLiteral("0] + b"));
        QCOMPARE(keptTogether(QStringLiteral("plain words")), QStringLiteral("plain words"));
        QCOMPARE(keptTogether(QStringLiteral("(2 × 0.5000) + ((−1) × 0)")),
                 QStringLiteral("(2") + nb + u'×' + nb + QStringLiteral("0.5000) + ((−1)") + nb +
                     u'×' + nb + QStringLiteral("0)"));
        // A remark in brackets is words: it wraps between them, never inside one ("the s hares").
        const QString remark = QStringLiteral(
            "(the arithmetic view subtracts the largest score, 4, first: the shares are the same)");
        QCOMPARE(keptTogether(remark), remark);
    }

    // Justified lines stretched their spaces; ragged right keeps every space its own width.
    void noStretchedGaps_data() { lessons_data(); }
    void noStretchedGaps() {
        QFETCH(QString, name);
        const std::vector<pdftools::SpaceGap> gaps =
            pdftools::spaceGaps(printed_[name].file->path());
        QVERIFY(gaps.size() > 1000);
        for (const pdftools::SpaceGap& gap : gaps) {
            QVERIFY2(gap.ratio < 1.05,
                     qPrintable(QStringLiteral("a space %1 times its width in \"%2\"")
                                    .arg(gap.ratio)
                                    .arg(gap.text)));
        }
    }

    // Code ran into the right margin; nothing may print outside the content width.
    void everythingWithinTheMargins() {
        const PageGeometry g = pageGeometry(Paper::A4);
        for (const pdftools::PdfFile* file :
             {printed_[QStringLiteral("attention")].file.get(),
              printed_[QStringLiteral("transformers")].file.get(), worksheet_.get(), key_.get()}) {
            for (const pdftools::Page& page : pdftools::pageChars(file->path())) {
                for (const pdftools::Line& line : page.lines) {
                    for (const pdftools::Char& c : line.chars) {
                        if (c.c.isSpace()) {
                            continue;
                        }
                        QVERIFY2(c.x0 >= g.margins.left() - 1 &&
                                     c.x1 <= g.page.width() - g.margins.right() + 1,
                                 qPrintable(line.text()));
                    }
                }
            }
        }
    }

    // Heatmap digits were 6–7 pt.
    void noTextUnderEightPoints() {
        for (const pdftools::PdfFile* file :
             {printed_[QStringLiteral("attention")].file.get(),
              printed_[QStringLiteral("transformers")].file.get(), worksheet_.get(), key_.get()}) {
            int chars = 0;
            for (const pdftools::Page& page : pdftools::pageChars(file->path())) {
                for (const pdftools::Line& line : page.lines) {
                    for (const pdftools::Char& c : line.chars) {
                        ++chars;
                        QVERIFY2(
                            c.size >= 7.95,
                            qPrintable(
                                QStringLiteral("%1 pt in \"%2\"").arg(c.size).arg(line.text())));
                    }
                }
            }
            QVERIFY(chars > 1000);
        }
    }

    // A log axis mixed "0.1, 1, 10" with "10², 10³"; a linear one "1e+06" with "100000".
    void chartTicksInOneFormat() {
        QCOMPARE(axisTickLabels({0.01, 0.1, 1, 10, 100, 1000, 10000}, true),
                 (QStringList{"0.01", "0.1", "1", "10", "100", "1,000", "10,000"}));
        QCOMPARE(axisTickLabels({0.1, 1, 10, 100, 1e3, 1e4, 1e5, 1e6}, true),
                 (QStringList{"10⁻¹", "10⁰", "10¹", "10²", "10³", "10⁴", "10⁵", "10⁶"}));
        QCOMPARE(axisTickLabels({0, 200000, 400000, 600000, 800000, 1000000}, false),
                 (QStringList{"0", "200,000", "400,000", "600,000", "800,000", "1,000,000"}));
        QCOMPARE(axisTickLabels({0, 0.5, 1}, false), (QStringList{"0.0", "0.5", "1.0"}));
        QCOMPARE(axisTickLabels({-1, 0, 1}, false), (QStringList{"−1", "0", "1"}));
        const QString all = pdftools::run(
            QStringLiteral("pdftotext"),
            {printed_[QStringLiteral("transformers")].file->path(), QStringLiteral("-")});
        QVERIFY(!all.contains(QStringLiteral("e+")));
        QVERIFY(all.contains(QStringLiteral("10⁷")));   // the y axis, all in powers of ten
        QVERIFY(all.contains(QStringLiteral("10⁰")));   // 1, the first count, as a power too
        QVERIFY(all.contains(QStringLiteral("1,000"))); // the x axis, all plain
    }

    void outlineListsTheHeadings_data() { lessons_data(); }
    void outlineListsTheHeadings() {
        QFETCH(QString, name);
        const auto headings = markdownHeadings(QStringLiteral(ATTNBOOK_SOURCE_DIR "/documents/") +
                                               name + QStringLiteral(".md"));
        const std::vector<pdftools::Bookmark> bookmarks =
            pdftools::outline(printed_[name].file->path());
        QVERIFY(headings.size() >= 5);
        QCOMPARE(bookmarks.size(), headings.size());
        std::vector<int> depths; // a heading nests under the nearest shallower one before it
        for (size_t i = 0; i < headings.size(); ++i) {
            QCOMPARE(bookmarks[i].title, headings[i].second);
            while (!depths.empty() && depths.back() >= headings[i].first) {
                depths.pop_back();
            }
            QCOMPARE(bookmarks[i].depth, int(depths.size()));
            depths.push_back(headings[i].first);
        }
    }

    void documentInformation_data() { lessons_data(); }
    void documentInformation() {
        QFETCH(QString, name);
        const Printed& p = printed_[name];
        const QString path = p.file->path();
        QCOMPARE(pdftools::info(path, QStringLiteral("Title")),
                 QString::fromStdString(p.lesson.title()));
        QCOMPARE(pdftools::info(path, QStringLiteral("Author")),
                 QString::fromStdString(p.lesson.document.frontMatterValue("author")));
        QCOMPARE(pdftools::info(path, QStringLiteral("Subject")),
                 QString::fromStdString(p.lesson.document.frontMatterValue("subtitle")));
        QVERIFY(!pdftools::info(path, QStringLiteral("Author")).isEmpty());
        QCOMPARE(pdftools::info(worksheet_->path(), QStringLiteral("Title")),
                 QStringLiteral("Attention — Worksheet"));
        QCOMPARE(pdftools::info(key_->path(), QStringLiteral("Title")),
                 QStringLiteral("Attention — Answer key"));
    }

    // A view that must stay whole but has rows is cut at a row when moving it would leave more
    // than a third of the page empty, and moved whole when less would be left.
    void aTallViewSplitsAtARowRatherThanLeaveAThirdEmpty() {
        const auto view = [] {
            auto b = std::make_shared<Rows>(300, std::vector<qreal>{100, 200});
            b->keepTogether = true;
            return b;
        };
        PdfSection a;
        a.boxes = {std::make_shared<SpaceBox>(350), view()};
        paginate(a, 600); // 250 pt left (42 %): two rows fit
        QCOMPARE(a.pages.size(), size_t(2));
        QCOMPARE(a.pages[0].items.back().to, 200.0);
        QCOMPARE(a.pages[1].items.front().from, 200.0);
        PdfSection b;
        b.boxes = {std::make_shared<SpaceBox>(450), view()};
        paginate(b, 600); // 150 pt left (25 %): the view moves whole
        QCOMPARE(b.pages[1].items.front().from, 0.0);
        QCOMPARE(b.pages[1].items.front().to, 300.0);
        // A heading that keeps with the view goes with its first part.
        PdfSection c;
        auto heading = std::make_shared<SpaceBox>(30);
        heading->keepWithNext = true;
        c.boxes = {std::make_shared<SpaceBox>(350), heading, view()};
        paginate(c, 600);
        QCOMPARE(c.pages[0].items.size(), size_t(3));
    }

    void aViewTitleIsNeverLeftAlone() {
        FigureRowsBox box(400, 800);
        FigureRowsBox::Row title{{Figure{QSizeF(100, 12), [](QPainter&) {}}}};
        title.keepWithNext = true;
        box.addRow(title);
        box.addRow({{Figure{QSizeF(100, 50), [](QPainter&) {}}}, 14, 6});
        box.addRow({{Figure{QSizeF(100, 50), [](QPainter&) {}}}, 14, 6});
        // Rows start at 0, 12 + 6 and 18 + 50 + 6: no cut between the title and the first row.
        QCOMPARE(box.breaks(), (std::vector<qreal>{74}));
    }

    // Attention p10 and transformers p2 were up to 43 % empty before a view that did not fit.
    void pagesAreUsed_data() { lessons_data(); }
    void pagesAreUsed() {
        QFETCH(QString, name);
        const Printed& p = printed_[name];
        const PageGeometry g = pageGeometry(Paper::A4);
        const PdfSection section = lessonSection(p.lesson, p.results, g);
        const qreal H = g.content().height();
        for (size_t i = 0; i + 1 < section.pages.size(); ++i) {
            const PdfPlacement& last = section.pages[i].items.back();
            const qreal empty = H - (last.y + last.to - last.from);
            if (empty <= H / 3) {
                continue;
            }
            // Only a box that cannot be cut where it would fit may leave that much.
            const PdfPlacement& next = section.pages[i + 1].items.front();
            const std::vector<qreal> breaks = next.box->breaks();
            const bool cuttable = std::any_of(breaks.begin(), breaks.end(), [&](qreal b) {
                return b > next.from + 0.01 && b - next.from <= empty;
            });
            QVERIFY2(
                !cuttable && !next.box->keepWithNext,
                qPrintable(
                    QStringLiteral("page %1 is %2 % empty").arg(i + 1).arg(int(100 * empty / H))));
        }
    }

    // A code block is shaded and its long lines wrap inside the shading.
    void codeIsShadedAndWrapped() {
        const QString longLine = QStringLiteral(
            "result = [sum(w * v[j] for w, v in zip(shares, values)) for j in range(2)] + "
            "[another_long_name_for_the_test(x) for x in range(100)]");
        auto doc = markdownDocument(QStringLiteral("Text.\n\n```python\n") + longLine +
                                        QStringLiteral("\nprint(1)\n```\n"),
                                    300);
        QTextFrame* code = nullptr;
        for (QTextFrame* frame : doc->rootFrame()->childFrames()) {
            code = frame;
        }
        QVERIFY(code);
        QCOMPARE(code->frameFormat().background().color(), pdf::kCodeBackground);
        const QRectF frame = doc->documentLayout()->frameBoundingRect(code);
        QVERIFY(frame.right() <= 300.5);
        const QTextBlock first = code->firstCursorPosition().block();
        QCOMPARE(first.text(), longLine);
        QVERIFY(first.layout()->lineCount() >= 2);
        for (int i = 0; i < first.layout()->lineCount(); ++i) {
            const QTextLine line = first.layout()->lineAt(i);
            QVERIFY(first.layout()->position().x() + line.x() + line.naturalTextWidth() <=
                    frame.right() + 0.5);
        }
    }

    // Answer boxes were about 17 × 5 mm.
    void answerBoxesFitHandwriting() {
        for (const pdftools::PdfFile* file : {worksheet_.get(), key_.get()}) {
            // The boxes: closed rectangles in the rule grey, 0.6 pt.
            const std::vector<QSizeF> boxes = pdftools::strokedRectangles(
                file->path(), QStringLiteral(".72156867 .74509808 .7764706"), QStringLiteral(".6"));
            QVERIFY(boxes.size() >= 20);
            for (const QSizeF& b : boxes) {
                QVERIFY2(b.width() >= 22 * kMm - 0.01 && b.height() >= 8 * kMm - 0.01,
                         qPrintable(QStringLiteral("a box of %1 × %2 mm")
                                        .arg(b.width() / kMm)
                                        .arg(b.height() / kMm)));
            }
        }
    }

  private:
    std::map<QString, Printed> printed_;
    std::unique_ptr<pdftools::PdfFile> worksheet_, key_;
};

QTEST_MAIN(TestPdfPrint)
#include "test_pdf_print.moc"
