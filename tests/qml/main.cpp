// Qt Quick Test runner for the window's QML, with the static QML modules
// linked in and a QApplication (Qt Charts in QML needs widgets).
#include "app/window.h"

#include <QApplication>
#include <QQmlContext>
#include <QQmlEngine>
#include <QtQml/qqmlextensionplugin.h>
#include <QtQuickTest/quicktest.h>

Q_IMPORT_QML_PLUGIN(AttnbookPlugin)
Q_IMPORT_QML_PLUGIN(AttnbookModelsPlugin)

class Setup : public QObject {
    Q_OBJECT

  public Q_SLOTS:
    void applicationAvailable() { attnbook::chooseControlsStyle(); }
    void qmlEngineAvailable(QQmlEngine* engine) {
        attnbook::addModuleImportPath(*engine);
        // Where the tests find the lessons and their fixtures.
        engine->rootContext()->setContextProperty(QStringLiteral("sourceDir"),
                                                  QStringLiteral(ATTNBOOK_SOURCE_DIR));
    }
};

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("attnbook-tests"));
    QApplication::setApplicationName(QStringLiteral("attnbook-qml-tests"));
    Setup setup;
    return quick_test_main_with_setup(argc, argv, "attnbook_qml", QUICK_TEST_SOURCE_DIR, &setup);
}

#include "main.moc"
