// Every shipped lesson presented once (core/present/presented_lesson.h) and read back from
// each place a reader meets it: the window's prose (LiveLesson), the web page, the notebook,
// the lesson PDF (pdftotext) and the worksheet. They agree part for part: the same headings in
// the same order, every number the prose shows to the digits it shows, the quizzes numbered
// alike with their questions' words, and each exercise named after its section.
#include "exports/html/html_escape.h"
#include "exports/html/lesson_html.h"
#include "exports/notebook/lesson_notebook.h"
#include "exports/pdf/pdf_lesson.h"
#include "exports/worksheet/worksheet_pdf.h"
#include "exports/worksheet/worksheet_variants.h"
#include "files/lesson_source.h"

#include "core/live/live_lesson.h"
#include "core/present/bound_markdown.h"
#include "core/present/presented_lesson.h"
#include "core/present/transformer_views.h"
#include "core/present/view_titles.h"

#include "pdf_tools.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocumentFragment>

#include <algorithm>

namespace attnbook {
namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

// Text as words and numbers only: markup, escapes, punctuation and line breaks out, so that
// Markdown, HTML and a PDF's text compare.
QString words(const QString& text) {
    QString out = text;
    out.replace(QRegularExpression(QStringLiteral("[^\\p{L}\\p{N}.]+")), QStringLiteral(" "));
    out.replace(QRegularExpression(QStringLiteral("\\.(?!\\d)")), QStringLiteral(" "));
    return out.simplified();
}

// What the lesson shows, as presented once: headings in order, the decimal numbers of its
// prose, its quizzes' numbers and questions, and the section of each worksheet exercise.
struct Facts {
    QStringList headings;
    QStringList numbers;
    QStringList questions;   // "3 How many tokens does the cell read"
    QStringList viewTitles;  // each cell's views, titled (view_titles.h)
    QStringList chosenWords; // each transformer cell's next word, where its "next" view shows it
    std::map<std::string, QString> sections; // cell → the heading above it
};

Facts factsOf(const Lesson& lesson, const LessonResults& results) {
    const PresentedLesson shown = presentLesson(lesson, results);
    Facts facts;
    static const QRegularExpression decimal(QStringLiteral("\\d+\\.\\d+"));
    for (const PresentedPart& part : shown.parts) {
        if (part.isCell()) {
            const LessonCell& cell = *part.cell().cell;
            if (const QuizCellSpec* quiz = cell.quiz()) {
                facts.questions << words(QString::number(part.cell().question) + u' ' +
                                         qs(boundMarkdown(quiz->question, results)));
            }
            const std::vector<std::string>* views = cell.attention() ? &cell.attention()->views
                                                    : cell.transformer()
                                                        ? &cell.transformer()->views
                                                        : nullptr;
            for (std::size_t v = 0; views && part.cell().computed && v < views->size(); ++v) {
                facts.viewTitles << words(qs(viewTitle((*views)[v])));
            }
            const TransformerCellSpec* transformer = cell.transformer();
            if (transformer && part.cell().computed && part.cell().computed->transformer &&
                std::ranges::count(transformer->views, "next") > 0) {
                const TransformerResult& result = *part.cell().computed->transformer;
                if (const int chosen = transformer_views::chosenNextWord(result); chosen >= 0) {
                    facts.chosenWords << qs(result.words[std::size_t(chosen)]);
                }
            }
            continue;
        }
        for (const MarkdownHeading& heading : part.prose().headings) {
            facts.headings << words(qs(heading.text));
        }
        // Code blocks are the renderers' own business (the notebook runs them).
        QString prose = qs(part.prose().markdown);
        prose.remove(QRegularExpression(QStringLiteral("```[\\s\\S]*?```")));
        for (const QRegularExpressionMatch& m : decimal.globalMatch(prose)) {
            facts.numbers << m.captured();
        }
    }
    for (const auto& [cell, section] : sectionOfEachCell(shown)) {
        facts.sections[cell] = words(qs(section));
    }
    return facts;
}

// Where each of `wanted` is found in `text`, in order; the first one missing or out of order.
QString firstOutOfOrder(const QStringList& wanted, const QString& text) {
    qsizetype at = 0;
    for (const QString& w : wanted) {
        const qsizetype found = text.indexOf(w, at);
        if (found < 0) {
            return w;
        }
        at = found + w.size();
    }
    return {};
}

QString firstMissing(const QStringList& wanted, const QString& text) {
    for (const QString& w : wanted) {
        if (!text.contains(w)) {
            return w;
        }
    }
    return {};
}

QString windowText(const LiveLesson& live) {
    QString text;
    for (std::size_t piece = 0; piece < live.prose().size(); ++piece) {
        text += qs(live.proseMarkdown(piece)) + u'\n';
    }
    int question = 0;
    for (const LessonCell& cell : live.lesson().cells) {
        if (const QuizCellSpec* quiz = cell.quiz()) {
            // The window shows no quiz numbers: its question words are checked, numbered as
            // the presented lesson numbers them.
            text += QString::number(++question) + u' ' + qs(live.bound(quiz->question)) + u'\n';
        }
    }
    return words(text);
}

QString notebookText(const QByteArray& notebook) {
    QString text;
    const QJsonArray cells = QJsonDocument::fromJson(notebook).object()[u"cells"].toArray();
    for (const QJsonValue& cell : cells) {
        if (cell[u"cell_type"].toString() != QLatin1String("markdown")) {
            continue;
        }
        for (const QJsonValue& line : cell[u"source"].toArray()) {
            text += line.toString();
        }
        text += u'\n';
    }
    return words(text);
}

QString pdfText(const QByteArray& pdf, const QTemporaryDir& dir, const QString& name) {
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(pdf) != pdf.size()) {
        return {};
    }
    file.close();
    return words(pdftools::run(QStringLiteral("pdftotext"), {path, QStringLiteral("-")}));
}

// The PDF's text laid out as on the page (pdftotext -layout): a row of a figure is one line.
QString pdfLayoutText(const QByteArray& pdf, const QTemporaryDir& dir, const QString& name) {
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(pdf) != pdf.size()) {
        return {};
    }
    file.close();
    return pdftools::run(QStringLiteral("pdftotext"),
                         {QStringLiteral("-layout"), path, QStringLiteral("-")});
}

} // namespace
} // namespace attnbook

using namespace attnbook;

class OnePresentationTest : public QObject {
    Q_OBJECT

  private Q_SLOTS:
    void everyReaderSeesTheSameLesson_data() {
        QTest::addColumn<QString>("path");
        const QDir documents(QStringLiteral(ATTNBOOK_SOURCE_DIR "/documents"));
        for (const QString& name : documents.entryList({QStringLiteral("*.md")}, QDir::Files)) {
            QTest::newRow(qPrintable(name)) << documents.filePath(name);
        }
    }

    void everyReaderSeesTheSameLesson() {
        QFETCH(QString, path);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        LiveLesson live;
        live.openBeside(file.readAll().toStdString(), path.toStdString());
        QCOMPARE(live.errorCount(), std::size_t(0));
        const Lesson& lesson = live.lesson();
        const LessonResults& results = live.results();
        const Facts facts = factsOf(lesson, results);
        QVERIFY(!facts.headings.isEmpty());

        QByteArray html, notebook, lessonPdf;
        QVERIFY(renderLessonHtml(lesson, results, &html).ok());
        QVERIFY(renderLessonNotebook(lesson, results, &notebook).ok());
        QVERIFY(renderLessonPdf(lesson, results, Paper::A4, &lessonPdf).ok());
        QTemporaryDir dir;
        const std::pair<const char*, QString> readers[] = {
            {"window", windowText(live)},
            {"web page",
             words(QTextDocumentFragment::fromHtml(QString::fromUtf8(html)).toPlainText())},
            {"notebook", notebookText(notebook)},
            {"PDF", pdfText(lessonPdf, dir, QStringLiteral("lesson.pdf"))},
        };
        for (const auto& [reader, text] : readers) {
            QVERIFY2(!text.isEmpty(), reader);
            const auto fail = [&, r = reader](const char* what, const QString& item) {
                return qPrintable(QStringLiteral("%1: %2 '%3' is not where the presented lesson "
                                                 "has it")
                                      .arg(QLatin1String(r), QLatin1String(what), item));
            };
            // Paper lays tables and figures out around the prose, so the PDF is read for
            // presence; the other readers keep the lesson's order.
            const bool ordered = QLatin1String(reader) != QLatin1String("PDF");
            const auto check = [&](const QStringList& items) {
                return ordered ? firstOutOfOrder(items, text) : firstMissing(items, text);
            };
            QString wrong = check(facts.headings);
            QVERIFY2(wrong.isEmpty(), fail("heading", wrong));
            wrong = check(facts.numbers);
            QVERIFY2(wrong.isEmpty(), fail("number", wrong));
            wrong = check(facts.questions);
            QVERIFY2(wrong.isEmpty(), fail("quiz", wrong));
        }
        // Each cell's views, titled from the one table, on the web page in order and on paper
        // (its figures' captions and drawn titles are markup, so the page is read as written).
        const std::pair<const char*, QString> figures[] = {
            {"web page", words(QString::fromUtf8(html))},
            {"PDF", pdfText(lessonPdf, dir, QStringLiteral("lesson.pdf"))},
        };
        for (const auto& [reader, text] : figures) {
            const QString wrong = QLatin1String(reader) == QLatin1String("PDF")
                                      ? firstMissing(facts.viewTitles, text)
                                      : firstOutOfOrder(facts.viewTitles, text);
            QVERIFY2(
                wrong.isEmpty(),
                qPrintable(
                    QStringLiteral("%1: no view titled '%2'").arg(QLatin1String(reader), wrong)));
        }
        // The next word each transformer cell chose, marked as chosen where its chances are
        // shown: the word, its chance, then the mark, on the web page (a row of the `next`
        // view's table, which the live page redraws) and on paper (a row of the PDF's laid-out
        // text).
        const QString pageHtml = QString::fromUtf8(html);
        const QString paperRows = pdfLayoutText(lessonPdf, dir, QStringLiteral("layout.pdf"));
        qsizetype webAt = 0;
        for (const QString& word : facts.chosenWords) {
            const QRegularExpression marked(
                QStringLiteral("(^|\\s)%1\\s+[0-9.]+\\s+◀ (chosen|greedy pick)")
                    .arg(QRegularExpression::escape(word)),
                QRegularExpression::MultilineOption);
            const QRegularExpression markedRow(
                QStringLiteral("<tr class=\"chosen[^\"]*\"><th scope=\"row\">%1</th>"
                               "<td class=\"track\">[^\n]*<td class=\"chance\">[0-9.]+</td>"
                               "<td class=\"mark\">(chosen|greedy pick)")
                    .arg(QRegularExpression::escape(htmlPageText(word))));
            const QRegularExpressionMatch onWeb = markedRow.match(pageHtml, webAt);
            QVERIFY2(onWeb.hasMatch(),
                     qPrintable(QStringLiteral("web page: '%1' is not the chosen word").arg(word)));
            webAt = onWeb.capturedEnd();
            QVERIFY2(marked.match(paperRows).hasMatch(),
                     qPrintable(QStringLiteral("PDF: '%1' is not the chosen word").arg(word)));
        }
        qInfo("%s: %lld headings, %lld numbers, %lld quizzes agree in the window, the web page, "
              "the notebook and the PDF; %lld view titles and %lld chosen words on the web page "
              "and the PDF",
              qPrintable(QFileInfo(path).fileName()), qlonglong(facts.headings.size()),
              qlonglong(facts.numbers.size()), qlonglong(facts.questions.size()),
              qlonglong(facts.viewTitles.size()), qlonglong(facts.chosenWords.size()));
        // The worksheet names each exercise after the section its cell is in.
        if (lessonHasWorksheet(lesson)) {
            WorksheetOptions options;
            options.answers = false;
            WorksheetFiles sheets;
            QVERIFY(renderWorksheets(lesson, options, &sheets).ok());
            const QString sheet = pdfText(sheets.worksheet, dir, QStringLiteral("sheet.pdf"));
            for (const LessonCell* cell : exerciseCells(lesson)) {
                const QString section = facts.sections.at(cell->id);
                QVERIFY2(section.isEmpty() || sheet.contains(section),
                         qPrintable(QStringLiteral("the exercise of '%1' is not named '%2'")
                                        .arg(qs(cell->id), section)));
            }
        }
    }
};

QTEST_MAIN(OnePresentationTest)
#include "test_one_presentation.moc"
