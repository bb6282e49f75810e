// The lesson as one offline web page (`attnbook export FILE --html OUT.html`). Each
// page is read back by html5lib (Debian's python3-html5lib, html_page_check.py), the parser
// browsers follow, and checked against the lesson PDF of the same lesson:
//   - the four shipped lessons give valid HTML5 (no parse error at all), nothing that fetches
//     (no src, no <link>, no <script>, no url()), no link out of the page, no event handler;
//   - every heading of the PDF's outline is a heading of the page, in order, each in the <nav>;
//   - every cell has on the page as many figures as the PDF gives it, an attention cell its
//     views by name; every quiz its folded answer; every coding challenge its folded sample;
//   - a hostile lesson's text (<script> in prose, a token named `"><img src=x onerror=…>`,
//     `</details>` in a quiz, a javascript: link, an author's HTML comment) stays inert text;
//   - File → Export → Web page and `attnbook export --html` write the same bytes, and a
//     bundle's lesson.html is that page.
#include "tests/test_files.h"

#include "app/models/export_controller.h"
#include "app/models/lesson_session.h"
#include "exports/export_request.h"
#include "exports/html/html_cells.h"
#include "exports/html/html_escape.h"
#include "exports/html/html_live.h"
#include "exports/html/lesson_html.h"
#include "exports/paint/pdf_cells.h"
#include "exports/paint/pdf_transformer.h"
#include "exports/paint/polyline_thinning.h"
#include "exports/pdf/pdf_lesson.h"

#include "core/document/lesson.h"
#include "core/math/attention_engine.h"
#include "core/present/live_marks.h"

#include <quazip/quazip.h>
#include <quazip/quazipfile.h>

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QtCore/QRegularExpression>
#include <QtCore/QSet>
#include <QtCore/QTemporaryDir>
#include <QtTest>

using namespace attnbook;

namespace {

// The page as html5lib reads it (html_page_check.py prints what it found, as JSON).
QJsonObject checkPage(const QByteArray& page) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("page.html"));
    if (!writeAll(path, page)) {
        return {};
    }
    QProcess python;
    python.start(QStringLiteral(ATTNBOOK_PYTHON3),
                 {QStringLiteral(ATTNBOOK_SOURCE_DIR "/tests/exports/html_page_check.py"), path});
    if (!python.waitForFinished(120000) || python.exitCode() != 0) {
        qWarning() << python.readAllStandardError();
        return {};
    }
    return QJsonDocument::fromJson(python.readAllStandardOutput()).object();
}

QStringList strings(const QJsonValue& value) {
    QStringList out;
    for (const QJsonValue& v : value.toArray()) {
        out << v.toString();
    }
    return out;
}

struct Exported {
    QByteArray page;
    Lesson lesson;
    LessonResults results;
};

Exported exportPage(const std::string& text, const std::string& path) {
    Exported out;
    out.lesson = parseLesson(text, path);
    AttentionEngine engine;
    out.results = computeLesson(out.lesson, engine);
    renderLessonHtml(out.lesson, out.results, &out.page);
    return out;
}

// The page runs no script but its own: the module and the page script, each named by its hash
// in the policy (and none at all in a build without the module), and the lesson is inside as
// JSON data that reads back as `lesson` (its bytes with the notes blanked) whatever it holds.
void checkOnlyOwnScripts(const QJsonObject& page, const std::string& lesson) {
    const QString policy = page[QStringLiteral("policy")].toString();
    const QString fetchNothing =
        QStringLiteral("default-src 'none'; style-src 'unsafe-inline'; img-src data:");
    int running = 0;
    int data = 0;
    QStringList hashes;
    for (const QJsonValue& v : page[QStringLiteral("scripts")].toArray()) {
        const QJsonObject script = v.toObject();
        if (script[QStringLiteral("type")].toString() == QStringLiteral("application/json")) {
            ++data;
            const QJsonObject lessonData =
                QJsonDocument::fromJson(script[QStringLiteral("text")].toString().toUtf8())
                    .object();
            QCOMPARE(lessonData[QStringLiteral("markdown")].toString(),
                     QString::fromStdString(lesson));
            continue;
        }
        ++running;
        hashes << script[QStringLiteral("hash")].toString();
    }
    if (livePageModuleBuiltIn()) {
        QCOMPARE(running, 2);
        QCOMPARE(data, 1);
        QCOMPARE(policy, fetchNothing + QStringLiteral("; script-src ") + hashes.join(u' ') +
                             QStringLiteral(" 'wasm-unsafe-eval'; connect-src data:"));
    } else {
        QCOMPARE(running + data, 0);
        QCOMPARE(policy, fetchNothing);
    }
}

Exported exportFile(const QString& path) {
    return exportPage(readAll(path).toStdString(), path.toStdString());
}

const QStringList& shippedLessons() {
    static const QStringList lessons{
        QStringLiteral("attention.md"), QStringLiteral("transformer.md"),
        QStringLiteral("transformers.md"), QStringLiteral("real-head.md")};
    return lessons;
}

QString shipped(const QString& name) {
    return QStringLiteral(ATTNBOOK_SOURCE_DIR "/documents/") + name;
}

// The headings of the lesson PDF's outline, in order.
QStringList pdfOutline(const Lesson& lesson, const LessonResults& results) {
    const PdfSection section = lessonSection(lesson, results, pageGeometry(Paper::A4));
    QStringList titles;
    for (const PdfBoxPtr& box : section.boxes) {
        if (box->outlineLevel > 0) {
            titles << box->outlineTitle;
        }
    }
    return titles;
}

// How many figures the lesson PDF gives each cell (its boxes, less the header).
int pdfFigures(const LessonCell& cell, const ComputedCell& computed) {
    const CellPrintArea area = htmlFigureArea();
    if (const AttentionCellSpec* spec = cell.attention(); spec && computed.attention) {
        return int(attentionCellBoxes(cell.id, *spec, *computed.attention, area).size()) - 1;
    }
    if (const TransformerCellSpec* spec = cell.transformer(); spec && computed.transformer) {
        // The layers' attention boxes, and the note of the layers the PDF leaves out after them,
        // are one figure of HTML on the page (core/present/transformer_view_html.h).
        const std::vector<PdfBoxPtr> boxes =
            transformerCellBoxes(cell, *spec, *computed.transformer, area);
        int figures = 0;
        for (size_t i = 1; i < boxes.size(); ++i) {
            const bool afterAttention = boxes[i - 1]->view == "attention";
            figures +=
                afterAttention && (boxes[i]->view == "attention" || boxes[i]->view.empty()) ? 0 : 1;
        }
        return figures;
    }
    if (const ChartCellSpec* chart = cell.chart(); chart && computed.ok) {
        return int(chartCellBoxes(cell.id, *chart, computed.series, area).size()) - 1;
    }
    return 0;
}

// A lesson made to break out of its text: every string an author controls holds markup.
const char* const kHostileLesson = R"LESSON(---
title: '<script>alert("title")</script> & more'
subtitle: '"><img src=x onerror=alert(0)>'
---

# Hostile <script>alert(1)</script> heading

Prose with <script>alert(2)</script> and <img src=x onerror=alert(3)>, a
[link](javascript:alert(4)), a [spaced one]( JaVa	ScRiPt:alert(8)) and <b onclick="alert(9)">bold</b>.

<!-- a note for authors only: secret-note -->

```attention a
tokens: ['"><img src=x onerror=alert(1)>', blue]
vocab:
  '"><img src=x onerror=alert(1)>': [1, 0, 0, 0]
  blue: [0, 1, 0, 0]
views: [matrices, heatmap]
```

```quiz q
question: 'Which </details><script>alert(5)</script>?'
choices: ['"><img src=x onerror=alert(6)>', other]
answer: 0
explain: '</details>Because <b onmouseover=alert(7)>x</b>.'
```
)LESSON";

// One quiz of each kind; a choice's words and the explanation bind the cell's numbers.
const char* const kQuizLesson = R"LESSON(# Quizzes

```attention c
tokens: [red, blue]
vocab:
  red: [1, 0]
  blue: [0, 1]
controls: [tokens, mask]
```

Red gives blue {{c.head[0].weights[0][1]:4}} of its attention.

```quiz pick
question: How much of its attention does red give blue?
choices:
  - "All of it."
  - "About {{c.head[0].weights[0][1]:2}} of it."
  - "None."
answer: 1
explain: "The share blue gets is {{c.head[0].weights[0][1]:4}}."
```

```quiz number
question: A quarter, as a decimal?
answer: 0.25
```

```quiz words
question: Where does red look most?
answer: At itself.
```
)LESSON";

QJsonObject control(const QString& tag, const QString& type, const QString& value,
                    const QString& label) {
    return {{QStringLiteral("tag"), tag},
            {QStringLiteral("type"), type},
            {QStringLiteral("value"), value},
            {QStringLiteral("label"), label}};
}

} // namespace

class TestLessonHtml : public QObject {
    Q_OBJECT

  private Q_SLOTS:
    // The one escaping function, in text and attribute contexts alike.
    void escapingIsExact() {
        QCOMPARE(htmlPageText(u"a<b>&\"c\"'d'"),
                 QStringLiteral("a&lt;b&gt;&amp;&quot;c&quot;&#39;d&#39;"));
        QCOMPARE(htmlPageText(u"\"><img src=x onerror=alert(1)>"),
                 QStringLiteral("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"));
        // Characters HTML5 forbids become U+FFFD; tab and line feed stay.
        QCOMPARE(htmlPageText(QStringLiteral("a\x01"
                                             "b\tc\nd") +
                              QChar(0x85) + QChar(0xfdd0)),
                 QStringLiteral("a\uFFFDb\tc\nd\uFFFD\uFFFD"));
        QCOMPARE(htmlPageText(QString(QChar(0xd800))), QStringLiteral("\uFFFD"));
        QCOMPARE(htmlPageText(u"√d · −0.5 …"), QStringLiteral("√d · −0.5 …"));
        QCOMPARE(htmlPageHref(u"#part-1"), QStringLiteral("#part-1"));
        QCOMPARE(htmlPageHref(u"https://a.example/?x=1&y=\"2\""),
                 QStringLiteral("https://a.example/?x=1&amp;y=&quot;2&quot;"));
        QCOMPARE(htmlPageHref(u"javascript:alert(1)"), QString());
        QCOMPARE(htmlPageHref(u" JaVa\tScRiPt:alert(1)"), QString());
        QCOMPARE(htmlPageHref(u"data:text/html,<script>"), QString());
        QCOMPARE(htmlPageHref(u"notes.html"), QString());
    }

    void shippedLessonsAreValidOfflinePages_data() {
        QTest::addColumn<QString>("name");
        for (const QString& name : shippedLessons()) {
            QTest::newRow(qPrintable(name)) << name;
        }
    }

    void shippedLessonsAreValidOfflinePages() {
        QFETCH(QString, name);
        const Exported e = exportFile(shipped(name));
        QVERIFY(e.page.startsWith("<!DOCTYPE html>\n<html lang=\"en\">"));
        const QJsonObject page = checkPage(e.page);
        QVERIFY2(!page.isEmpty(), "html_page_check.py did not run (python3-html5lib missing?)");
        QCOMPARE(strings(page[QStringLiteral("errors")]), QStringList());
        QCOMPARE(strings(page[QStringLiteral("fetches")]), QStringList());
        QCOMPARE(strings(page[QStringLiteral("links")]), QStringList());
        QCOMPARE(strings(page[QStringLiteral("handlers")]), QStringList());
        QVERIFY(!e.page.contains("http://") ||
                e.page.count("http://") == e.page.count("xmlns=\"http://www.w3.org/2000/svg\""));
        QVERIFY(!e.page.contains("https://"));
        // No author's note reaches the page.
        QVERIFY(!e.page.contains("&lt;!--"));
        QVERIFY(!e.page.contains("TODO"));

        // Every heading of the PDF's outline, in order, after the title.
        QStringList pageHeadings;
        for (const QJsonValue& h : page[QStringLiteral("headings")].toArray()) {
            pageHeadings << h.toArray().at(1).toString().simplified();
        }
        QStringList expected = pdfOutline(e.lesson, e.results);
        QVERIFY(expected.size() >= 3);
        if (const std::string title = e.lesson.document.frontMatterValue("title"); !title.empty()) {
            expected.prepend(QString::fromStdString(title));
        }
        QCOMPARE(pageHeadings, expected);
        // Each in the outline, each link landing on its heading.
        QStringList navTitles;
        for (const QJsonValue& entry : page[QStringLiteral("nav")].toArray()) {
            QVERIFY2(entry.toArray().at(1).toBool(), qPrintable(entry.toArray().at(0).toString()));
            navTitles << entry.toArray().at(0).toString().simplified();
        }
        QCOMPARE(navTitles, expected);

        // Every figure the PDF has, cell by cell.
        const QJsonObject views = page[QStringLiteral("views")].toObject();
        const QJsonObject quizzes = page[QStringLiteral("quizzes")].toObject();
        int figures = 0;
        for (const LessonCell& cell : e.lesson.cells) {
            const QString id = QStringLiteral("cell-") + QString::fromStdString(cell.id);
            QVERIFY2(views.contains(id), qPrintable(id));
            const ComputedCell* computed = e.results.cell(cell.id);
            QVERIFY(computed);
            const QStringList shown = strings(views[id]);
            if (cell.quiz()) {
                QCOMPARE(quizzes[id].toInt(), 1);
                continue;
            }
            QCOMPARE(shown.size(), pdfFigures(cell, *computed));
            if (const AttentionCellSpec* spec = cell.attention()) {
                QStringList asked;
                for (const std::string& v : spec->views.empty()
                                                ? std::vector<std::string>{"matrices", "heatmap"}
                                                : spec->views) {
                    asked << QString::fromStdString(v);
                }
                QCOMPARE(shown, asked);
            }
            // the views the live page redraws are HTML (core/present/view_html.h,
            // transformer_view_html.h, gradient_view_html.h)
            QStringList drawn = shown;
            for (const char* html :
                 {"matrices", "heatmap", "shares", "arithmetic", "trace", "next", "stream", "ffn",
                  "generation", "cache", "blocks", "knockout", "attention", "settings"}) {
                drawn.removeAll(QString::fromLatin1(html));
            }
            drawn.removeAll(QStringLiteral("gradients"));
            figures += int(drawn.size());
        }
        QCOMPARE(page[QStringLiteral("svg")].toInt(), figures);

        // Each coding challenge's sample answer is folded.
        const int samples = int(readAll(shipped(name)).count("**Sample answer**"));
        QCOMPARE(strings(page[QStringLiteral("folds")]),
                 QStringList(samples, QStringLiteral("Sample answer")));
    }

    // Matrices are tables: the colour cell's shares, as the PDF writes them.
    void matricesAreTables() {
        const Exported e = exportFile(shipped(QStringLiteral("attention.md")));
        const QString page = QString::fromUtf8(e.page);
        QVERIFY(page.contains(QStringLiteral("<table class=\"matrix\">")));
        QVERIFY(page.contains(QStringLiteral(
            "<tr><th scope=\"row\">red</th><td>0.3837</td><td>0.2327</td><td>0.3837</td></tr>")));
    }

    // A blocked entry of a causal cell is marked and reads as the PDF writes it: −∞ among the
    // scores, 0 among the shares.
    void blockedEntriesAreMarked() {
        const Exported e = exportPage("# Causal\n\n```attention c\ntokens: [a, b]\nvocab:\n"
                                      "  a: [1, 0]\n  b: [0, 1]\nmask: causal\n"
                                      "views: [matrices]\n```\n",
                                      "causal.md");
        QVERIFY(!hasErrors(e.lesson.diagnostics));
        const QString page = QString::fromUtf8(e.page);
        const QString blocked =
            QStringLiteral("<td class=\"blocked\" title=\"blocked by the mask\">%1</td>");
        QVERIFY2(page.contains(QStringLiteral("<tr><th scope=\"row\">a</th><td>0.7071</td>") +
                               blocked.arg(QStringLiteral("−∞")) + QStringLiteral("</tr>")),
                 qPrintable(page));
        QVERIFY(page.contains(QStringLiteral("<tr><th scope=\"row\">a</th><td>1.0000</td>") +
                              blocked.arg(QStringLiteral("0")) + QStringLiteral("</tr>")));
        QCOMPARE(page.count(QStringLiteral("class=\"blocked\"")), 2);
    }

    void hostileLessonStaysText() {
        const Exported e = exportPage(kHostileLesson, "hostile.md");
        QVERIFY(!hasErrors(e.lesson.diagnostics));
        QVERIFY(!e.page.isEmpty());
        const QJsonObject page = checkPage(e.page);
        QVERIFY(!page.isEmpty());
        QCOMPARE(strings(page[QStringLiteral("errors")]), QStringList());
        QCOMPARE(strings(page[QStringLiteral("fetches")]), QStringList()); // no <script>, <img>
        QCOMPARE(strings(page[QStringLiteral("handlers")]), QStringList());
        QCOMPARE(strings(page[QStringLiteral("links")]), QStringList()); // javascript: dropped
        QVERIFY(!e.page.contains("secret-note"));
        // The token is shown, as text, where the matrices and the quiz name it.
        const QString text = page[QStringLiteral("text")].toString();
        QVERIFY(text.contains(QStringLiteral("\"><img src=x onerror=alert(1)>")));
        // Raw HTML in Markdown (prose, a choice, a question, an explanation) is text too.
        QVERIFY(text.contains(QStringLiteral("\"><img src=x onerror=alert(6)>")));
        QVERIFY(text.contains(QStringLiteral("Which </details><script>alert(5)</script>?")));
        QVERIFY(text.contains(QStringLiteral("</details>Because <b onmouseover=alert(7)>x</b>.")));
        QVERIFY(text.contains(QStringLiteral("Prose with <script>alert(2)</script> and")));
        QVERIFY(text.contains(QStringLiteral("<b onclick=\"alert(9)\">bold</b>")));
        // The quiz's answer stays folded: one fold, closed once.
        QCOMPARE(page[QStringLiteral("quizzes")].toObject()[QStringLiteral("cell-q")].toInt(), 1);
        QCOMPARE(e.page.count("</details>"), 1);
        QVERIFY(e.page.contains(
            "<title>&lt;script&gt;alert(&quot;title&quot;)&lt;/script&gt; &amp; more</title>"));
        // Nothing could run even so: the page forbids fetches, and every script but its own
        // (html_live.h), each named by its hash; the lesson is inside as JSON data.
        checkOnlyOwnScripts(page, liveLessonSource(e.lesson.document));
    }

    // A live page's quizzes can be answered (docs/web-page.md, "Quizzes"): each a form, hidden
    // until the page is live, its fieldset's legend "Question N", every control labelled, a
    // button and a live region for the verdict, no inline handler and no script but the page's
    // two. The static quiz stays as it was. A build without the module writes no form.
    void quizzesAreLabelledForms() {
        const Exported e = exportPage(kQuizLesson, "quizzes.md");
        QVERIFY(!hasErrors(e.lesson.diagnostics));
        const QJsonObject page = checkPage(e.page);
        QVERIFY(!page.isEmpty());
        QCOMPARE(strings(page[QStringLiteral("errors")]), QStringList());
        QCOMPARE(strings(page[QStringLiteral("handlers")]), QStringList());
        QCOMPARE(strings(page[QStringLiteral("fetches")]), QStringList());
        checkOnlyOwnScripts(page, liveLessonSource(e.lesson.document));
        // The static quizzes: the choices as a list, each answer folded.
        const QJsonObject quizzes = page[QStringLiteral("quizzes")].toObject();
        for (const char* id : {"cell-pick", "cell-number", "cell-words"}) {
            QCOMPARE(quizzes[QLatin1String(id)].toInt(), 1);
        }
        QVERIFY(e.page.contains("<ol class=\"choices\" type=\"A\">"));
        QVERIFY(e.page.contains("Answer: <span class=\"quiz-answer\">0.25</span>"));
        const QJsonArray forms = page[QStringLiteral("quiz_forms")].toArray();
        if (!livePageModuleBuiltIn()) {
            QCOMPARE(forms.size(), 0);
            return;
        }
        QCOMPARE(forms.size(), 3);
        const QJsonArray check{QJsonArray{QStringLiteral("submit"), QStringLiteral("Check")}};
        const QJsonArray verdictRegion{
            QJsonArray{QStringLiteral("status"), QStringLiteral("polite")}};
        const QString yours = QStringLiteral("Your answer");
        const struct {
            const char *section, *quiz, *kind, *legend;
            QJsonArray controls;
            QJsonArray buttons;
        } expected[] = {
            {"cell-pick", "pick", "choice", "Question 1",
             QJsonArray{control("input", "radio", "0", "All of it."),
                        control("input", "radio", "1", "About 0.33 of it."),
                        control("input", "radio", "2", "None.")},
             check},
            {"cell-number", "number", "number", "Question 2",
             QJsonArray{control("input", "text", "", yours)}, check},
            {"cell-words", "words", "text", "Question 3",
             QJsonArray{control("textarea", "", "", yours)},
             QJsonArray{
                 QJsonArray{QStringLiteral("submit"), QStringLiteral("Show the sample answer")}}},
        };
        for (int i = 0; i < 3; ++i) {
            const QJsonObject form = forms[i].toObject();
            QCOMPARE(form[QStringLiteral("section")].toString(),
                     QLatin1String(expected[i].section));
            QCOMPARE(form[QStringLiteral("quiz")].toString(), QLatin1String(expected[i].quiz));
            QCOMPARE(form[QStringLiteral("kind")].toString(), QLatin1String(expected[i].kind));
            QVERIFY(form[QStringLiteral("hidden")].toBool()); // until the page is live
            QCOMPARE(form[QStringLiteral("legend")].toString(), QLatin1String(expected[i].legend));
            QCOMPARE(form[QStringLiteral("controls")].toArray(), expected[i].controls);
            QCOMPARE(form[QStringLiteral("buttons")].toArray(), expected[i].buttons);
            QCOMPARE(form[QStringLiteral("live")].toArray(), verdictRegion);
        }
        // A choice's bound number is a live value in its label too, numbered after the prose's.
        QVERIFY(e.page.contains("data-bind=\"1\" data-path=\"c.head[0].weights[0][1]\" "
                                "data-digits=\"2\">0.33</span> of it.</label>"));
    }

    // A cell's reader controls (html_cell_controls.h): a chip per token whose word and button
    // names carry a hostile token as text, the vocab's words as the new token's choices, the
    // token vectors' grid, the heads stepper, the mask switch, the positional and scale
    // choices, every one labelled.
    void cellControlsAreLabelledAndEscaped() {
        // (no raw string: moc reads its quotes as the ends of strings)
        const char* text = "# Controls\n\n```attention c\n"
                           "tokens: [\"\\\"><img src=x onerror=alert(1)>\", b]\n"
                           "vocab:\n  \"\\\"><img src=x onerror=alert(1)>\": [1, 0]\n"
                           "  b: [0, 1]\n"
                           "controls: [tokens, vectors, heads, mask, positional, scale]\n```\n";
        const Lesson lesson = parseLesson(text, "controls.md");
        QVERIFY(!hasErrors(lesson.diagnostics));
        const QString form = whatIfControlsHtml(*lesson.cell("c"));
        const QString hostile = QStringLiteral("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;");
        QVERIFY2(
            form.contains(
                QStringLiteral("<li class=\"chip\" data-index=\"0\"><span class=\"chip-word\">") +
                hostile +
                QStringLiteral("</span><button type=\"button\" data-op=\"left\" "
                               "aria-label=\"Move token 1 (") +
                hostile + QStringLiteral(") left\" disabled>←</button>")),
            qPrintable(form));
        QVERIFY(form.contains(QStringLiteral("aria-label=\"Remove token 1 (") + hostile +
                              QStringLiteral(")\">×</button></li>")));
        QVERIFY(form.contains(QStringLiteral("<label for=\"what-if-c-add\">New token</label>"
                                             "<select id=\"what-if-c-add\" data-field=\"add\">"
                                             "<option>") +
                              hostile + QStringLiteral("</option><option>b</option></select>")));
        QVERIFY(form.contains(QStringLiteral(
            "<div class=\"control what-if-row\" data-control=\"heads\" role=\"group\" "
            "aria-labelledby=\"what-if-c-heads\" data-allowed=\"1 2\"><span "
            "class=\"control-label\" id=\"what-if-c-heads\">Heads</span>")));
        QVERIFY(form.contains(QStringLiteral(
            "<input type=\"checkbox\" role=\"switch\" id=\"what-if-c-mask\" data-field=\"mask\">"
            "<label for=\"what-if-c-mask\" class=\"switch-label\">Block future tokens (causal "
            "mask)</label>")));
        QVERIFY(form.contains(QStringLiteral(
            "<label for=\"what-if-c-positional\">Positions</label><select "
            "id=\"what-if-c-positional\" data-field=\"positional\"><option value=\"none\" "
            "selected>none</option><option value=\"sinusoidal\">sinusoidal</option></select>")));
        QVERIFY(form.contains(QStringLiteral("<option value=\"sqrt\" selected>1/√d_k</option>")));
        // the token vectors as a grid of numbers, a row named by its token
        QVERIFY(form.contains(
            QStringLiteral("<fieldset class=\"control control-matrix\" data-control=\"vectors\" "
                           "data-matrix=\"X0\"><legend>X0</legend>\n<table "
                           "class=\"matrix-grid\">\n<tr><th scope=\"row\">1 (") +
            hostile +
            QStringLiteral(")</th><td><input type=\"number\" step=\"any\" data-row=\"0\" "
                           "data-col=\"0\" aria-label=\"X0 row 1 (") +
            hostile + QStringLiteral("), column 1\" value=\"1\"></td>")));
        // the lesson's text never leaves its escaping: no tag it could open
        QVERIFY(!form.contains(QStringLiteral("<img")));
        QVERIFY(!form.contains(QStringLiteral("alert(1)>")));
        // every field has its label or its name
        static const QRegularExpression field(QStringLiteral("<(input|select)[^>]*>"));
        for (auto m = field.globalMatch(form); m.hasNext();) {
            const QString tag = m.next().captured(0);
            static const QRegularExpression idOf(QStringLiteral(" id=\"([^\"]+)\""));
            const QRegularExpressionMatch id = idOf.match(tag);
            QVERIFY2(tag.contains(QStringLiteral("aria-label=")) ||
                         (id.hasMatch() &&
                          form.contains(QStringLiteral("<label for=\"") + id.captured(1) + u'"')),
                     qPrintable(tag));
        }
    }

    // Every id on the page is distinct: a heading "Cell a" and the cell `a` both took "cell-a";
    // headings named alike are numbered on.
    void idsAreDistinct() {
        std::string lesson = "# Cell a\n\n```attention a\ntokens: [x]\nvocab: {x: [1]}\n```\n";
        for (int i = 0; i < 3; ++i) {
            lesson += "\n# Again\n";
        }
        const Exported e = exportPage(lesson, "ids.md");
        QVERIFY(!hasErrors(e.lesson.diagnostics));
        static const QRegularExpression idPattern(QStringLiteral(" id=\"([^\"]*)\""));
        QStringList ids;
        for (auto m = idPattern.globalMatch(QString::fromUtf8(e.page)); m.hasNext();) {
            ids << m.next().captured(1);
        }
        QVERIFY(ids.contains(QStringLiteral("cell-a")));
        QVERIFY(ids.contains(QStringLiteral("cell-a-2")));
        QVERIFY(ids.contains(QStringLiteral("again-3")));
        QCOMPARE(QSet<QString>(ids.begin(), ids.end()).size(), ids.size());
    }

    // A control character in a token reached the page raw inside the figures' SVG text (Qt's
    // SVG generator escapes < and &, not controls): the page was invalid HTML. It is U+FFFD now,
    // in the figures (a chart's labels) as in the text and the core's tables (a transformer
    // cell's settings).
    void controlCharactersInFiguresKeepThePageValid() {
        const char* lesson = "# Controls\n\n```attention c\ntokens: [\"a\\x01b\", \"c\\x1bd\"]\n"
                             "vocab: {\"a\\x01b\": [1, 0], \"c\\x1bd\": [0, 1]}\n"
                             "views: [gradients, heatmap, matrices]\n```\n\n"
                             "```transformer t\ntokens: [\"a\\x01b\", \"c\\x1bd\"]\n"
                             "vocab: {\"a\\x01b\": [1, 0], \"c\\x1bd\": [0, 1]}\n"
                             "layers:\n  - {attention: {heads: 1}, ffn: none}\n"
                             "views: [stream, heatmap]\n```\n\n"
                             "```chart k\ntitle: \"a\\x01b\"\n"
                             "x: {label: \"c\\x1bd\", var: n, from: 1, to: 4}\ny: {label: y}\n"
                             "series:\n  - {label: \"a\\x01b\", y: \"n\"}\n```\n";
        const Exported e = exportPage(lesson, "controls.md");
        QVERIFY(!hasErrors(e.lesson.diagnostics));
        // in the chart's figure
        const qsizetype svg = e.page.indexOf("<svg");
        QVERIFY(svg >= 0);
        const QByteArray figure = e.page.mid(svg, e.page.indexOf("</svg>", svg) - svg);
        QVERIFY(figure.contains("a\xef\xbf\xbd"
                                "b"));
        // in the settings' table
        QVERIFY(e.page.contains("<td>a\xef\xbf\xbd"
                                "b, c\xef\xbf\xbd"
                                "d (n = 2)"));
        QVERIFY(!e.page.contains('\x01'));
        QVERIFY(!e.page.contains('\x1b'));
        QVERIFY(e.page.contains("a\xef\xbf\xbd"
                                "b")); // U+FFFD in UTF-8
        const QJsonObject page = checkPage(e.page);
        QCOMPARE(strings(page[QStringLiteral("errors")]), QStringList());
    }

    // A chart of 100,000 points per series draws what its figure can show: at most four
    // vertices per column of a quarter point (polyline_thinning.h). It wrote every point as a
    // vertex: 3.4 MB of SVG for two series.
    void aChartOfManyPointsDrawsWhatItCanShow() {
        const char* lesson = "# Many points\n\n```chart c\ntitle: t\n"
                             "x: {label: n, var: n, from: 1, to: 100, points: 100000}\n"
                             "series:\n  - {label: a, y: \"n\"}\n"
                             "  - {label: b, y: \"sin(n)\"}\n```\n";
        const Exported e = exportPage(lesson, "points.md");
        QVERIFY(!hasErrors(e.lesson.diagnostics));
        // the page without the live page's scripts, which every page carries alike
        const qsizetype scripts = e.page.indexOf("<script");
        const qsizetype drawn = scripts < 0 ? e.page.size() : scripts;
        QVERIFY2(drawn < 200 * 1024, QByteArray::number(drawn));
        QVERIFY(e.page.contains("<polyline") || e.page.contains("<path"));
        QCOMPARE(strings(checkPage(e.page)[QStringLiteral("errors")]), QStringList());
    }

    void thinningKeepsEachColumnsEndsAndExtremes() {
        std::vector<QPointF> wave;
        for (int k = 0; k < 10000; ++k) {
            wave.emplace_back(k * 0.001, std::sin(k * 0.37) * (k % 7));
        }
        const std::vector<QPointF> kept = thinnedPolyline(wave, 0.25);
        QCOMPARE(kept.front(), wave.front());
        QCOMPARE(kept.back(), wave.back());
        // 10 units wide in columns of 0.25: 40 columns, at most 4 vertices each.
        QVERIFY2(kept.size() <= 160, QByteArray::number(qulonglong(kept.size())));
        for (int column = 0; column < 40; ++column) {
            double low = 1e9, high = -1e9, keptLow = 1e9, keptHigh = -1e9;
            for (const QPointF& p : wave) {
                if (int(std::floor(p.x() / 0.25)) == column) {
                    low = std::min(low, p.y());
                    high = std::max(high, p.y());
                }
            }
            for (const QPointF& p : kept) {
                if (int(std::floor(p.x() / 0.25)) == column) {
                    keptLow = std::min(keptLow, p.y());
                    keptHigh = std::max(keptHigh, p.y());
                }
            }
            QCOMPARE(keptLow, low);
            QCOMPARE(keptHigh, high);
        }
        for (size_t k = 1; k < kept.size(); ++k) {
            QVERIFY(kept[k].x() >= kept[k - 1].x()); // in the order the line passes them
        }
        const std::vector<QPointF> few(wave.begin(), wave.begin() + 4);
        QCOMPARE(thinnedPolyline(few, 0.25).size(), size_t(4));
    }

    // The same lesson gives the same bytes: from `attnbook export --html`, from File → Export →
    // Web page, and inside a bundle as lesson.html.
    void windowCommandLineAndBundleAgree() {
        QTemporaryDir dir;
        const QString lesson = shipped(QStringLiteral("attention.md"));
        const QString cliPath = dir.filePath(QStringLiteral("cli.html"));
        QProcess cli;
        cli.start(QStringLiteral(ATTNBOOK_BINARY),
                  {QStringLiteral("export"), lesson, QStringLiteral("--html"), cliPath});
        QVERIFY(cli.waitForFinished(300000));
        QCOMPARE(cli.exitCode(), 0);
        QCOMPARE(QString::fromUtf8(cli.readAllStandardOutput()),
                 cliPath + QStringLiteral(": the lesson as a web page\n"));
        const QByteArray fromCli = readAll(cliPath);
        QVERIFY(fromCli.size() > 10000);

        LessonSession session;
        QVERIFY(session.open(lesson));
        ExportController controller;
        controller.setSession(&session);
        controller.setKind(ExportController::WebPage);
        QVERIFY(controller.request().html && !controller.request().lessonPdf);
        QCOMPARE(controller.suggestedFileName(), QStringLiteral("attention.html"));
        QSignalSpy finished(&controller, &ExportController::renderFinished);
        QVERIFY(controller.renderPreview());
        QVERIFY(finished.wait(300000));
        QVERIFY2(finished.front().front().toBool(), qPrintable(controller.error()));
        QVERIFY(controller.previewUrl().isEmpty());
        QVERIFY2(controller.previewSummary().startsWith(QStringLiteral("Web page: 26 figures · ")),
                 qPrintable(controller.previewSummary()));
        const QString windowPath = dir.filePath(QStringLiteral("window"));
        QCOMPARE(controller.targetsFor(windowPath), QStringList{windowPath + ".html"});
        QVERIFY2(controller.save(windowPath), qPrintable(controller.error()));
        QCOMPARE(readAll(windowPath + QStringLiteral(".html")), fromCli);

        ExportRequest request;
        request.bundle = true;
        RenderedExport rendered;
        QVERIFY(renderExport(readAll(lesson).toStdString(), lesson.toStdString(),
                             dataFilesBeside(lesson.toStdString()), request, &rendered)
                    .ok());
        const QString zipPath = dir.filePath(QStringLiteral("b.zip"));
        QVERIFY(writeAll(zipPath, rendered.part(QStringLiteral("bundle"))->bytes));
        QuaZipFile entry(zipPath, QStringLiteral("lesson.html"));
        QVERIFY(entry.open(QIODevice::ReadOnly));
        QCOMPARE(entry.readAll(), fromCli);
    }

    // Asked with nothing to write it to, or of a lesson with errors, nothing is written.
    void refusedLikeTheOtherExports() {
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bad.md"));
        QVERIFY(writeAll(bad, "# Bad\n\n```attention a\ntokens: [red\n```\n"));
        QProcess cli;
        const QString out = dir.filePath(QStringLiteral("bad.html"));
        cli.start(QStringLiteral(ATTNBOOK_BINARY),
                  {QStringLiteral("export"), bad, QStringLiteral("--html"), out});
        QVERIFY(cli.waitForFinished(300000));
        QCOMPARE(cli.exitCode(), 3);
        const QString errors = QString::fromUtf8(cli.readAllStandardError());
        QVERIFY2(errors.startsWith(bad + QStringLiteral(":")) &&
                     errors.contains(QStringLiteral(": error: ")),
                 qPrintable(errors));
        QVERIFY(!QFile::exists(out));

        QProcess usage;
        usage.start(QStringLiteral(ATTNBOOK_BINARY),
                    {QStringLiteral("export"), shipped(QStringLiteral("attention.md")),
                     QStringLiteral("--html")});
        QVERIFY(usage.waitForFinished(300000));
        QCOMPARE(usage.exitCode(), 2);
    }
};

QTEST_MAIN(TestLessonHtml)
#include "test_lesson_html.moc"
