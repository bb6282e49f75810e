// File → Export: the ExportController renders the open lesson into a preview on a worker
// thread and saves it atomically; a cancelled or refused export writes nothing. The dialog
// in the real window is in test_export_dialog.cpp.
#include "tests/app/export_test_helpers.h"
#include "tests/exports/pdf_text.h"
#include "tests/test_files.h"

#include "app/models/attention_cell_model.h"
#include "app/models/document_editor.h"
#include "app/models/export_controller.h"
#include "app/models/lesson_session.h"
#include "app/window/window.h"

#include <quazip/quazip.h>
#include <quazip/quazipfile.h>
#include <quazip/quazipnewinfo.h>

#include <QApplication>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QLineEdit>
#include <QQmlApplicationEngine>
#include <QQuickItem>
#include <QQuickWindow>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QtQml/qqmlextensionplugin.h>

#include <functional>
#include <map>

Q_IMPORT_QML_PLUGIN(AttnbookPlugin)
Q_IMPORT_QML_PLUGIN(AttnbookModelsPlugin)
Q_IMPORT_QML_PLUGIN(AttnbookWindowPlugin)

using namespace attnbook;
using attnbook::test::kRenderTimeout;
using attnbook::test::settle;
using attnbook::test::setUpExportTest;

namespace {

// Every file under DIR with its bytes: what "nothing changed" compares.
std::map<QString, QByteArray> snapshot(const QString& dir) {
    std::map<QString, QByteArray> files;
    QDirIterator it(dir, QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        files[path] = readAll(path);
    }
    return files;
}

// Renders the preview and waits for it; true when it rendered.
bool render(ExportController& controller) {
    QSignalSpy finished(&controller, &ExportController::renderFinished);
    if (!controller.renderPreview()) {
        qWarning() << "refused:" << controller.error();
        return false;
    }
    if (!finished.wait(kRenderTimeout)) {
        qWarning() << "no result in time";
        return false;
    }
    if (!finished.at(0).at(0).toBool()) {
        qWarning() << "failed:" << controller.error();
    }
    return finished.at(0).at(0).toBool();
}

QString joined(const QStringList& pages) {
    return pages.join(QLatin1Char(' '));
}

// A copy of ZIP with lesson.md changed and the manifest left as it was.
bool tamperedCopy(const QString& zipPath, const QString& outPath) {
    QuaZip in(zipPath);
    if (!in.open(QuaZip::mdUnzip)) {
        return false;
    }
    std::vector<std::pair<QString, QByteArray>> entries;
    for (bool more = in.goToFirstFile(); more; more = in.goToNextFile()) {
        QuaZipFile file(&in);
        if (!file.open(QIODevice::ReadOnly)) {
            return false;
        }
        entries.emplace_back(in.getCurrentFileName(), file.readAll());
    }
    QuaZip out(outPath);
    if (!out.open(QuaZip::mdCreate)) {
        return false;
    }
    for (auto& [name, bytes] : entries) {
        if (name == QLatin1String("lesson.md")) {
            bytes.replace("Attention", "Distraction");
        }
        QuaZipFile file(&out);
        if (!file.open(QIODevice::WriteOnly, QuaZipNewInfo(name)) ||
            file.write(bytes) != bytes.size()) {
            return false;
        }
        file.close();
    }
    out.close();
    return true;
}

} // namespace

class ExportControllerTest : public QObject {
    Q_OBJECT

    QTemporaryDir settingsFolder_;

  private Q_SLOTS:
    // The window's settings go to a folder of this test's own (it runs beside others).
    void initTestCase() {
        QVERIFY(setUpExportTest(settingsFolder_, QStringLiteral("attnbook-export-tests")));
    }

    // A worksheet is offered once an edit gives the lesson a quiz, and not before: the
    // controller reads the session's lesson, which the session read for the edit (the
    // controller once parsed the document a second time on every edit).
    void worksheetFollowsTheSessionsEdits() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("plain.md"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("# Plain\n\nNo cells yet.\n");
        file.close();
        LessonSession session;
        QVERIFY(session.open(path));
        ExportController controller;
        controller.setSession(&session);
        QVERIFY(controller.exportable());
        QVERIFY(!controller.worksheetAvailable());
        QSignalSpy changed(&controller, &ExportController::lessonChanged);
        QCOMPARE(session.editor()->insertBelow(0, QStringLiteral("quiz")), QString());
        QVERIFY(!changed.isEmpty());
        QVERIFY(controller.worksheetAvailable());
        session.editor()->undo();
        QVERIFY(!controller.worksheetAvailable());
    }

    void lessonPdfPreviewThenSave() {
        LessonSession session;
        QVERIFY(session.open(QString()));
        ExportController controller;
        controller.setSession(&session);
        QVERIFY(controller.exportable());
        QVERIFY(controller.worksheetAvailable());
        QCOMPARE(controller.kind(), ExportController::LessonPdf);
        QCOMPARE(controller.suggestedFileName(), QStringLiteral("attention.pdf"));

        QSignalSpy progress(&controller, &ExportController::progressChanged);
        QVERIFY(render(controller));
        QVERIFY(progress.count() >= 3); // started, pages, done
        QCOMPARE(controller.progress(), 1.0);
        QVERIFY(!controller.busy());
        QVERIFY(controller.previewCurrent());
        QVERIFY(controller.answersPreviewUrl().isEmpty());
        const QString preview = controller.previewUrl().toLocalFile();
        QVERIFY(QFileInfo(preview).isFile());
        const QByteArray pdf = readAll(preview);
        QVERIFY(pdf.startsWith("%PDF-"));
        QVERIFY(controller.previewSummary().startsWith(QStringLiteral("Lesson PDF · A4")));

        QTemporaryDir out;
        const QString target = out.filePath(QStringLiteral("attention.pdf"));
        QCOMPARE(controller.targetsFor(target), QStringList{target});
        QSignalSpy saved(&controller, &ExportController::saved);
        QVERIFY2(controller.save(QUrl::fromLocalFile(target).toString()),
                 qPrintable(controller.error()));
        QCOMPARE(saved.count(), 1);
        QCOMPARE(saved.at(0).at(0).toStringList(), QStringList{target});
        QCOMPARE(readAll(target), pdf);
        QVERIFY(controller.message().startsWith(QStringLiteral("Saved attention.pdf")));
        const QString text = joined(pdfPageTexts(readAll(target)));
        QVERIFY(text.contains(QStringLiteral("Attention")));
        QVERIFY(text.contains(
            QStringLiteral("How each token gathers what it needs from the tokens around it")));
        QVERIFY(text.contains(QStringLiteral("One vector for a whole sentence is too narrow")));
        // Only what was asked for is in the folder: no temporary files left beside it.
        QCOMPARE(QDir(out.path()).entryList(QDir::Files | QDir::Hidden), {"attention.pdf"});

        // Letter paper is another render: the old preview no longer saves.
        controller.setPaper(QStringLiteral("letter"));
        QVERIFY(controller.previewReady());
        QVERIFY(!controller.previewCurrent());
        QVERIFY(!controller.save(out.filePath(QStringLiteral("letter.pdf"))));
        QVERIFY(controller.error().contains(QStringLiteral("render it again")));
        QVERIFY(!QFileInfo::exists(out.filePath(QStringLiteral("letter.pdf"))));
        QVERIFY(render(controller));
        QVERIFY(!QFileInfo::exists(preview)); // the old preview is gone with it
        QVERIFY(controller.save(out.filePath(QStringLiteral("letter")))); // .pdf is added
        QVERIFY(readAll(out.filePath(QStringLiteral("letter.pdf"))).startsWith("%PDF-"));
    }

    // The window left the lesson's data files out of the inputs an export may not
    // replace, so the lesson PDF saved as the lesson's own weights.csv succeeded; the CLI
    // refused it. Both now take the inputs from the lesson (lessonInputs).
    void anExportNeverReplacesADataFile() {
        QTemporaryDir folder;
        const QByteArray weights = "1,0\n0,1\n";
        QFile data(folder.filePath(QStringLiteral("weights.csv")));
        QVERIFY(data.open(QIODevice::WriteOnly) && data.write(weights) == weights.size());
        data.close();
        QFile lesson(folder.filePath(QStringLiteral("data.md")));
        QVERIFY(lesson.open(QIODevice::WriteOnly));
        lesson.write("# Data\n\n```attention a\ntokens: [x, y]\nX: {file: weights.csv}\n```\n");
        lesson.close();
        LessonSession session;
        QVERIFY(session.open(lesson.fileName()));
        QCOMPARE(session.problems()->errorCount(), 0);
        ExportController controller;
        controller.setSession(&session);
        QVERIFY(render(controller));
        QVERIFY(!controller.save(data.fileName()));
        QVERIFY2(controller.error().contains(QStringLiteral("name the same file")),
                 qPrintable(controller.error()));
        QCOMPARE(readAll(data.fileName()), weights);
    }

    void keptEditsAreExported() {
        LessonSession session;
        QVERIFY(session.open(QStringLiteral(WINDOW_FIXTURES "/window.md")));
        ExportController controller;
        controller.setSession(&session);
        QVERIFY(controller.worksheetAvailable()); // it has quizzes
        auto* cell = qobject_cast<AttentionCellModel*>(session.cell(QStringLiteral("colour")));
        QVERIFY(cell);
        QCOMPARE(cell->setMask(QStringLiteral("causal")), QString());
        QCOMPARE(cell->keep(), QString());
        QVERIFY(session.unsavedChanges());
        // The prose quotes the cell: the export prints the kept value, as the window does.
        static const QRegularExpression gives(QStringLiteral("gives ([0-9.]+) of its"));
        const QRegularExpressionMatch shown = gives.match(session.cells()->row(0).markdown);
        QVERIFY(shown.hasMatch());
        QVERIFY(shown.captured(1) != QStringLiteral("0.1978"));
        QVERIFY(render(controller));
        const QString text = joined(pdfPageTexts(readAll(controller.previewUrl().toLocalFile())));
        QVERIFY2(text.contains(QStringLiteral("gives %1 of its").arg(shown.captured(1))),
                 qPrintable(text.left(400)));
        // Opening another lesson drops the preview.
        QVERIFY(session.open(QString()));
        QVERIFY(!controller.previewReady());
    }

    void cancelledWorksheetWritesNothing() {
        LessonSession session;
        QVERIFY(session.open(QString()));
        ExportController controller;
        controller.setSession(&session);
        QTemporaryDir out;
        // What was there before: an earlier export and a file at the worksheet's path.
        QVERIFY(render(controller));
        const QString earlier = out.filePath(QStringLiteral("attention.pdf"));
        QVERIFY(controller.save(earlier));
        const QString sheets = out.filePath(QStringLiteral("sheets.pdf"));
        QVERIFY(writeAll(sheets, "an older worksheet"));
        const auto before = snapshot(out.path());
        const QString previewFolder = QFileInfo(controller.previewUrl().toLocalFile()).path();
        const auto previewBefore = snapshot(previewFolder);

        controller.setKind(ExportController::Worksheet);
        controller.setVariants(6); // the most attention.md's quizzes allow
        controller.setSeed(QStringLiteral("42"));
        controller.setAnswers(true);
        QCOMPARE(controller.optionsProblem(), QString());
        QCOMPARE(controller.targetsFor(sheets),
                 (QStringList{sheets, out.filePath(QStringLiteral("sheets-answers.pdf"))}));
        QSignalSpy finished(&controller, &ExportController::renderFinished);
        QVERIFY(controller.renderPreview());
        QVERIFY(controller.busy());
        QVERIFY(!controller.renderPreview()); // one at a time
        // Mid-way: cancelled as the first variant is reported laid out (the worker checks
        // between variants and between pages, and 6 variants with keys are dozens of pages).
        QString cancelledAt;
        connect(&controller, &ExportController::progressChanged, this, [&] {
            if (cancelledAt.isEmpty() && controller.stage().contains(QStringLiteral("variant"))) {
                cancelledAt = controller.stage();
                controller.cancel();
            }
        });
        QVERIFY(finished.wait(kRenderTimeout));
        QVERIFY(!cancelledAt.isEmpty());
        QCOMPARE(controller.stage(), QStringLiteral("Cancelled"));
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        QVERIFY(!controller.busy());
        QCOMPARE(controller.error(), QString());
        QVERIFY(controller.message().startsWith(QStringLiteral("Cancelled")));
        QVERIFY(!controller.previewCurrent());
        QVERIFY(!controller.save(sheets));

        QCOMPARE(snapshot(out.path()), before);
        QCOMPARE(snapshot(previewFolder), previewBefore); // no partial preview either
        QCOMPARE(readAll(sheets), QByteArray("an older worksheet"));
    }

    void worksheetKeyAndRosterSavedTogether() {
        LessonSession session;
        QVERIFY(session.open(QString()));
        ExportController controller;
        controller.setSession(&session);
        QTemporaryDir out;
        const QString rosterFile = out.filePath(QStringLiteral("class.txt"));
        QVERIFY(writeAll(rosterFile, "# class 4b\nAda Lovelace\n\nAlan Turing\nGrace Hopper\n"));
        controller.setKind(ExportController::Worksheet);
        controller.setVariants(2);
        controller.setSeed(QStringLiteral("7"));
        controller.setRosterPath(QUrl::fromLocalFile(rosterFile).toString());
        QCOMPARE(controller.rosterCount(), 3);
        QCOMPARE(controller.rosterName(), QStringLiteral("class.txt")); // not the URL's text
        QCOMPARE(controller.rosterProblem(), QString());
        QVERIFY(render(controller));
        QVERIFY(!controller.answersPreviewUrl().isEmpty());
        QVERIFY(controller.previewSummary().contains(QStringLiteral("2 variants, seed 7")));
        QVERIFY(controller.previewSummary().contains(QStringLiteral("3 names on the roster")));

        // A key that cannot be written: neither the worksheet nor the roster is written.
        const QString sheets = out.filePath(QStringLiteral("sheets.pdf"));
        QVERIFY(QDir(out.path()).mkdir(QStringLiteral("sheets-answers.pdf")));
        QVERIFY(!controller.save(sheets));
        QVERIFY(controller.error().contains(out.filePath(QStringLiteral("sheets-answers.pdf"))));
        QVERIFY(!QFileInfo::exists(sheets));
        QVERIFY(!QFileInfo::exists(out.filePath(QStringLiteral("sheets-roster.csv"))));
        QVERIFY(QDir(out.path()).rmdir(QStringLiteral("sheets-answers.pdf")));

        QVERIFY2(controller.save(sheets), qPrintable(controller.error()));
        const QString worksheet = joined(pdfPageTexts(readAll(sheets)));
        for (const char* name : {"Ada Lovelace", "Alan Turing", "Grace Hopper"}) {
            QVERIFY2(worksheet.contains(QLatin1String(name)), name);
        }
        QVERIFY(worksheet.contains(QStringLiteral("Variant 2 of 2")));
        const QString key =
            joined(pdfPageTexts(readAll(out.filePath(QStringLiteral("sheets-answers.pdf")))));
        QVERIFY(key.contains(QStringLiteral("Answer key")) ||
                key.contains(QStringLiteral("answer")));
        const QByteArray csv = readAll(out.filePath(QStringLiteral("sheets-roster.csv")));
        QVERIFY(csv.startsWith("name,variant,seed,hash\r\nAda Lovelace,1,"));
        QCOMPARE(csv.count("\r\n"), 4);

        // Without the key only the worksheet and the roster are written.
        controller.setAnswers(false);
        QVERIFY(render(controller));
        QVERIFY(controller.answersPreviewUrl().isEmpty());
        const QString alone = out.filePath(QStringLiteral("alone.pdf"));
        QCOMPARE(controller.targetsFor(alone),
                 (QStringList{alone, out.filePath(QStringLiteral("alone-roster.csv"))}));
        QVERIFY(controller.save(alone));
        QVERIFY(!QFileInfo::exists(out.filePath(QStringLiteral("alone-answers.pdf"))));

        // A roster that cannot be read is a problem with the options, not a render.
        controller.setRosterPath(out.filePath(QStringLiteral("missing.txt")));
        QVERIFY(controller.optionsProblem().contains(QStringLiteral("missing.txt")));
        QVERIFY(!controller.renderPreview());
        controller.setRosterPath(QString());
        controller.setVariants(3);
        controller.setSeed(QStringLiteral("twelve"));
        QVERIFY(controller.optionsProblem().startsWith(QStringLiteral("The seed")));
        QVERIFY(!controller.renderPreview());
        // Without variants the seed is unused, unless a roster draws a variant per name.
        controller.setVariants(0);
        QVERIFY(!controller.seedUsed());
        QCOMPARE(controller.optionsProblem(), QString());
        controller.setRosterPath(rosterFile);
        QVERIFY(controller.seedUsed());
        QVERIFY(controller.optionsProblem().startsWith(QStringLiteral("The seed")));
        controller.setSeed(QStringLiteral("12"));
        QVERIFY(render(controller));
        QVERIFY2(controller.previewSummary().contains(
                     QStringLiteral("a variant for each name, seed 12")),
                 qPrintable(controller.previewSummary()));
    }

    void failedSaveReportsThePathAndLeavesNothing() {
        LessonSession session;
        QVERIFY(session.open(QString()));
        ExportController controller;
        controller.setSession(&session);
        QTemporaryDir out;
        const QString early = out.filePath(QStringLiteral("x.pdf"));
        QVERIFY(!controller.save(early)); // nothing rendered yet
        QVERIFY(controller.error().contains(QStringLiteral("render the preview first")));
        QVERIFY(!QFile::exists(early));
        QVERIFY(render(controller));
        const QString missing = out.filePath(QStringLiteral("no-such-folder"));
        const QString target = missing + QStringLiteral("/attention.pdf");
        QVERIFY(!controller.save(target));
        QVERIFY2(controller.error().startsWith(target + QStringLiteral(": cannot write:")),
                 qPrintable(controller.error()));
        QVERIFY(controller.error().contains(QStringLiteral("does not exist")));
        QVERIFY(!QFileInfo::exists(missing));
        QVERIFY(QDir(out.path()).isEmpty());
        // The preview is still there to save elsewhere.
        QVERIFY(controller.previewCurrent());
        QVERIFY(controller.save(out.filePath(QStringLiteral("attention.pdf"))));
        QCOMPARE(controller.error(), QString());
    }

    void bundleSavedAndOpenedWithItsHashes() {
        LessonSession session;
        QVERIFY(session.open(QString()));
        ExportController controller;
        controller.setSession(&session);
        controller.setKind(ExportController::Bundle);
        QCOMPARE(controller.suggestedFileName(), QStringLiteral("attention.zip"));
        QVERIFY(render(controller));
        // The preview shows the lesson.pdf inside it.
        QVERIFY(readAll(controller.previewUrl().toLocalFile()).startsWith("%PDF-"));
        QVERIFY(controller.previewSummary().startsWith(QStringLiteral("Bundle: ")));
        QTemporaryDir out;
        const QString zip = out.filePath(QStringLiteral("attention.zip"));
        QVERIFY2(controller.save(zip), qPrintable(controller.error()));
        QCOMPARE(controller.targetsFor(zip), QStringList{zip});

        // The window opens it through openLessonSource, which checks every hash.
        LessonSession reopened;
        QVERIFY(reopened.open(QUrl::fromLocalFile(zip).toString()));
        QCOMPARE(reopened.title(), QStringLiteral("Attention"));
        QCOMPARE(reopened.documentText(), session.documentText());
        QCOMPARE(reopened.problems()->errorCount(), 0);
        // Its bundle is never saved over itself.
        ExportController again;
        again.setSession(&reopened);
        again.setKind(ExportController::Bundle);
        QCOMPARE(again.suggestedFileName(), QStringLiteral("attention-bundle.zip"));
        QVERIFY(render(again));
        const QByteArray original = readAll(zip);
        QVERIFY(!again.save(zip));
        QVERIFY2(again.error().contains(QStringLiteral("name the same file")),
                 qPrintable(again.error()));
        QCOMPARE(readAll(zip), original);

        const QString tampered = out.filePath(QStringLiteral("tampered.zip"));
        QVERIFY(tamperedCopy(zip, tampered));
        LessonSession refused;
        QVERIFY(!refused.open(tampered));
        QVERIFY(refused.problems()->count() >= 1);
        const QString message = refused.problems()->problem(0).message;
        QVERIFY2(message.contains(QStringLiteral("cannot open the bundle tampered.zip")) &&
                     message.contains(QStringLiteral("sha256")),
                 qPrintable(message));
    }

    // File → Export → Notebook: the same bytes as `attnbook export --notebook`, no page preview.
    void notebookSavedAsTheCommandLineWritesIt() {
        LessonSession session;
        QVERIFY(session.open(QString()));
        ExportController controller;
        controller.setSession(&session);
        controller.setKind(ExportController::Notebook);
        QVERIFY(controller.request().notebook && !controller.request().lessonPdf);
        QCOMPARE(controller.suggestedFileName(), QStringLiteral("attention.ipynb"));
        QVERIFY(render(controller));
        QVERIFY(controller.previewUrl().isEmpty());
        QVERIFY2(controller.previewSummary().startsWith(QStringLiteral("Notebook: ")) &&
                     controller.previewSummary().contains(QStringLiteral(" cells · ")),
                 qPrintable(controller.previewSummary()));
        QTemporaryDir out;
        const QString path = out.filePath(QStringLiteral("twin"));
        QCOMPARE(controller.targetsFor(path), QStringList{path + QStringLiteral(".ipynb")});
        QVERIFY2(controller.save(path), qPrintable(controller.error()));

        ExportRequest request;
        request.notebook = true;
        RenderedExport expected;
        QVERIFY(renderExport(session.documentText().toStdString(), session.filePath().toStdString(),
                             session.lesson().files, request, &expected)
                    .ok());
        QCOMPARE(readAll(path + QStringLiteral(".ipynb")),
                 expected.part(QStringLiteral("notebook"))->bytes);
        QCOMPARE(QDir(out.path()).entryList(QDir::Files), QStringList{"twin.ipynb"});
    }

    // A what-if changes numbers, not the document: a render under way goes on and its preview
    // is current. An edit of the document's bytes (Keep) leaves the preview, not current, and
    // the lesson is read again only then (LessonSession::edited).
    void whatIfsDoNotDisturbARender() {
        LessonSession session;
        QVERIFY(session.open(QStringLiteral(WINDOW_FIXTURES "/window.md")));
        ExportController controller;
        controller.setSession(&session);
        auto* cell = qobject_cast<AttentionCellModel*>(session.cell(QStringLiteral("colour")));
        QVERIFY(cell);
        QSignalSpy lessonChanged(&controller, &ExportController::lessonChanged);
        QSignalSpy finished(&controller, &ExportController::renderFinished);
        QVERIFY(controller.renderPreview());
        QVERIFY(controller.busy());
        QCOMPARE(cell->setMask(QStringLiteral("causal")), QString());
        QCOMPARE(cell->setHeads(2), QString());
        cell->reset();
        QVERIFY(controller.busy()); // not cancelled
        QVERIFY(finished.wait(kRenderTimeout));
        QVERIFY(finished.at(0).at(0).toBool());
        QVERIFY(controller.previewCurrent());
        QCOMPARE(lessonChanged.count(), 0); // not read again

        QCOMPARE(cell->setMask(QStringLiteral("causal")), QString());
        QVERIFY(controller.previewCurrent());
        QCOMPARE(cell->keep(), QString()); // the bytes change
        QCOMPARE(lessonChanged.count(), 1);
        QVERIFY(controller.previewReady());
        QVERIFY(!controller.previewCurrent());
        QVERIFY(controller.worksheetAvailable());

        // A render started before an edit of the bytes finishes, but is not current.
        finished.clear();
        QVERIFY(controller.renderPreview());
        session.editor()->undo();
        QVERIFY(finished.wait(kRenderTimeout));
        QVERIFY(finished.at(0).at(0).toBool());
        QVERIFY(controller.previewReady());
        QVERIFY(!controller.previewCurrent());
        QVERIFY(render(controller));
        QVERIFY(controller.previewCurrent());
    }

    void destroyedWhileRendering() {
        LessonSession session;
        QVERIFY(session.open(QString()));
        auto controller = std::make_unique<ExportController>();
        controller->setSession(&session);
        controller->setKind(ExportController::Worksheet);
        controller->setVariants(6); // the most attention.md allows
        QVERIFY(controller->renderPreview());
        QTRY_VERIFY_WITH_TIMEOUT(controller->progress() > 0.0, kRenderTimeout);
        controller.reset(); // cancels and waits; no progress arrives at a dead object
        settle(200);
    }

    // While the dialog is open (renderOnChoice), a choice made in one click renders its preview
    // by itself; one made while a render runs stops that render and renders the new choice.
    // Typed options wait for Render again; with the dialog closed nothing renders by itself.
    void oneClickChoicesRenderAtOnce() {
        LessonSession session;
        QVERIFY(session.open(QString()));
        ExportController controller;
        controller.setSession(&session);
        controller.setKind(ExportController::Notebook);
        QVERIFY(!controller.busy()); // not asked to
        controller.setRenderOnChoice(true);
        QSignalSpy finished(&controller, &ExportController::renderFinished);
        controller.setKind(ExportController::LessonPdf);
        QVERIFY(controller.busy());
        controller.setPaper(QStringLiteral("letter")); // while it runs
        QTRY_VERIFY_WITH_TIMEOUT(!controller.busy() && controller.previewCurrent(), kRenderTimeout);
        QCOMPARE(finished.count(), 2); // the A4 render stopped, then the Letter one
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        QVERIFY2(controller.previewSummary().startsWith(QStringLiteral("Lesson PDF · Letter")),
                 qPrintable(controller.previewSummary()));
        controller.setKind(ExportController::Worksheet);
        QTRY_VERIFY_WITH_TIMEOUT(!controller.busy() && controller.previewCurrent(), kRenderTimeout);
        controller.setVariants(2); // typed: the preview waits, marked out of date
        QVERIFY(!controller.busy());
        QVERIFY(!controller.previewCurrent());
    }
};

QTEST_MAIN(ExportControllerTest)
#include "test_export_controller.moc"
