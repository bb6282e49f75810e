// Lesson text is data in the window: a lesson that puts markup and remote addresses in every
// field it has (title, headings, prose, tokens and vocab words of both cell kinds, quiz words,
// chart title, axis labels and series names) opens in the real window, offscreen, and
// - nothing crashes (a token `<img src=x>` once took the window down in rich-text layout),
// - no tag takes effect: every text item that shows a lesson word shows it as plain text,
// - no request reaches the network: a local listener named in every address hears nothing,
//   and the window's network access (offline_network.h) says it refused the requests.
#include "app/window/offline_network.h"
#include "app/window/window.h"
#include "tests/app/window_items.h"
#include "tests/test_files.h"

#include <QApplication>
#include <QQmlApplicationEngine>
#include <QQuickItem>
#include <QQuickWindow>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QtQml/qqmlextensionplugin.h>

#include <memory>

Q_IMPORT_QML_PLUGIN(AttnbookPlugin)
Q_IMPORT_QML_PLUGIN(AttnbookModelsPlugin)
Q_IMPORT_QML_PLUGIN(AttnbookWindowPlugin)

using namespace attnbook;

namespace {

// Every field a reader sees, each holding a tag and an address of the listener (PORT).
const QString kLesson = QStringLiteral(ATTNBOOK_SOURCE_DIR "/tests/app/fixtures/hostile_text.md");

// Every text item under `root` (a Repeater's rows included).
void collectTexts(QQuickItem* root, QList<QQuickItem*>& out) {
    if (QByteArray(root->metaObject()->className()).startsWith("QQuickText") &&
        root->property("textFormat").isValid()) {
        out << root;
    }
    for (QQuickItem* child : root->childItems()) {
        collectTexts(child, out);
    }
}

} // namespace

class WindowHostileTextTest : public QObject {
    Q_OBJECT

  private Q_SLOTS:
    void lessonTextIsDataInTheWindow() {
        QTcpServer listener;
        QVERIFY(listener.listen(QHostAddress::LocalHost));
        int connections = 0;
        connect(&listener, &QTcpServer::newConnection, this, [&] {
            ++connections;
            delete listener.nextPendingConnection();
        });
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("hostile.md"));
        QVERIFY(writeAll(
            path, readAll(kLesson).replace("PORT", QByteArray::number(listener.serverPort()))));

        QCoreApplication::setOrganizationName(QStringLiteral("attnbook-tests"));
        QStandardPaths::setTestModeEnabled(true);
        QQuickWindow::setGraphicsApi(QSGRendererInterface::Software);
        chooseControlsStyle();
        QQmlApplicationEngine engine;
        addModuleImportPath(engine);
        engine.setInitialProperties({{QStringLiteral("initialPath"), path},
                                     {QStringLiteral("themeName"), QStringLiteral("light")}});
        engine.load(QUrl(QStringLiteral("qrc:/qt/qml/Attnbook/Main.qml")));
        auto* window = qobject_cast<QQuickWindow*>(engine.rootObjects().value(0));
        QVERIFY(window);
        window->resize(1100, 900);
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window));
        const int refusedBefore = OfflineNetworkFactory::refusedRequests();

        // Every row built: scrolled to the end a screen at a time, and the whole column drawn.
        QQuickItem* lessonView = findItem(window->contentItem(), QStringLiteral("lessonView"));
        QVERIFY(lessonView);
        for (int screen = 0; screen < 20; ++screen) {
            lessonView->setProperty("contentY", screen * 400);
            QTest::qWait(60);
        }
        QTest::qWait(500);
        QVERIFY(!window->grabWindow().isNull());
        QVERIFY(window->grabWindow().save(shotPath(QStringLiteral("hostile-text.png"))));

        // No tag took effect: each text item that holds a tag shows it as plain text.
        QList<QQuickItem*> texts;
        collectTexts(window->contentItem(), texts);
        int tagged = 0;
        for (QQuickItem* text : texts) {
            const QString shown = text->property("text").toString();
            // The lesson's own tags, as it wrote them (Markdown the window turns into HTML for a
            // quiz escapes them: &lt;b&gt;).
            const bool rawTag = shown.contains(QLatin1String("<b>bold</b>")) ||
                                shown.contains(QLatin1String("<img src=x>")) ||
                                shown.contains(QLatin1String("<i>")) ||
                                shown.contains(QLatin1String("<u>u</u>")) ||
                                shown.contains(QLatin1String("<img src='http"));
            if (rawTag) {
                ++tagged;
                QString where;
                for (QQuickItem* at = text; at; at = at->parentItem()) {
                    if (!at->objectName().isEmpty()) {
                        where += at->objectName() + u' ';
                    }
                }
                QVERIFY2(text->property("textFormat").toInt() == 0, // Text.PlainText
                         qPrintable(shown + QStringLiteral(" in ") + where));
            }
        }
        QVERIFY2(tagged >= 6, qPrintable(QString::number(tagged))); // the words are on screen

        // Nothing reached the listener; the window asked for the images and was refused.
        QTest::qWait(300);
        QCOMPARE(connections, 0);
        QVERIFY(OfflineNetworkFactory::refusedRequests() >= refusedBefore);
        QVERIFY2(OfflineNetworkFactory::refusedRequests() > 0, "no image was even asked for");
    }
};

QTEST_MAIN(WindowHostileTextTest)
#include "test_window_hostile_text.moc"
