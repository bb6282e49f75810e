// Qt Quick Test runner for the window's QML, with the static QML modules
// linked in and a QApplication (Qt Charts in QML needs widgets).
#include "app/window/window.h"
#include "tests/test_files.h"

#include <QApplication>
#include <QFile>
#include <QFileInfo>
#include <QQmlContext>
#include <QQmlEngine>
#include <QSettings>
#include <QTemporaryDir>
#include <QtQml/qqmlextensionplugin.h>
#include <QtQuickTest/quicktest.h>

Q_IMPORT_QML_PLUGIN(AttnbookPlugin)
Q_IMPORT_QML_PLUGIN(AttnbookModelsPlugin)
Q_IMPORT_QML_PLUGIN(AttnbookWindowPlugin)

class Setup : public QObject {
    Q_OBJECT

  public:
    explicit Setup(QString userFolders) : userFolders_(std::move(userFolders)) {}

  public Q_SLOTS:
    void applicationAvailable() { attnbook::chooseControlsStyle(); }
    void qmlEngineAvailable(QQmlEngine* engine) {
        attnbook::addModuleImportPath(*engine);
        QQmlContext* context = engine->rootContext();
        // Where the tests find the lessons and their fixtures.
        context->setContextProperty(QStringLiteral("sourceDir"),
                                    QStringLiteral(ATTNBOOK_SOURCE_DIR));
        // Where this run keeps its settings, and the file the window's settings go to.
        context->setContextProperty(QStringLiteral("userFolders"), userFolders_);
        context->setContextProperty(QStringLiteral("settingsFile"), QSettings().fileName());
        // Where the tests save the screenshots they draw for people (tests/test_files.h).
        context->setContextProperty(QStringLiteral("shotsFolder"),
                                    QFileInfo(shotPath(QStringLiteral("x"))).path());
    }

  private:
    QString userFolders_;
};

int main(int argc, char** argv) {
    // The window remembers recent files, the zoom and the reading mode in QSettings and keeps
    // recovery files beside them. Each run gets folders of its own, removed at its end: two
    // checkouts' suites running side by side cannot change each other's values (test_zoom and
    // test_recentFiles failed that way), and a user's own settings are never read or written.
    // Set before the application exists, so every QSettings and QStandardPaths sees them.
    QTemporaryDir userFolders;
    if (!userFolders.isValid()) {
        qFatal("no temporary folder for the tests' settings");
    }
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(userFolders.filePath(QStringLiteral("config"))));
    qputenv("XDG_DATA_HOME", QFile::encodeName(userFolders.filePath(QStringLiteral("data"))));
    qputenv("XDG_CACHE_HOME", QFile::encodeName(userFolders.filePath(QStringLiteral("cache"))));
    qputenv("XDG_STATE_HOME", QFile::encodeName(userFolders.filePath(QStringLiteral("state"))));

    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("attnbook-tests"));
    QApplication::setApplicationName(QStringLiteral("attnbook-qml-tests"));
    Setup setup(userFolders.path());
    return quick_test_main_with_setup(argc, argv, "attnbook_qml", QUICK_TEST_SOURCE_DIR, &setup);
}

#include "main.moc"
