// The authoring tools in the real window, drawn offscreen: prose in edit
// mode with its preview, a cell's YAML with an error at its line, the
// problems panel, Undo named in the Edit menu and the unsaved mark in the
// title. Shots go to shotPath (tests/test_files.h), editor-*.png.
#include "app/models/attention_cell_model.h"
#include "app/models/document_editor.h"
#include "app/models/lesson_session.h"
#include "app/window/window.h"
#include "tests/test_files.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QQmlApplicationEngine>
#include <QQuickItem>
#include <QQuickWindow>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QtQml/qqmlextensionplugin.h>

#include <memory>

Q_IMPORT_QML_PLUGIN(AttnbookPlugin)
Q_IMPORT_QML_PLUGIN(AttnbookModelsPlugin)
Q_IMPORT_QML_PLUGIN(AttnbookWindowPlugin)

using namespace attnbook;

namespace {

void settle(int ms) {
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < ms) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QTest::qWait(10);
    }
}

// Finds an object by name in the window's items, visual children included
// (a Repeater's rows have no QObject parent).
QObject* find(QObject* root, const QString& name) {
    if (root->objectName() == name) {
        return root;
    }
    if (auto* item = qobject_cast<QQuickItem*>(root)) {
        for (QQuickItem* child : item->childItems()) {
            if (QObject* found = find(child, name)) {
                return found;
            }
        }
    }
    for (QObject* child : root->children()) {
        if (QObject* found = find(child, name)) {
            return found;
        }
    }
    return nullptr;
}

} // namespace

class TestWindowEditor : public QObject {
    Q_OBJECT

    // Kept for the tests after the first, which reuse its window.
    std::unique_ptr<QQmlApplicationEngine> engine_;
    QTemporaryDir dir_;
    QQuickWindow* window_ = nullptr;
    LessonSession* session_ = nullptr;
    QObject* view_ = nullptr;

    void shot(const QString& name) {
        settle(300);
        QVERIFY(window_->grabWindow().save(shotPath(name)));
    }

    QObject* named(const QString& name) {
        QObject* found = find(window_->contentItem(), name);
        return found ? found : find(window_, name);
    }

  private Q_SLOTS:
    // A session with unsaved edits goes away without a word: its editor's undo stack empties
    // itself as it is destroyed, and before the fix its "dirty changed" reached the saver of a
    // session already destroyed (UBSan under scripts/sanitize.sh).
    void aSessionWithEditsGoesAwayQuietly() {
        auto session = std::make_unique<LessonSession>();
        session->openText(QStringLiteral("quiet.md"), "# Quiet\n\nSome prose.\n");
        QCOMPARE(session->editor()->setProse(0, QStringLiteral("# Quiet\n\nOther prose.\n")),
                 QString());
        QVERIFY(session->unsavedChanges());
        int heard = 0;
        QObject::connect(session->editor(), &DocumentEditor::dirtyChanged, [&heard] { ++heard; });
        QObject::connect(session->editor(), &DocumentEditor::historyChanged, [&heard] { ++heard; });
        session.reset();
        QCOMPARE(heard, 0);
    }

    void editInTheWindow() {
        QStandardPaths::setTestModeEnabled(true);
        QQuickWindow::setGraphicsApi(QSGRendererInterface::Software);
        chooseControlsStyle();
        engine_ = std::make_unique<QQmlApplicationEngine>();
        QQmlApplicationEngine& engine = *engine_;
        addModuleImportPath(engine);
        engine.setInitialProperties({{QStringLiteral("initialPath"), QString()},
                                     {QStringLiteral("themeName"), QStringLiteral("light")}});
        engine.load(QUrl(QStringLiteral("qrc:/qt/qml/Attnbook/Main.qml")));
        window_ = qobject_cast<QQuickWindow*>(engine.rootObjects().value(0));
        QVERIFY(window_);
        const QString lesson = dir_.filePath(QStringLiteral("window.md"));
        QVERIFY(QFile::copy(QStringLiteral(ATTNBOOK_SOURCE_DIR "/tests/app/fixtures/window.md"),
                            lesson));
        QFile(lesson).setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        QVERIFY(QMetaObject::invokeMethod(window_, "openLesson", Q_ARG(QString, lesson)));
        window_->setProperty("editingLesson", true); // the tools above each row
        window_->resize(1180, 820);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_));
        session_ = qvariant_cast<LessonSession*>(window_->property("session"));
        if (!session_) {
            session_ = window_->findChild<LessonSession*>();
        }
        QVERIFY(session_);
        view_ = named(QStringLiteral("lessonView"));
        QVERIFY(view_);
        const QByteArray original = session_->documentText().toUtf8();

        // Prose in edit mode, the preview beside it.
        const int proseRow = session_->cells()->rowOfLine(8);
        QVERIFY(QMetaObject::invokeMethod(view_, "editRow", Q_ARG(int, proseRow)));
        settle(200);
        auto* proseEditor = named(QStringLiteral("proseEditor"));
        QVERIFY2(proseEditor, qPrintable(QString::number(proseRow)));
        auto* prose = named(QStringLiteral("proseSource"));
        QVERIFY(prose);
        QVERIFY(prose->property("text").toString().contains(
            QStringLiteral("{{colour.head[0].weights[0][1]:4}}")));
        auto* preview = named(QStringLiteral("prosePreview"));
        QVERIFY(preview);
        QVERIFY(preview->property("markdown").toString().contains(QStringLiteral("0.2327")));
        shot(QStringLiteral("editor-prose.png"));
        prose->setProperty("text",
                           prose->property("text").toString() + QStringLiteral(" And more."));
        auto* apply = named(QStringLiteral("applyProse"));
        QVERIFY(QMetaObject::invokeMethod(apply, "clicked"));
        settle(200);
        QVERIFY(session_->unsavedChanges());
        QVERIFY(window_->title().startsWith(QStringLiteral("• ")));
        auto* undoItem = named(QStringLiteral("undoMenuItem"));
        QVERIFY(undoItem);
        QCOMPARE(undoItem->property("text").toString(), QStringLiteral("&Undo Edit prose"));

        // A cell's YAML with an error at its line.
        const int cellRow = session_->cells()->rowOfCell(QStringLiteral("colour"));
        QVERIFY(QMetaObject::invokeMethod(view_, "editRow", Q_ARG(int, cellRow)));
        settle(200);
        auto* yaml = named(QStringLiteral("yamlSource"));
        QVERIFY(yaml);
        QString body = yaml->property("text").toString();
        body.replace(QStringLiteral("heads: 1"), QStringLiteral("heads: [1"));
        yaml->setProperty("text", body);
        settle(500);
        auto* problem = named(QStringLiteral("yamlProblem"));
        QVERIFY(problem);
        QVERIFY(problem->property("visible").toBool());
        QVERIFY2(problem->property("text").toString().contains(QStringLiteral("window.md:")),
                 qPrintable(problem->property("text").toString()));
        shot(QStringLiteral("editor-yaml-error.png"));
        // Applied with the error: the cell shows its source, the problems panel the error.
        QVERIFY(QMetaObject::invokeMethod(named(QStringLiteral("applyYaml")), "clicked"));
        settle(200);
        QVERIFY(session_->problems()->errorCount() > 0);
        view_->setProperty("contentY", 0);
        shot(QStringLiteral("editor-problems.png"));

        // Ctrl+Z twice: the exact original bytes, nothing unsaved.
        QTest::keyClick(window_, Qt::Key_Z, Qt::ControlModifier);
        QTest::keyClick(window_, Qt::Key_Z, Qt::ControlModifier);
        settle(100);
        QCOMPARE(session_->documentText().toUtf8(), original);
        QVERIFY(!session_->unsavedChanges());
        QVERIFY(!window_->title().startsWith(QStringLiteral("• ")));
        QTest::keyClick(window_, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        settle(100);
        QVERIFY(session_->unsavedChanges());
        shot(QStringLiteral("editor-tools.png"));
        session_->editor()->undo();
    }

    // Ctrl+Z right after clicking Keep or Duplicate undoes at once (the clicked
    // control was disabled or rebuilt away, and the key went nowhere until the next click).
    void undoAtOnceAfterKeepAndDuplicate() {
        QVERIFY(window_);
        window_->setProperty("editingLesson", true);
        window_->requestActivate();
        QVERIFY(QTest::qWaitForWindowActive(window_));
        const QByteArray original = session_->documentText().toUtf8();
        auto* cell = qobject_cast<AttentionCellModel*>(session_->cell(QStringLiteral("colour")));
        QVERIFY(cell);
        QCOMPARE(cell->setHeads(2), QString());
        QTRY_VERIFY(!cell->property("updating").toBool());
        const int row = session_->cells()->rowOfCell(QStringLiteral("colour"));
        QVERIFY(QMetaObject::invokeMethod(view_, "showRow", Q_ARG(int, row)));
        settle(200);
        auto click = [this](const QString& name) {
            auto* item = qobject_cast<QQuickItem*>(named(name));
            QVERIFY2(item && item->isVisible() && item->isEnabled(), qPrintable(name));
            const QPointF centre = item->mapToScene(QPointF(item->width() / 2, item->height() / 2));
            QTest::mouseClick(window_, Qt::LeftButton, {}, centre.toPoint());
        };
        click(QStringLiteral("keep"));
        QTRY_VERIFY(session_->unsavedChanges());
        QTest::keyClick(window_, Qt::Key_Z, Qt::ControlModifier);
        QCoreApplication::processEvents();
        QVERIFY2(!session_->unsavedChanges(), "Ctrl+Z right after Keep");
        QCOMPARE(session_->documentText().toUtf8(), original);

        settle(200);
        click(QStringLiteral("duplicate_") + QString::number(row));
        QTRY_VERIFY(session_->unsavedChanges());
        QTest::keyClick(window_, Qt::Key_Z, Qt::ControlModifier);
        QCoreApplication::processEvents();
        QVERIFY2(!session_->unsavedChanges(), "Ctrl+Z right after Duplicate");
        QCOMPARE(session_->documentText().toUtf8(), original);
    }
};

QTEST_MAIN(TestWindowEditor)
#include "test_window_editor.moc"
