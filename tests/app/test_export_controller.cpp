// File → Export in the window: the ExportController renders the open lesson into a preview on a
// worker thread and saves it atomically; a cancelled or refused export writes nothing. Then
// the dialog itself, in the real window, drawn offscreen (shotPath, tests/test_files.h).
// Longer than 500 lines on purpose: the controller's cases and the dialog's share the window and
// PDF helpers at the top.
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

namespace {

constexpr int kRenderTimeout = 300000;

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

// Runs `act` on the next modal widget (the save dialog SaveDialog shows), once it is shown.
void whenModal(std::function<void(QWidget*)> act) {
    auto* poll = new QTimer;
    poll->setInterval(20);
    QObject::connect(poll, &QTimer::timeout, [poll, act] {
        if (QWidget* modal = QApplication::activeModalWidget(); modal && modal->isVisible()) {
            poll->stop();
            poll->deleteLater();
            act(modal);
        }
    });
    poll->start();
}

// Runs the event loop for `ms`, so that layouts, images and the PDF view settle.
void settle(int ms) {
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < ms) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QTest::qWait(10);
    }
}

// Every item under ROOT named NAME: a Repeater's delegates are items of the scene, not QObject
// children of the window.
QList<QQuickItem*> itemsNamed(QQuickItem* root, const QString& name) {
    QList<QQuickItem*> found;
    for (QQuickItem* child : root->childItems()) {
        if (child->objectName() == name) {
            found << child;
        }
        found << itemsNamed(child, name);
    }
    return found;
}

// The main window with LESSONFILE open, shown offscreen, and its export dialog.
struct ExportWindow {
    QQmlApplicationEngine engine;
    QQuickWindow* window = nullptr;
    QObject* dialog = nullptr;
    ExportController* controller = nullptr;

    bool load(const QString& lessonFile, const QString& theme = QStringLiteral("light")) {
        QQuickWindow::setGraphicsApi(QSGRendererInterface::Software);
        chooseControlsStyle();
        addModuleImportPath(engine);
        // Opened as `attnbook FILE` opens it.
        engine.setInitialProperties(
            {{QStringLiteral("initialPath"), lessonFile}, {QStringLiteral("themeName"), theme}});
        engine.load(QUrl(QString::fromLatin1(kMainQml)));
        window = qobject_cast<QQuickWindow*>(engine.rootObjects().value(0));
        if (!window) {
            return false;
        }
        window->resize(1180, 820);
        window->show();
        if (!QTest::qWaitForWindowExposed(window)) {
            return false;
        }
        dialog = window->findChild<QObject*>(QStringLiteral("exportDialog"));
        return dialog != nullptr;
    }

    // File → Export (Ctrl+Shift+E).
    bool openDialog() {
        QTest::keyClick(window, Qt::Key_E, Qt::ControlModifier | Qt::ShiftModifier);
        if (!QTest::qWaitFor([&] { return dialog->property("opened").toBool(); })) {
            return false;
        }
        controller = qvariant_cast<ExportController*>(dialog->property("controller"));
        return controller != nullptr;
    }

    // A click in the middle of the item named NAME, as a user makes it.
    bool click(const QString& name) {
        QQuickItem* item = itemsNamed(window->contentItem(), name).value(0);
        if (!item || !item->isVisible() || !item->isEnabled()) {
            return false;
        }
        const QPointF centre = item->mapToScene(QPointF(item->width() / 2, item->height() / 2));
        QTest::mouseClick(window, Qt::LeftButton, Qt::NoModifier, centre.toPoint());
        return true;
    }

    // Waits until the dialog's status line says "Rendered", and looks at the preview then and for
    // the next few frames at most (it stayed blank for 2 s while it said so). "" when
    // the view of the file just rendered is on show with text on its page, else what was seen.
    QString pagesWhenItSaysRendered() {
        auto* status = window->findChild<QObject*>(QStringLiteral("exportStatus"));
        if (!status) {
            return QStringLiteral("no status line");
        }
        QElapsedTimer timer;
        timer.start();
        while (!status->property("text").toString().startsWith(QStringLiteral("Rendered"))) {
            if (timer.elapsed() > kRenderTimeout) {
                return QStringLiteral("it never said Rendered");
            }
            QCoreApplication::processEvents(QEventLoop::AllEvents, 2);
        }
        // The page image is ready when the status says so; the scene shows it at the next frame
        // or two. Blank for longer than a few frames (it was 2 s) is the fault looked for.
        QString seen;
        for (int frame = 0; frame < 10; ++frame) {
            seen = pagesOnShow();
            if (seen.isEmpty()) {
                return seen;
            }
            QTest::qWait(30);
        }
        return seen;
    }

    // "" when the view of the file just rendered shows text on its page, else what it shows.
    QString pagesOnShow() {
        const QImage shot = window->grabWindow();
        const QUrl rendered = controller->previewUrl();
        for (QQuickItem* view : itemsNamed(window->contentItem(), QStringLiteral("pdfPreview"))) {
            auto* document = view->property("document").value<QObject*>();
            if (!document || document->property("source").toUrl() != rendered ||
                !view->isVisible() || view->opacity() < 1) {
                continue;
            }
            // Text on a page: dark pixels on it (the frame and the pages' paper are light).
            const QRect area = view->mapRectToScene(QRectF(0, 0, view->width(), view->height()))
                                   .toRect()
                                   .intersected(shot.rect());
            int dark = 0;
            for (int y = area.top(); y <= area.bottom(); ++y) {
                for (int x = area.left(); x <= area.right(); ++x) {
                    dark += qGray(shot.pixel(x, y)) < 110;
                }
            }
            return dark > 300 ? QString()
                              : QStringLiteral("a blank preview (%1 dark pixels) while it says "
                                               "Rendered")
                                    .arg(dark);
        }
        return QStringLiteral("no view of the rendered file while it says Rendered");
    }
};

} // namespace

class ExportControllerTest : public QObject {
    Q_OBJECT

  private Q_SLOTS:
    void initTestCase() {
        QApplication::setAttribute(Qt::AA_DontUseNativeDialogs);
        QApplication::setOrganizationName(QStringLiteral("attnbook-tests"));
        QApplication::setApplicationName(QStringLiteral("attnbook-export-tests"));
        QSettings().remove(QStringLiteral("export/lastFolder")); // a folder of an earlier run
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

    // In the real window: "Render again" was needed after changing the
    // export kind. A click on a kind renders it by itself.
    void dialogRendersAChosenKindByItself() {
        ExportWindow ui;
        QVERIFY(ui.load(QStringLiteral(ATTNBOOK_SOURCE_DIR "/documents/attention.md")));
        QVERIFY(ui.openDialog());
        QTRY_VERIFY_WITH_TIMEOUT(ui.controller->previewCurrent(), kRenderTimeout);
        for (const auto& [name, summary] :
             {std::pair{"kindWebPage", "Web page: "}, std::pair{"kindLessonPdf", "Lesson PDF"}}) {
            QVERIFY2(ui.click(QLatin1String(name)), name);
            QTRY_VERIFY2_WITH_TIMEOUT(ui.controller->busy() || ui.controller->previewCurrent(),
                                      name, 3000);
            QTRY_VERIFY_WITH_TIMEOUT(!ui.controller->busy(), kRenderTimeout);
            QVERIFY2(ui.controller->previewCurrent(), qPrintable(ui.controller->error()));
            QVERIFY2(ui.controller->previewSummary().startsWith(QLatin1String(summary)),
                     qPrintable(ui.controller->previewSummary()));
        }
    }

    // The preview was blank for 2 s while the status said "Rendered". Now it
    // says so once the new pages are drawn (the last ones stay, faded, until then).
    void dialogShowsThePagesWhenItSaysRendered() {
        ExportWindow ui;
        QVERIFY(ui.load(QStringLiteral(ATTNBOOK_SOURCE_DIR "/documents/attention.md")));
        QVERIFY(ui.openDialog());
        QCOMPARE(ui.pagesWhenItSaysRendered(), QString()); // opening renders the lesson PDF
        ui.controller->setKind(ExportController::Bundle);  // its lesson.pdf, another file
        QVERIFY(ui.controller->busy() || ui.controller->renderPreview());
        QCOMPARE(ui.pagesWhenItSaysRendered(), QString());
        QVERIFY(ui.controller->previewSummary().startsWith(QStringLiteral("Bundle: ")));
        QVERIFY(ui.window->grabWindow().save(shotPath(QStringLiteral("export-dialog-bundle.png"))));
    }

    // The dialog in the real window, opened with Ctrl+Shift+E, drawn offscreen.
    void dialogInTheWindow() {
        // The lesson from a folder of its own: where Save… starts, and where the test saves.
        QTemporaryDir lessonDir;
        const QString lessonFile = lessonDir.filePath(QStringLiteral("attention.md"));
        QVERIFY(
            QFile::copy(QStringLiteral(ATTNBOOK_SOURCE_DIR "/documents/attention.md"), lessonFile));
        ExportWindow ui;
        QVERIFY(ui.load(lessonFile));
        QQuickWindow* window = ui.window;
        QObject* dialog = ui.dialog;
        settle(300);
        QVERIFY(!dialog->property("visible").toBool());
        QVERIFY(ui.openDialog());
        ExportController* controller = ui.controller;
        // Opening renders the preview of the lesson PDF.
        QTRY_VERIFY_WITH_TIMEOUT(controller->previewCurrent(), kRenderTimeout);
        auto* pageIndicator = window->findChild<QObject*>(QStringLiteral("pageIndicator"));
        QVERIFY(pageIndicator);
        QTRY_VERIFY(pageIndicator->property("visible").toBool());
        QVERIFY(
            pageIndicator->property("text").toString().startsWith(QStringLiteral("Page 1 of ")));
        settle(800);
        QVERIFY(window->grabWindow().save(shotPath(QStringLiteral("export-dialog.png"))));

        // The worksheet with variants: the progress bar and Cancel while it renders. Typed
        // options wait; choosing the kind renders it.
        controller->setVariants(6); // the most attention.md allows
        controller->setSeed(QStringLiteral("42"));
        QVERIFY(!controller->busy());
        controller->setKind(ExportController::Worksheet);
        QVERIFY(controller->busy());
        QTRY_VERIFY_WITH_TIMEOUT(controller->progress() > 0.1 || !controller->busy(),
                                 kRenderTimeout);
        if (controller->busy()) {
            auto* bar = window->findChild<QObject*>(QStringLiteral("exportProgress"));
            QVERIFY(bar && bar->property("visible").toBool());
            QVERIFY(
                window->grabWindow().save(shotPath(QStringLiteral("export-dialog-progress.png"))));
            // Esc cancels the render (and does not close the dialog).
            QTest::keyClick(window, Qt::Key_Escape);
            QTRY_VERIFY_WITH_TIMEOUT(!controller->busy(), kRenderTimeout);
            QVERIFY(dialog->property("opened").toBool());
            // The render may end between the grab and the key on a loaded machine: then it is
            // shown, not cancelled.
            QVERIFY2(controller->message().startsWith(QStringLiteral("Cancelled")) ||
                         controller->previewCurrent(),
                     qPrintable(controller->message()));
        }
        controller->setVariants(3);
        QVERIFY(controller->renderPreview());
        QTRY_VERIFY_WITH_TIMEOUT(controller->previewCurrent(), kRenderTimeout);
        auto* choice = window->findChild<QObject*>(QStringLiteral("previewChoice"));
        QVERIFY(choice);
        QTRY_VERIFY(choice->property("visible").toBool());
        dialog->setProperty("showingKey", true); // what its "Answer key" button does
        settle(800);
        QVERIFY(window->grabWindow().save(shotPath(QStringLiteral("export-dialog-worksheet.png"))));
        // Save… asks in the system's save dialog (SaveDialog), in the lesson's folder with the
        // lesson's name; Enter saves there, the key too.
        bool asked = false;
        whenModal([&](QWidget* modal) {
            auto* files = qobject_cast<QFileDialog*>(modal);
            QVERIFY(files);
            QCOMPARE(QDir(files->directory()).absolutePath(),
                     QDir(lessonDir.path()).absolutePath());
            auto* name = files->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
            QVERIFY(name);
            QCOMPARE(name->text(), QStringLiteral("attention-worksheet.pdf"));
            asked = true;
            QTest::keyClick(name, Qt::Key_Return);
        });
        QTest::keyClick(window, Qt::Key_S, Qt::ControlModifier); // Save…, not the lesson's Save
        QTRY_VERIFY(asked);
        QTRY_VERIFY(QFileInfo::exists(
            lessonDir.filePath(QStringLiteral("attention-worksheet-answers.pdf"))));
        QVERIFY(readAll(lessonDir.filePath(QStringLiteral("attention-worksheet.pdf")))
                    .startsWith("%PDF-"));
        QVERIFY2(controller->message().startsWith(QStringLiteral(
                     "Saved attention-worksheet.pdf and attention-worksheet-answers.pdf")),
                 qPrintable(controller->message()));
        settle(300);
        QVERIFY(window->grabWindow().save(shotPath(QStringLiteral("export-dialog-saved.png"))));

        // A typed option changed: the preview is marked out of date.
        controller->setSeed(QStringLiteral("43"));
        settle(300);
        QVERIFY(window->grabWindow().save(shotPath(QStringLiteral("export-dialog-stale.png"))));

        // The notebook: its summary where the pages would be.
        controller->setKind(ExportController::Notebook);
        QTRY_VERIFY_WITH_TIMEOUT(controller->previewCurrent(), kRenderTimeout);
        auto* notebook = window->findChild<QObject*>(QStringLiteral("notebookPreview"));
        QVERIFY(notebook);
        QTRY_VERIFY(notebook->property("visible").toBool());
        QVERIFY(notebook->property("text").toString().startsWith(QStringLiteral("Notebook: ")));
        settle(300);
        QVERIFY(window->grabWindow().save(shotPath(QStringLiteral("export-dialog-notebook.png"))));
        QTest::keyClick(window, Qt::Key_Escape);
        QTRY_VERIFY(!dialog->property("visible").toBool());

        // View → Theme: dark, then the dialog again (the menu is out of reach while it is open).
        window->setProperty("themeName", QStringLiteral("dark"));
        settle(200);
        QTest::keyClick(window, Qt::Key_E, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_VERIFY(dialog->property("opened").toBool());
        QTRY_VERIFY_WITH_TIMEOUT(!controller->busy(), kRenderTimeout);
        settle(800);
        QVERIFY(window->grabWindow().save(shotPath(QStringLiteral("export-dialog-dark.png"))));
        QTest::keyClick(window, Qt::Key_Escape);
        QTRY_VERIFY(!dialog->property("visible").toBool());
    }
};

QTEST_MAIN(ExportControllerTest)
#include "test_export_controller.moc"
