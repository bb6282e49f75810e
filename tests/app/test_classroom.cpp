// The window's classroom features through their C++ models: a new word as a token,
// what-if undo one step at a time, a matrix as tab-separated text, one figure saved as SVG or
// PNG, find in the lesson, and the YAML editor's whole-lesson check.
#include "tests/test_files.h"

#include "app/models/attention_cell_model.h"
#include "app/models/cell_list_model.h"
#include "app/models/chart_cell_model.h"
#include "app/models/document_editor.h"
#include "app/models/lesson_search.h"
#include "app/models/lesson_session.h"
#include "app/models/matrix_table_model.h"
#include "app/window/figure_saver.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace attnbook;

namespace {

const QString kWindowLesson = QStringLiteral(WINDOW_FIXTURES "/window.md");

AttentionCellModel* attention(const LessonSession& session, const char* id) {
    return qobject_cast<AttentionCellModel*>(session.cell(QString::fromLatin1(id)));
}

// After an edit the numbers may be computed off the main thread: wait until they are in.
void settled(const AttentionCellModel* cell) {
    QTRY_VERIFY(!cell->property("updating").toBool());
}

} // namespace

class TestClassroom : public QObject {
    Q_OBJECT

  private Q_SLOTS:
    // Typing a word the vocab lacks adds it as a zero vector, which can be edited and kept.
    void aNewWordIsAToken() {
        LessonSession session;
        QVERIFY(session.open(kWindowLesson));
        AttentionCellModel* cell = attention(session, "colour");
        QCOMPARE(cell->addToken(QStringLiteral("purple")), QString());
        settled(cell);
        QCOMPARE(cell->tokens(), (QStringList{"red", "blue", "red", "purple"}));
        QVERIFY(cell->vocabWords().contains(QStringLiteral("purple")));
        const arma::mat x = cell->inputMatrix("X0");
        QCOMPARE(int(x.n_rows), 4);
        QCOMPARE(arma::accu(arma::abs(x.row(3))), 0.0);
        QCOMPARE(cell->setMatrixEntry(QStringLiteral("X0"), 3, 2, QStringLiteral("1")), QString());
        settled(cell);
        QCOMPARE(cell->inputMatrix("X0")(3, 2), 1.0);
        QCOMPARE(cell->keep(), QString());
        const QString text = session.documentText();
        QVERIFY2(text.contains(QStringLiteral("  purple: [0, 0, 1, 0]\n")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("tokens: [red, blue, red, purple]\n")));
        // Refused, with the reason, only when the cell cannot take it.
        QCOMPARE(cell->addToken(QString()), QStringLiteral("a token needs a name"));
        QCOMPARE(cell->addToken(QStringLiteral("two\nlines")),
                 QStringLiteral("a token's name is one line"));
    }

    // Undo takes the what-ifs back one at a time; Reset and Keep end the history.
    void whatIfUndoOneStepAtATime() {
        LessonSession session;
        QVERIFY(session.open(kWindowLesson));
        AttentionCellModel* cell = attention(session, "colour");
        QVERIFY(!cell->canUndoWhatIf());
        QVERIFY(!cell->undoWhatIf());
        QCOMPARE(cell->setHeads(2), QString());
        settled(cell);
        const qint64 first = cell->whatIfStamp();
        QCOMPARE(cell->setMask(QStringLiteral("causal")), QString());
        settled(cell);
        QVERIFY(cell->whatIfStamp() > first);
        // A refused edit is no step.
        QVERIFY(!cell->setHeads(3).isEmpty());
        QVERIFY(cell->undoWhatIf());
        settled(cell);
        QCOMPARE(cell->mask(), QStringLiteral("none"));
        QCOMPARE(cell->heads(), 2);
        QVERIFY(std::abs(cell->outputAt(0, 1) - 0.1978) < 5e-5);
        QVERIFY(cell->undoWhatIf());
        settled(cell);
        QCOMPARE(cell->heads(), 1);
        QVERIFY(!cell->edited());
        QVERIFY(!cell->canUndoWhatIf());
        QVERIFY(std::abs(cell->weight(0, 0, 1) - 0.2327) < 5e-5);

        QCOMPARE(cell->setHeads(2), QString());
        settled(cell);
        cell->reset();
        settled(cell);
        QVERIFY(!cell->canUndoWhatIf());
        QCOMPARE(cell->addToken(QStringLiteral("green")), QString());
        settled(cell);
        QCOMPARE(cell->keep(), QString());
        QVERIFY(!cell->canUndoWhatIf());
    }

    // Ctrl+Z has one timeline: the latest what-if first, in whichever cell it was
    // made, then the next latest, then the document's own edits; the menu names the cell.
    void undoTakesTheLatestWhatIfAcrossCellsThenTheDocument() {
        LessonSession session;
        QVERIFY(session.open(QStringLiteral(ATTNBOOK_SOURCE_DIR "/documents/attention.md")));
        QVERIFY(!session.canUndo());
        const std::string before = session.documentText().toStdString();
        session.editor()->insertBelow(0, QStringLiteral("prose"));
        QVERIFY(session.canUndo());
        QCOMPARE(session.undoCellId(), QString()); // the document's edit
        AttentionCellModel* playground = attention(session, "playground");
        AttentionCellModel* check = attention(session, "grad_check");
        QVERIFY(playground && check);
        QCOMPARE(playground->setHeads(2), QString());
        settled(playground);
        QCOMPARE(check->setMask(QStringLiteral("causal")), QString());
        settled(check);
        QCOMPARE(playground->setMask(QStringLiteral("causal")), QString());
        settled(playground);

        QCOMPARE(session.undoCellId(), QStringLiteral("playground"));
        session.undo();
        settled(playground);
        QCOMPARE(playground->mask(), QStringLiteral("none"));
        QCOMPARE(playground->heads(), 2);
        QCOMPARE(session.undoCellId(), QStringLiteral("grad_check"));
        session.undo();
        settled(check);
        QVERIFY(!check->edited());
        QCOMPARE(session.undoCellId(), QStringLiteral("playground"));
        session.undo();
        settled(playground);
        QVERIFY(!playground->edited());
        // No what-if left: the inserted prose goes, and the document is as it was opened.
        QCOMPARE(session.undoCellId(), QString());
        QVERIFY(session.canUndo());
        session.undo();
        QCOMPARE(session.documentText().toStdString(), before);
        QVERIFY(!session.canUndo());
    }

    void matrixAsTabSeparatedText() {
        LessonSession session;
        QVERIFY(session.open(kWindowLesson));
        AttentionCellModel* cell = attention(session, "colour");
        MatrixTableModel weights;
        weights.setCell(cell);
        weights.setMatrix(QStringLiteral("weights"));
        QCOMPARE(weights.tabSeparated(true), QStringLiteral("\tred\tblue\tred\n"
                                                            "red\t0.3837\t0.2327\t0.3837\n"
                                                            "blue\t0.2741\t0.4519\t0.2741\n"
                                                            "red\t0.3837\t0.2327\t0.3837\n"));
        // Every digit: each number reads back to the same double.
        const QStringList lines = weights.tabSeparated(false).split(u'\n');
        QCOMPARE(lines.size(), 5);
        QCOMPARE(lines[4], QString());
        const QStringList row = lines[1].split(u'\t');
        QCOMPARE(row.size(), 4);
        QCOMPARE(row[2].toDouble(), cell->weight(0, 0, 1));
        // Blocked scores and negative numbers as spreadsheets read them.
        QCOMPARE(cell->setMask(QStringLiteral("causal")), QString());
        QCOMPARE(cell->setMatrixEntry(QStringLiteral("X0"), 1, 0, QStringLiteral("-0.5")),
                 QString());
        settled(cell);
        weights.setMatrix(QStringLiteral("scores"));
        const QString scores = weights.tabSeparated(true);
        QVERIFY2(scores.contains(QStringLiteral("\t-inf")), qPrintable(scores));
        QVERIFY2(scores.contains(QStringLiteral("\t-0.25")), qPrintable(scores));
        QVERIFY(!scores.contains(QChar(0x2212)));
    }

    // One table, one format: "−1" never beside "0.9945". A table of whole numbers
    // writes them whole; once one entry needs decimals, every entry has the same decimals.
    void aTableWritesItsEntriesOneWay() {
        LessonSession session;
        QVERIFY(session.open(kWindowLesson));
        AttentionCellModel* cell = attention(session, "colour");
        MatrixTableModel x0;
        x0.setCell(cell);
        x0.setMatrix(QStringLiteral("X0"));
        QCOMPARE(x0.textAt(0, 0), QStringLiteral("1"));
        QCOMPARE(x0.textAt(0, 1), QStringLiteral("0"));
        QCOMPARE(cell->setMatrixEntry(QStringLiteral("X0"), 1, 0, QStringLiteral("-0.5")),
                 QString());
        settled(cell);
        QCOMPARE(x0.textAt(0, 0), QStringLiteral("1.0000"));
        QCOMPARE(x0.textAt(0, 1), QStringLiteral("0.0000"));
        QCOMPARE(x0.textAt(1, 0), QStringLiteral("\u22120.5000"));
        QCOMPARE(x0.tabSeparated(true).split(u'\n')[1],
                 QStringLiteral("red\t1.0000\t0.0000\t0.0000\t0.0000"));
        // Blocked scores (−∞) are no decimals: the rest decide.
        QCOMPARE(cell->setMask(QStringLiteral("causal")), QString());
        settled(cell);
        MatrixTableModel scores;
        scores.setCell(cell);
        scores.setMatrix(QStringLiteral("scores"));
        QCOMPARE(scores.textAt(0, 1), QStringLiteral("\u2212\u221e"));
        const QRegularExpression fourDecimals(QStringLiteral("^\\d\\.\\d{4}$"));
        QVERIFY2(fourDecimals.match(scores.textAt(0, 0)).hasMatch(),
                 qPrintable(scores.textAt(0, 0)));
    }

    void figuresAsSvgAndPng() {
        LessonSession session;
        QVERIFY(session.open(kWindowLesson));
        AttentionCellModel* cell = attention(session, "colour");
        QTemporaryDir dir;
        FigureSaver saver;
        const QString svg = dir.filePath(QStringLiteral("heatmap.svg"));
        QCOMPARE(saver.saveHeatmap(cell, 0, QUrl::fromLocalFile(svg).toString()), QString());
        const QByteArray bytes = readAll(svg);
        QVERIFY(bytes.startsWith("<?xml"));
        QVERIFY(bytes.contains("<svg"));
        // Vector: the shares are text, not pixels.
        QVERIFY(bytes.contains(">0.23<") || bytes.contains(">0.2327<"));
        QVERIFY(!bytes.contains("<image"));
        const QString png = dir.filePath(QStringLiteral("shares.png"));
        QCOMPARE(saver.saveShares(cell, png), QString());
        QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() > 600);
        // The shares as the window's chart shows them: every head, not head 1 alone.
        QCOMPARE(cell->setHeads(2), QString());
        settled(cell);
        const QString shares = dir.filePath(QStringLiteral("shares.svg"));
        QCOMPARE(saver.saveShares(cell, shares), QString());
        const QByteArray both = readAll(shares);
        QVERIFY2(both.contains(">head 1<") && both.contains(">head 2<"),
                 both.left(4000).constData());
        // Only .svg and .png: never the lesson or its data.
        const QString lesson = dir.filePath(QStringLiteral("lesson.md"));
        QVERIFY(saver.saveHeatmap(cell, 0, lesson).contains(QStringLiteral(".svg or .png")));
        QVERIFY(!QFile::exists(lesson));
        QVERIFY(!saver.saveHeatmap(cell, 0, dir.path() + QStringLiteral("/")).isEmpty());
        QCOMPARE(FigureSaver::suggestedName(QStringLiteral("colour"), QStringLiteral("shares-red")),
                 QStringLiteral("colour-shares-red.svg"));
    }

    void chartFigure() {
        LessonSession session;
        QVERIFY(session.open(kWindowLesson));
        auto* chart = qobject_cast<ChartCellModel*>(session.cell(QStringLiteral("cost")));
        QVERIFY(chart);
        QTemporaryDir dir;
        const QString svg = dir.filePath(QStringLiteral("cost.svg"));
        QCOMPARE(FigureSaver().saveChart(chart, svg), QString());
        QVERIFY(readAll(svg).contains(chart->title().toUtf8()));
    }

    void findInTheLesson() {
        LessonSession session;
        QVERIFY(session.open(kWindowLesson));
        LessonSearch search;
        search.setSession(&session);
        const int colourRow = session.cells()->rowOfCell(QStringLiteral("colour"));
        // Prose as shown: bindings as their values, no Markdown marks.
        search.find(QStringLiteral("0.2327"));
        QVERIFY(search.count() >= 1);
        QCOMPARE(session.cells()->row(search.currentRow()).kind, QStringLiteral("prose"));
        search.find(QStringLiteral("{{colour.head")); // the code block keeps {{colour.output[0]}}
        QCOMPARE(search.count(), 0);
        QCOMPARE(search.status(), QStringLiteral("no match"));
        // Tokens: the cell's two reds, case ignored.
        search.find(QStringLiteral("RED"), colourRow);
        QCOMPARE(search.currentRow(), colourRow);
        QCOMPARE(search.currentOccurrence(), 0);
        int inCell = 0;
        for (const LessonSearch::Hit& hit : search.hits()) {
            inCell += hit.row == colourRow;
        }
        QCOMPARE(inCell, 2);
        QCOMPARE(search.status(),
                 QStringLiteral("%1 of %2").arg(search.current() + 1).arg(search.count()));
        // Next and previous wrap around.
        QSignalSpy moved(&search, &LessonSearch::currentChanged);
        const int total = search.count();
        for (int i = 0; i < total; ++i) {
            search.next();
        }
        QCOMPARE(search.currentRow(), colourRow);
        QCOMPARE(moved.count(), total);
        search.previous();
        search.next();
        QCOMPARE(search.currentRow(), colourRow);
        // A what-if token is found too.
        QCOMPARE(attention(session, "colour")->addToken(QStringLiteral("yellow")), QString());
        settled(attention(session, "colour"));
        search.find(QStringLiteral("yellow"), colourRow);
        QCOMPARE(search.currentRow(), colourRow);
        // Cell names and chart titles.
        search.find(QStringLiteral("cost"));
        QVERIFY(search.count() >= 1);
        search.clear();
        QCOMPARE(search.status(), QString());
        QCOMPARE(search.currentRow(), -1);
    }

    // The live check of the YAML editor is the whole-lesson check `attnbook check` runs.
    void yamlCheckIsTheLessonCheck() {
        LessonSession session;
        QVERIFY(session.open(kWindowLesson));
        DocumentEditor* editor = session.editor();
        const QString body = editor->cellSource(QStringLiteral("colour"));
        QCOMPARE(editor->checkCellSource(QStringLiteral("colour"), body), QString());
        // Only the computation finds this one: 3 heads do not divide a width of 4.
        QString threeHeads = body;
        threeHeads.replace(QStringLiteral("heads: 1"), QStringLiteral("heads: 3"));
        const QString problem = editor->checkCellSource(QStringLiteral("colour"), threeHeads);
        QVERIFY2(problem.startsWith(QStringLiteral("window.md:")), qPrintable(problem));
        QVERIFY2(problem.contains(QStringLiteral("head")), qPrintable(problem));
        // One the edit causes elsewhere: the prose quotes a token the cell no longer has.
        QString oneToken = body;
        oneToken.replace(QStringLiteral("tokens: [red, blue, red]"),
                         QStringLiteral("tokens: [red]"));
        const QString elsewhere = editor->checkCellSource(QStringLiteral("colour"), oneToken);
        QVERIFY2(!elsewhere.isEmpty(), "a binding to weights[0][1] no longer resolves");
        QCOMPARE(editor->checkCellSourceLine(QStringLiteral("colour"), oneToken), -1);
    }

    // The YAML editor's check parsed the lesson under its bare file name, so a lesson
    // whose cells read files found none when attnbook was started in another folder.
    void yamlCheckFindsTheLessonsDataFilesFromAnyFolder() {
        const QString before = QDir::currentPath();
        QTemporaryDir elsewhere;
        QVERIFY(QDir::setCurrent(elsewhere.path()));
        LessonSession session;
        const bool opened =
            session.open(QStringLiteral(ATTNBOOK_SOURCE_DIR "/documents/real-head.md"));
        const QString body = session.editor()->cellSource(QStringLiteral("head"));
        const QString problem = session.editor()->checkCellSource(QStringLiteral("head"), body);
        QDir::setCurrent(before);
        QVERIFY(opened);
        QVERIFY(!body.isEmpty());
        QCOMPARE(session.problems()->errorCount(), 0);
        QCOMPARE(problem, QString());
    }

    // A new lesson has no folder, so its {file: PATH} values come from nowhere — not
    // from the folder attnbook was started in, which would make it check clean here and fail
    // wherever it is saved.
    void aNewLessonReadsNoDataFilesFromTheWorkingFolder() {
        const QString before = QDir::currentPath();
        QVERIFY(QDir::setCurrent(QStringLiteral(ATTNBOOK_SOURCE_DIR "/documents")));
        LessonSession session;
        session.newLesson();
        QFile realHead(QStringLiteral("real-head.md"));
        QVERIFY(realHead.open(QIODevice::ReadOnly));
        session.reloadFromBytes(realHead.readAll().toStdString());
        QDir::setCurrent(before);
        QVERIFY(session.problems()->errorCount() > 0);
        QVERIFY2(session.problems()->problem(0).message.contains(
                     QLatin1String("this lesson has no folder yet")),
                 qPrintable(session.problems()->problem(0).message));
    }
};

QTEST_MAIN(TestClassroom)
#include "test_classroom.moc"
