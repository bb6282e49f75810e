// The window's C++ models: each list and table model under
// QAbstractItemModelTester while the lesson is edited, the edits and their
// refusals, what "Keep" writes, and the pieces the prose is cut into.
// Longer than 500 lines on purpose: every model is tested against the same opened lessons and
// under the same QAbstractItemModelTester set-up.
#include "app/models/attention_cell_model.h"
#include "app/models/cell_list_model.h"
#include "app/models/chart_cell_model.h"
#include "app/models/lesson_session.h"
#include "app/models/matrix_table_model.h"
#include "app/models/number_text.h"
#include "app/models/outline_model.h"
#include "app/models/problem_list_model.h"
#include "app/models/quiz_cell_model.h"
#include "app/window/heatmap_item.h"
#include "core/document/editable_attention.h"
#include "core/document/lesson.h"
#include "core/document/sample_answers.h"
#include "core/present/prose_rows.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QImage>
#include <QPainter>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace attnbook;

namespace {

const QString kWindowLesson = QStringLiteral(WINDOW_FIXTURES "/window.md");
const QString kBrokenLesson = QStringLiteral(WINDOW_FIXTURES "/broken.md");

AttentionCellModel* attention(const LessonSession& session, const char* id) {
    return qobject_cast<AttentionCellModel*>(session.cell(QString::fromLatin1(id)));
}

} // namespace

class WindowModelsTest : public QObject {
    Q_OBJECT

  private Q_SLOTS:
    void cellListUnderTester() {
        LessonSession session;
        QAbstractItemModelTester tester(session.cells(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(session.open(kWindowLesson));
        const CellListModel* cells = session.cells();
        QCOMPARE(cells->row(0).kind, QStringLiteral("prose"));
        const int colour = cells->rowOfCell(QStringLiteral("colour"));
        QCOMPARE(cells->row(colour).kind, QStringLiteral("attention"));
        QCOMPARE(cells->data(cells->index(colour), CellListModel::CellObjectRole).value<QObject*>(),
                 session.cell(QStringLiteral("colour")));
        // An edit rewrites only the prose that quotes the cell, and only its Markdown.
        QSignalSpy changed(cells, &QAbstractItemModel::dataChanged);
        QCOMPARE(attention(session, "colour")->setHeads(2), QString());
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.at(0).at(0).toModelIndex().row(), 0);
        QCOMPARE(changed.at(0).at(2).value<QList<int>>(), QList<int>{CellListModel::MarkdownRole});
        QVERIFY(cells->row(0).markdown.contains(QStringLiteral("gives 0.1978 of its")));
        // Opening another lesson resets the list.
        QVERIFY(!session.open(kBrokenLesson));
    }

    // The problems panel says what check says: the cell meant for a
    // misspelt id, and one error for the bindings that read past a cell's last token.
    void problemsSuggestAndFold() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("typo.md"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("# Typo\n\n```attention colour\ntokens: [red, blue]\nvocab:\n"
                "  red: [1, 0]\n  blue: [0, 1]\n```\n\n"
                "{{coluor.n}} and {{colour.output[2]}}, {{colour.output[3]}}.\n");
        f.close();
        LessonSession session;
        QVERIFY(!session.open(path));
        const ProblemListModel* problems = session.problems();
        QCOMPARE(problems->count(), 2);
        QCOMPARE(problems->problem(0).message,
                 QStringLiteral("binding {{coluor.n}}: no cell 'coluor' to bind to — did you "
                                "mean 'colour'?"));
        QCOMPARE(problems->problem(1).message,
                 QStringLiteral("this and 1 more binding (to line 10) read past the end of "
                                "colour's lists: binding {{colour.output[2]}}: colour.output has "
                                "2 entries, so [2] is out of range"));
    }

    // A lesson of 12,000 rows opens with the first 10,000 laid out and a warning that says so
    // and why: every row is an item of the window's column, and 80,000 took a minute.
    void aVeryLongLessonShowsItsFirstRowsAndSaysSo() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("long.md"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        for (int i = 0; i < 12000; ++i) { // a heading and its paragraph are one row
            f.write("# Part\n\nText " + QByteArray::number(i) + ".\n\n");
        }
        f.close();
        LessonSession session;
        QVERIFY(session.open(path)); // a warning, not an error
        QCOMPARE(session.cells()->count(), 10000);
        const ProblemListModel* problems = session.problems();
        QCOMPARE(problems->count(), 1);
        QVERIFY(!problems->problem(0).error);
        QCOMPARE(problems->problem(0).message,
                 QStringLiteral("the window shows the first 10,000 of this lesson's 12,000 rows "
                                "(paragraphs, headings and cells): all of them would take about "
                                "6 s to lay out. check, compute and export read the whole "
                                "lesson; a lesson this long reads better split in parts"));
    }

    void problemsAndOutlineUnderTester() {
        LessonSession session;
        QAbstractItemModelTester problemsTester(
            session.problems(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester outlineTester(
            session.outline(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(!session.open(kBrokenLesson));
        const ProblemListModel* problems = session.problems();
        QCOMPARE(problems->errorCount(), 2);
        QCOMPARE(problems->problem(0).location, QStringLiteral("broken.md:10:15"));
        QCOMPARE(problems->problem(0).targetRow, session.cells()->rowOfCell(QStringLiteral("bad")));
        QVERIFY(problems->problem(1).message.contains(QStringLiteral("do not divide")));
        QCOMPARE(problems->data(problems->index(0), Qt::DisplayRole).toString(),
                 QStringLiteral("broken.md:10:15: error: the token 'purple' is not in the vocab"));
        // The cell with errors shows its source and why; the others are live.
        const CellListModel* cells = session.cells();
        const CellListModel::Row& bad = cells->row(cells->rowOfCell(QStringLiteral("bad")));
        QCOMPARE(bad.kind, QStringLiteral("broken"));
        QVERIFY(bad.markdown.startsWith(QStringLiteral("```attention bad")));
        QCOMPARE(bad.problems.size(), 1);
        QVERIFY(attention(session, "good"));
        QCOMPARE(session.outline()->count(), 2);
        QVERIFY(session.open(kWindowLesson));
        QCOMPARE(session.problems()->count(), 0);
        QCOMPARE(session.outline()->count(), 3);
    }

    void unreadableFileStillOpens() {
        LessonSession session;
        QVERIFY(!session.open(QStringLiteral(WINDOW_FIXTURES "/no-such-lesson.md")));
        QCOMPARE(session.problems()->count(), 1);
        QCOMPARE(session.problems()->problem(0).location, QStringLiteral("no-such-lesson.md"));
        QCOMPARE(session.cells()->count(), 0);
    }

    void bundledLessonOpensWithoutErrors() {
        LessonSession session;
        QVERIFY(session.open(QString()));
        QVERIFY(session.bundled());
        QCOMPARE(session.title(), QStringLiteral("Attention"));
        QVERIFY(attention(session, "playground"));
    }

    void matrixModelUnderTester() {
        LessonSession session;
        QVERIFY(session.open(kWindowLesson));
        AttentionCellModel* cell = attention(session, "colour");
        MatrixTableModel weights;
        QAbstractItemModelTester tester(&weights,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        weights.setCell(cell);
        weights.setMatrix(QStringLiteral("weights"));
        QCOMPARE(weights.rowCount(), 3);
        QCOMPARE(weights.headerData(1, Qt::Horizontal).toString(), QStringLiteral("blue"));
        QCOMPARE(weights.data(weights.index(0, 1)).toString(), QStringLiteral("0.2327"));
        weights.setDigits(2);
        QCOMPARE(weights.data(weights.index(0, 1)).toString(), QStringLiteral("0.23"));
        QCOMPARE(weights.data(weights.index(0, 0), MatrixTableModel::FocusRole).toBool(), true);
        // Same shape: one dataChanged; a new token: a reset.
        QSignalSpy reset(&weights, &QAbstractItemModel::modelReset);
        QCOMPARE(cell->setMask(QStringLiteral("causal")), QString());
        QCOMPARE(reset.count(), 0);
        QCOMPARE(weights.data(weights.index(0, 1), MatrixTableModel::BlockedRole).toBool(), true);
        QCOMPARE(cell->addToken(QStringLiteral("green")), QString());
        QCOMPARE(reset.count(), 1);
        QCOMPARE(weights.columnCount(), 4);
        QCOMPARE(weights.headerData(3, Qt::Vertical).toString(), QStringLiteral("green"));
        // Scores of blocked entries read −∞, never NaN.
        weights.setMatrix(QStringLiteral("scores"));
        QCOMPARE(weights.data(weights.index(0, 3)).toString(), QStringLiteral("−∞"));
        QVERIFY(!weights.data(weights.index(0, 3), MatrixTableModel::ValueRole).isValid());
        QCOMPARE(cell->removeToken(3), QString());
        QCOMPARE(weights.columnCount(), 3);
    }

    // The column width comes from the widest entry's text: measured from four candidates,
    // it must equal the widest of every entry written out, across edits that make whole
    // numbers, long negatives and blocked (−∞) entries.
    void widestEntryMatchesEveryEntryWrittenOut() {
        LessonSession session;
        QVERIFY(session.open(kWindowLesson));
        AttentionCellModel* cell = attention(session, "colour");
        const auto writtenOut = [](const MatrixTableModel& m) {
            int widest = 1;
            for (int r = 0; r < m.rowCount(); ++r) {
                for (int c = 0; c < m.columnCount(); ++c) {
                    widest = std::max(widest, int(m.data(m.index(r, c)).toString().size()));
                }
            }
            return widest;
        };
        const QStringList names = {QStringLiteral("X0"), QStringLiteral("W_Q"),
                                   QStringLiteral("scores"), QStringLiteral("weights"),
                                   QStringLiteral("output")};
        const auto compareAll = [&](const char* when) {
            for (const QString& name : names) {
                MatrixTableModel table;
                table.setCell(cell);
                table.setMatrix(name);
                QVERIFY2(table.rowCount() > 0, qPrintable(name));
                QVERIFY2(table.widestEntry() == writtenOut(table),
                         qPrintable(QStringLiteral("%1 %2: %3 against %4")
                                        .arg(when, name)
                                        .arg(table.widestEntry())
                                        .arg(writtenOut(table))));
            }
        };
        compareAll("as authored");
        QCOMPARE(cell->setMatrixEntry(QStringLiteral("X0"), 0, 0, QStringLiteral("1234")),
                 QString());
        compareAll("with a whole number");
        QCOMPARE(cell->setMatrixEntry(QStringLiteral("W_Q"), 1, 1, QStringLiteral("-12.5")),
                 QString());
        QCOMPARE(cell->setMask(QStringLiteral("causal")), QString());
        compareAll("with a long negative and a causal mask");
    }

    void editableMatrixRefusesInPlace() {
        LessonSession session;
        QVERIFY(session.open(kWindowLesson));
        AttentionCellModel* cell = attention(session, "colour");
        MatrixTableModel projection;
        QAbstractItemModelTester tester(&projection,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        projection.setCell(cell);
        projection.setMatrix(QStringLiteral("W_Q"));
        QVERIFY(projection.editable());
        QVERIFY(projection.flags(projection.index(0, 0)) & Qt::ItemIsEditable);
        // The identity is written out as the matrix it stands for.
        QCOMPARE(projection.valueAt(0, 0), 1.0);
        QCOMPARE(projection.valueAt(0, 1), 0.0);
        QCOMPARE(projection.setValue(0, 1, QStringLiteral("1,5")),
                 QStringLiteral("use a point for decimals: 1.5, not 1,5"));
        QVERIFY(!projection.setData(projection.index(0, 1), QStringLiteral("x")));
        QVERIFY(!cell->edited());
        QVERIFY(projection.setData(projection.index(0, 1), QStringLiteral("−0.5")));
        QCOMPARE(projection.valueAt(0, 1), -0.5);
        QVERIFY(cell->edited());
        QCOMPARE(cell->setIdentity(QStringLiteral("W_Q")), QString());
        QCOMPARE(projection.valueAt(0, 1), 0.0);
        // A fixed cell takes no edits.
        MatrixTableModel fixed;
        fixed.setCell(attention(session, "colour"));
        fixed.setMatrix(QStringLiteral("output"));
        QVERIFY(!fixed.editable());
        QVERIFY(!fixed.setValue(0, 0, QStringLiteral("1")).isEmpty());
    }

    void specNumbersThroughEdits() {
        LessonSession session;
        QVERIFY(session.open(kWindowLesson));
        AttentionCellModel* cell = attention(session, "colour");
        QVERIFY(std::abs(cell->weight(0, 0, 1) - 0.2327) < 5e-5);
        QCOMPARE(cell->setHeads(2), QString());
        QVERIFY(std::abs(cell->outputAt(0, 0) - 0.8022) < 5e-5);
        QVERIFY(std::abs(cell->outputAt(0, 1) - 0.1978) < 5e-5);
        cell->reset();
        QCOMPARE(cell->setMask(QStringLiteral("causal")), QString());
        QVERIFY(std::abs(cell->weight(0, 1, 0) - 0.3775) < 5e-5);
        QVERIFY(std::abs(cell->weight(0, 1, 1) - 0.6225) < 5e-5);
        QCOMPARE(cell->weight(0, 1, 2), 0.0);
        cell->reset();
        QCOMPARE(cell->setPositional(QStringLiteral("sinusoidal")), QString());
        QVERIFY(std::abs(cell->weight(0, 0, 1) - 0.4053) < 5e-5);
        QVERIFY(std::abs(cell->weight(0, 2, 2) - 0.6440) < 5e-5);
    }

    // The worked views read properties that say when a what-if or a choice changes them, and
    // the choices outlive the view (a card rebuilt after scrolling asks the cell again).
    void workedViewsFollowEditsAndKeepTheirChoices() {
        LessonSession session;
        QVERIFY(session.open(kWindowLesson));
        AttentionCellModel* cell = attention(session, "colour");
        QSignalSpy trace(cell, &AttentionCellModel::traceChanged);
        QSignalSpy arithmetic(cell, &AttentionCellModel::arithmeticChanged);
        const QVariantList traceBefore = cell->traceSteps();
        const QVariantList arithmeticBefore = cell->arithmeticSteps();
        QVERIFY(!traceBefore.isEmpty());
        QCOMPARE(cell->setMask(QStringLiteral("causal")), QString());
        QVERIFY(trace.count() >= 1);
        QVERIFY(arithmetic.count() >= 1);
        QVERIFY(cell->traceSteps() != traceBefore);
        QVERIFY(cell->arithmeticSteps() != arithmeticBefore);

        // A head chosen on two heads reads as the last head on one, and comes back with two.
        QCOMPARE(cell->setHeads(2), QString());
        trace.clear();
        cell->setTraceHead(1);
        QCOMPARE(trace.count(), 1);
        QCOMPARE(cell->traceHead(), 1);
        const QVariantList secondHead = cell->traceSteps();
        QVERIFY(secondHead != cell->trace(0, 4));
        QCOMPARE(cell->setHeads(1), QString());
        QCOMPARE(cell->traceHead(), 0);
        QCOMPARE(cell->setHeads(2), QString());
        QCOMPARE(cell->traceHead(), 1);
        QCOMPARE(cell->traceSteps(), secondHead);

        // The step: kept, and read as the last step there is.
        cell->setTraceStep(2);
        QCOMPARE(cell->traceStep(), 2);
        cell->setTraceStep(99);
        QCOMPARE(cell->traceStep(), int(cell->traceSteps().size()) - 1);
        // The arithmetic's head is its own choice.
        QCOMPARE(cell->arithmeticHead(), 0);
        arithmetic.clear();
        cell->setArithmeticHead(1);
        QCOMPARE(arithmetic.count(), 1);
        QCOMPARE(cell->arithmeticSteps(), cell->arithmetic(1, 4));
    }

    // Each group of a cell's properties is announced when, and only when, one of its values
    // changed (property_changes.h): a binding on the tokens does not re-evaluate for a new
    // weight, and every view still hears about new numbers.
    void aWhatIfAnnouncesOnlyWhatItChanged() {
        LessonSession session;
        QVERIFY(session.open(kWindowLesson));
        AttentionCellModel* cell = attention(session, "colour");
        QSignalSpy numbers(cell, &AttentionCellModel::recomputed);
        QSignalSpy shape(cell, &AttentionCellModel::shapeChanged);
        QSignalSpy tokens(cell, &AttentionCellModel::tokensChanged);
        QSignalSpy settings(cell, &AttentionCellModel::settingsChanged);
        QSignalSpy whatIf(cell, &AttentionCellModel::whatIfChanged);
        QSignalSpy stamp(cell, &AttentionCellModel::stampChanged);
        const auto counts = [&] {
            const QList<qsizetype> now = {numbers.count(),  shape.count(),  tokens.count(),
                                          settings.count(), whatIf.count(), stamp.count()};
            for (QSignalSpy* spy : {&numbers, &shape, &tokens, &settings, &whatIf, &stamp}) {
                spy->clear();
            }
            return now;
        };
        using Counts = QList<qsizetype>; // recomputed, shape, tokens, settings, what-if, stamp

        QCOMPARE(cell->setMatrixEntry(QStringLiteral("W_Q"), 0, 0, QStringLiteral("0.25")),
                 QString());
        QCOMPARE(counts(), (Counts{1, 0, 0, 0, 1, 1})); // now edited, and undoable
        QCOMPARE(cell->setMatrixEntry(QStringLiteral("W_Q"), 0, 0, QStringLiteral("0.5")),
                 QString());
        QCOMPARE(counts(), (Counts{1, 0, 0, 0, 0, 1}));

        const QString maskBefore = cell->mask();
        QCOMPARE(cell->setMask(QStringLiteral("causal")), QString());
        QCOMPARE(counts(), (Counts{1, 0, 0, 1, 0, 1}));
        QVERIFY(cell->mask() != maskBefore);

        const int n = cell->n();
        QCOMPARE(cell->addToken(QStringLiteral("blue")), QString());
        QCOMPARE(counts(), (Counts{1, 1, 1, 0, 0, 1}));
        QCOMPARE(cell->n(), n + 1);

        // Undo everything: back as the lesson wrote it, every changed group told again.
        int undone = 0;
        while (cell->undoWhatIf()) {
            ++undone;
        }
        QVERIFY(undone >= 3); // the two W_Q entries may be one step
        const Counts afterUndo = counts();
        QCOMPARE(afterUndo[0], undone);
        QCOMPARE(afterUndo[1], 1); // the token went, once
        QCOMPARE(afterUndo[3], 1); // the mask came back, once
        QCOMPARE(afterUndo[4], 1); // unedited again
        QVERIFY(!cell->edited());
        QCOMPARE(cell->mask(), maskBefore);
        QCOMPARE(cell->n(), n);
    }

    void refusalsLeaveTheCellAsItWas() {
        LessonSession session;
        QVERIFY(session.open(kWindowLesson));
        AttentionCellModel* cell = attention(session, "colour");
        const int revision = cell->revision();
        QCOMPARE(cell->allowedHeads(), (QVariantList{1, 2, 4}));
        QVERIFY(cell->setHeads(3).contains(QStringLiteral("divide")));
        QCOMPARE(cell->setScale(QStringLiteral("divisor"), QStringLiteral("0")),
                 QStringLiteral("the divisor must be a finite number above 0"));
        QCOMPARE(cell->setScale(QStringLiteral("divisor"), QStringLiteral("nan")),
                 QStringLiteral("'nan' is not a number"));
        QCOMPARE(cell->addToken(QString()), QStringLiteral("a token needs a name"));
        QCOMPARE(cell->setFocus(7), QStringLiteral("there is no row 8 to follow"));
        QCOMPARE(cell->setIdentity(QStringLiteral("b_Q")),
                 QStringLiteral("b_Q has no identity setting"));
        QCOMPARE(cell->revision(), revision);
        QVERIFY(!cell->edited());
        QCOMPARE(cell->removeToken(0), QString());
        QCOMPARE(cell->removeToken(0), QString());
        QCOMPARE(cell->removeToken(0), QStringLiteral("a cell needs at least one token"));
    }

    void fixedCellsRefuseEdits() {
        LessonSession session;
        QVERIFY(session.open(QString()));
        AttentionCellModel* fixed = attention(session, "colour");
        QVERIFY(fixed->controls().isEmpty());
        QVERIFY(!fixed->isEditable(QStringLiteral("X0")));
        QVERIFY(!fixed->setMatrixEntry(QStringLiteral("X0"), 0, 0, QStringLiteral("2")).isEmpty());
        QVERIFY(!fixed->setIdentity(QStringLiteral("W_Q")).isEmpty());
    }

    void blockedRowsAreNamed() {
        LessonSession session;
        QVERIFY(session.open(kWindowLesson));
        AttentionCellModel* cell = attention(session, "colour");
        QCOMPARE(cell->setMask(QStringLiteral("causal")), QString());
        QCOMPARE(cell->setPadding(0, true), QString());
        // Row 1 reads only token 1, which is padding: it is fully blocked.
        QVERIFY(cell->rowCheckPassed());
        QVERIFY(
            cell->rowCheck().contains(QStringLiteral("fully blocked, all shares 0: row 1 “red”")));
        QCOMPARE(cell->weight(0, 0, 0), 0.0);
        QCOMPARE(cell->outputAt(0, 0), 0.0);
        QCOMPARE(cell->warnings().size(), 1);
    }

    void keepWritesTheDocument() {
        LessonSession session;
        QVERIFY(session.open(kWindowLesson));
        AttentionCellModel* cell = attention(session, "colour");
        QCOMPARE(cell->setHeads(2), QString());
        QCOMPARE(cell->setMask(QStringLiteral("causal")), QString());
        QCOMPARE(cell->addToken(QStringLiteral("yellow")), QString());
        QCOMPARE(cell->setMatrixEntry(QStringLiteral("X0"), 1, 1, QStringLiteral("2")), QString());
        QCOMPARE(cell->setScale(QStringLiteral("divisor"), QStringLiteral("3")), QString());
        QSignalSpy unsaved(&session, &LessonSession::unsavedChangesChanged);
        QCOMPARE(cell->keep(), QString());
        QCOMPARE(unsaved.count(), 1);
        QVERIFY(!cell->edited());
        // The document now says what the cell shows: reading it back gives the same numbers.
        const std::string text = session.documentText().toStdString();
        QVERIFY(text.find("tokens: [red, blue, red, yellow]\n") != std::string::npos);
        QVERIFY(text.find("  blue: [0, 2, 0, 0]\n") != std::string::npos);
        const Lesson reread = parseLesson(text, "window.md");
        QVERIFY(!hasErrors(reread.diagnostics));
        AttentionEngine engine;
        const LessonResults results = computeLesson(reread, engine);
        const AttentionResult& kept = *results.cell("colour")->attention;
        QCOMPARE(kept.h, 2);
        QCOMPARE(kept.n, 4);
        QCOMPARE(kept.scale, 1.0 / 3.0);
        for (int r = 0; r < kept.n; ++r) {
            for (int c = 0; c < kept.m; ++c) {
                QCOMPARE(kept.head[1].weight(r, c), cell->weight(1, r, c));
            }
        }
        // Nothing but the cell changed: the prose is byte for byte the same.
        QFile original(kWindowLesson);
        QVERIFY(original.open(QIODevice::ReadOnly));
        const std::string before = original.readAll().toStdString();
        QCOMPARE(text.substr(0, text.find("```attention colour")),
                 before.substr(0, before.find("```attention colour")));
        QCOMPARE(text.substr(text.find("## Prose that quotes nothing")),
                 before.substr(before.find("## Prose that quotes nothing")));
    }

    void typedNumbers() {
        QString reason;
        QCOMPARE(parseTypedNumber(QStringLiteral(" −1.25 "), reason), std::optional<double>(-1.25));
        QCOMPARE(parseTypedNumber(QStringLiteral("1e-3"), reason), std::optional<double>(1e-3));
        QCOMPARE(parseTypedNumber(QStringLiteral("+2"), reason), std::optional<double>(2));
        for (const char* bad : {"", "1,5", "1.5x", "inf", "nan", "1e400", "--1"}) {
            reason.clear();
            QVERIFY2(!parseTypedNumber(QString::fromLatin1(bad), reason), bad);
            QVERIFY2(!reason.isEmpty(), bad);
        }
    }

    // A challenge's sample answer is a row of its own, from the paragraph
    // that names it to the next heading (a "# comment" in its code is not one), so the window
    // can fold it; a sentence that only mentions sample answers in passing is not one.
    void aSampleAnswerIsARowOfItsOwn() {
        ProseBlock block;
        block.firstLine = 1;
        block.text = "## 1. Softmax\n\nWrite softmax. Read the sample answer after.\n\n"
                     "**Sample answer**\n\n```python\n# a comment\nx = 1\n```\n\nDone.\n\n"
                     "## 2. Next\n\ntext\n";
        const std::vector<ProsePieceRow> rows = splitProse(block, {{7, 10}});
        QCOMPARE(rows.size(), size_t(3));
        QVERIFY(!rows[0].sampleAnswer);
        QCOMPARE(rows[0].lastLine, 4);
        QVERIFY(rows[1].sampleAnswer);
        QCOMPARE(rows[1].firstLine, 5);
        QCOMPARE(rows[1].lastLine, 13);
        QVERIFY(rows[1].text.rfind("**Sample answer**", 0) == 0);
        QVERIFY(!rows[2].sampleAnswer);
        QCOMPARE(rows[2].headingTitle, std::string("2. Next"));
        QVERIFY(namesSampleAnswer("  **Sample answer**  "));
        QVERIFY(namesSampleAnswer("Sample answers:"));
        QVERIFY(!namesSampleAnswer("Write softmax. Read the sample answer after it."));
        QVERIFY(!namesSampleAnswer("an example"));
    }

    void proseIsCutAtHeadingsOutsideCode() {
        ProseBlock block;
        block.firstLine = 5;
        block.text =
            "# One\n\ntext {{c.x}}\n\n```python\n# not a heading\n```\n## Two *em*\nmore\n\n";
        const std::vector<ProsePieceRow> rows = splitProse(block, {{9, 11}});
        QCOMPARE(rows.size(), size_t(2));
        QCOMPARE(rows[0].firstLine, 5);
        QCOMPARE(rows[0].lastLine, 11);
        QCOMPARE(rows[0].headingTitle, std::string("One"));
        QCOMPARE(rows[0].boundCells, (std::set<std::string>{"c"}));
        QCOMPARE(rows[1].firstLine, 12);
        QCOMPARE(rows[1].headingLevel, 2);
        QCOMPARE(rows[1].headingTitle, std::string("Two em"));
        QCOMPARE(escapeMarkdown("[0.5, 1]*"), std::string("\\[0.5, 1\\]\\*"));
    }

    // A long stretch of prose without headings is cut between plain paragraphs, so that the
    // window lays out the rows in view only; never inside a list, an HTML comment
    // or code, and never a shorter piece.
    void longProseIsCutBetweenParagraphs() {
        const std::string paragraph(100, 'w');
        ProseBlock block;
        block.firstLine = 1;
        // Lines 1–2: a heading and a blank line; then 200 paragraphs of two lines each.
        block.text = "# Long\n\n";
        for (int i = 0; i < 200; ++i) {
            // Paragraph i starts at line 3 + 2 i. Among them: a list item (i = 90), a comment
            // over two paragraphs (i = 120 to 122), a fenced block (i = 160 to 161).
            if (i == 90) {
                block.text += "1. item\n\n";
            } else if (i == 120) {
                block.text += "<!-- a note\n\n";
            } else if (i == 122) {
                block.text += "end -->\n\n";
            } else if (i == 160) {
                block.text += "```\n\n";
            } else if (i == 161) {
                block.text += "```\n\n";
            } else {
                block.text += paragraph + "\n\n";
            }
        }
        const std::vector<ProsePieceRow> rows = splitProse(block, {{3 + 2 * 160, 3 + 2 * 161}});
        QVERIFY2(rows.size() >= 2, qPrintable(QString::number(rows.size())));
        std::string joined;
        int nextLine = 1;
        for (const ProsePieceRow& row : rows) {
            QCOMPARE(row.firstLine, nextLine); // no line lost or repeated
            nextLine = row.lastLine + 1;
            joined += row.text;
            if (&row != &rows.back()) {
                QVERIFY2(row.text.size() >= kLongProseBytes, row.text.c_str());
                QVERIFY2(row.text.size() < kLongProseBytes + 2 * paragraph.size(),
                         qPrintable(QString::number(row.text.size())));
            }
            if (&row != &rows.front()) {
                // Each later piece starts with a plain paragraph, not with a heading, the list
                // item, the comment's end or the inside of the fence.
                QCOMPARE(row.headingLevel, 0);
                QCOMPARE(row.text.substr(0, paragraph.size()), paragraph);
                const int line = row.firstLine;
                QVERIFY2(line < 3 + 2 * 120 || line > 3 + 2 * 122,
                         qPrintable(QString::number(line)));
                QVERIFY2(line < 3 + 2 * 160 || line > 3 + 2 * 161,
                         qPrintable(QString::number(line)));
            }
        }
        QCOMPARE(joined, block.text);
        QCOMPARE(nextLine, 3 + 2 * 200);
        QCOMPARE(rows.front().headingTitle, std::string("Long"));
        // A short block is one piece.
        block.text = "# Short\n\n" + paragraph + "\n\n" + paragraph + "\n";
        QCOMPARE(splitProse(block, {}).size(), size_t(1));
    }

    // A numeric answer reads as the lesson writes it: attention.md's blue_self_score explains
    // {{colour.head[0].scores[1][1]:1}} ("0.5"), and the window said "the answer is 0.5000";
    // a typed "0.3" came back as "0.3000 is not it".
    void quizNumbersInTheLessonsStyle() {
        const Lesson lesson = parseLesson("# Q\n\n```quiz q\nquestion: Blue's score?\n"
                                          "answer: \"{{c.s[1][1]}}\"\n"
                                          "explain: \"It is {{c.s[1][1]:1}}.\"\n```\n",
                                          "q.md");
        QVERIFY(!lesson.cells.empty() && lesson.cells[0].quiz());
        QuizCellModel quiz(
            "q", *lesson.cells[0].quiz(),
            [](const std::string& text) { return QString::fromStdString(text); },
            [] { return std::optional<double>(0.5); });
        quiz.checkNumber(QStringLiteral("1/2"));
        QCOMPARE(quiz.feedback(), QStringLiteral("Right: the answer is 0.5."));
        quiz.checkNumber(QStringLiteral(" 0.3 "));
        QCOMPARE(quiz.feedback(),
                 QStringLiteral("Not quite: 0.3 is not it. Try again, or show the answer."));
        quiz.showAnswer();
        QCOMPARE(quiz.feedback(), QStringLiteral("The answer is 0.5."));
    }

    // The window's chart has the PDF's axes (chart_axis.h): every decade labelled in one
    // style, the top one included, and the data inside. QtCharts' own log axis wrote "1e+06"
    // beside "100000" and ended at the data's 500,000, its top decade bare.
    void chartAxesAreThePdfs() {
        LessonSession session;
        QVERIFY(session.open(kWindowLesson));
        auto* chart = qobject_cast<ChartCellModel*>(session.cell(QStringLiteral("cost")));
        QVERIFY(chart);
        const auto labels = [](const QVariantList& ticks) {
            QStringList out;
            for (const QVariant& tick : ticks) {
                out << tick.toMap().value(QStringLiteral("label")).toString();
            }
            return out;
        };
        QCOMPARE(labels(chart->xTicks()), (QStringList{"1", "10", "100", "1,000"}));
        QCOMPARE(labels(chart->yTicks()),
                 (QStringList{"10⁻¹", "10⁰", "10¹", "10²", "10³", "10⁴", "10⁵", "10⁶"}));
        // A log axis is drawn over log10 of the values: from 10⁻¹ to 10⁶.
        QCOMPARE(chart->yMin(), -1.0);
        QCOMPARE(chart->yMax(), 6.0);
        QCOMPARE(chart->yTicks().last().toMap().value(QStringLiteral("value")).toDouble(), 6.0);
        for (const QVariant& series : chart->series()) {
            for (const QVariant& point : series.toMap().value(QStringLiteral("points")).toList()) {
                const QPointF p = point.toPointF();
                QVERIFY(p.x() >= chart->xMin() && p.x() <= chart->xMax());
                QVERIFY(p.y() >= chart->yMin() && p.y() <= chart->yMax());
            }
        }
        QCOMPARE(
            chart->describeAt(QStringLiteral("whole text"), std::log10(64.0), std::log10(2048.0)),
            QStringLiteral("n = 64: whole text 2,048"));
    }

    void quizVerdicts() {
        LessonSession session;
        QVERIFY(session.open(kWindowLesson));
        auto* number = qobject_cast<QuizCellModel*>(session.cell(QStringLiteral("blue_share")));
        auto* choice = qobject_cast<QuizCellModel*>(session.cell(QStringLiteral("zero_score")));
        QVERIFY(number && choice);
        QCOMPARE(number->kind(), QStringLiteral("number"));
        number->checkNumber(QStringLiteral("0.2330")); // within the tolerance 0.001
        QCOMPARE(number->verdict(), QStringLiteral("right"));
        number->checkNumber(QStringLiteral("0.25"));
        QCOMPARE(number->verdict(), QStringLiteral("wrong"));
        number->checkNumber(QStringLiteral("1/4")); // a fraction is a number
        QCOMPARE(number->verdict(), QStringLiteral("wrong"));
        // Echoed as typed ("0.3" came back as "0.3000 is not it").
        QCOMPARE(number->feedback(),
                 QStringLiteral("Not quite: 1/4 is not it. Try again, or show the answer."));
        number->checkNumber(QStringLiteral("1/x"));
        QCOMPARE(number->verdict(), QStringLiteral("refused"));
        QCOMPARE(attention(session, "colour")->setHeads(2), QString());
        QVERIFY(std::abs(number->answerText().toDouble() - 0.1978) < 5e-5);
        choice->checkChoice(1);
        QCOMPARE(choice->verdict(), QStringLiteral("right"));
        choice->checkChoice(0);
        QCOMPARE(choice->verdict(), QStringLiteral("wrong"));
    }

    void heatmapPaintsEveryEntry() {
        LessonSession session;
        QVERIFY(session.open(kWindowLesson));
        AttentionCellModel* cell = attention(session, "colour");
        HeatmapItem heatmap;
        heatmap.setCell(cell);
        heatmap.setWidth(400);
        QVERIFY(heatmap.implicitHeight() > 100);
        QImage image(400, int(heatmap.implicitHeight()), QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        QPainter painter(&image);
        heatmap.paint(&painter);
        painter.end();
        QVERIFY(heatmap.valuesShown());
        const QRectF blueReadsBlue = heatmap.squareRect(1, 1);
        const QRectF blueReadsRed = heatmap.squareRect(1, 0);
        QCOMPARE(heatmap.describeAt(blueReadsBlue.center().x(), blueReadsBlue.center().y()),
                 QStringLiteral("blue reads blue: share 0.4519"));
        // A larger share is a darker square (sampled off the number in it).
        const auto shade = [&](const QRectF& r) {
            return qGray(image.pixel((r.topLeft() + QPointF(3, 3)).toPoint()));
        };
        QVERIFY(shade(blueReadsBlue) < shade(blueReadsRed));
        QCOMPARE(cell->setMask(QStringLiteral("causal")), QString());
        const QRectF blocked = heatmap.squareRect(0, 2);
        QCOMPARE(heatmap.describeAt(blocked.center().x(), blocked.center().y()),
                 QStringLiteral("red reads red: blocked by the mask, share 0"));
        HeatmapItem change;
        change.setCell(cell);
        change.setChange(true);
        QVERIFY(change.changeRange() > 0.6);
    }
};

QTEST_MAIN(WindowModelsTest)
#include "test_window_models.moc"
