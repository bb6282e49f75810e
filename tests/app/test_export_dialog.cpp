// File → Export, the dialog itself in the real window, drawn offscreen (shotPath,
// tests/test_files.h). The controller without the window is in test_export_controller.cpp.
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

class ExportDialogTest : public QObject {
    Q_OBJECT

    QTemporaryDir settingsFolder_;

  private Q_SLOTS:
    // The window's settings go to a folder of this test's own (it runs beside others).
    void initTestCase() {
        QVERIFY(setUpExportTest(settingsFolder_, QStringLiteral("attnbook-export-dialog-tests")));
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

    // The dialog in the real window, opened with Ctrl+Shift+E, drawn offscreen: the lesson PDF,
    // then the steps below; a failure in one ends the test, as QVERIFY does in place.
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

        cancelWorksheetRender(ui);
        if (QTest::currentTestFailed()) {
            return;
        }
        saveWorksheet(ui, lessonDir);
        if (QTest::currentTestFailed()) {
            return;
        }
        staleThenNotebook(ui);
        if (QTest::currentTestFailed()) {
            return;
        }
        darkTheme(ui);
    }

  private:
    // The worksheet with variants: the progress bar and Cancel (Esc) while it renders.
    static void cancelWorksheetRender(ExportWindow& ui) {
        QQuickWindow* window = ui.window;
        QObject* dialog = ui.dialog;
        ExportController* controller = ui.controller;
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
    }

    // The worksheet with its key shown, then Save… in the system's save dialog.
    static void saveWorksheet(ExportWindow& ui, const QTemporaryDir& lessonDir) {
        QQuickWindow* window = ui.window;
        QObject* dialog = ui.dialog;
        ExportController* controller = ui.controller;
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
    }

    // A typed option marks the preview out of date; the notebook shows its summary.
    static void staleThenNotebook(ExportWindow& ui) {
        QQuickWindow* window = ui.window;
        QObject* dialog = ui.dialog;
        ExportController* controller = ui.controller;
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
    }

    // The dialog again, in the dark theme.
    static void darkTheme(ExportWindow& ui) {
        QQuickWindow* window = ui.window;
        QObject* dialog = ui.dialog;
        ExportController* controller = ui.controller;
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

QTEST_MAIN(ExportDialogTest)
#include "test_export_dialog.moc"
