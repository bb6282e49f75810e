#include "app/window/window.h"

#include "app/window/blas_threads.h"
#include "app/window/offline_network.h"
#include "app/window/renderer_choice.h"

#include <QGuiApplication>
#include <QQmlApplicationEngine>
#include <QQuickStyle>
#include <QUrl>

namespace attnbook {

const char* const kMainQml = "qrc:/qt/qml/Attnbook/Main.qml";

void addModuleImportPath(QQmlEngine& engine) {
    engine.addImportPath(QStringLiteral("qrc:/qt/qml"));
    keepOffline(engine);
}

void chooseControlsStyle() {
    // Fusion draws from the palette the window sets, so the light and the
    // dark theme reach every control.
    QQuickStyle::setStyle(QStringLiteral("Fusion"));
}

int runWindow(const QStringList& arguments) {
    leaveOneCoreToTheGuiThread();
    chooseControlsStyle();
    chooseSceneGraphRenderer();
    QQmlApplicationEngine engine;
    addModuleImportPath(engine);
    // Qt 6.4 has no loadFromModule: the module's Main.qml is in the resources.
    engine.setInitialProperties({{QStringLiteral("initialPath"), arguments.value(0)}});
    engine.load(QUrl(QString::fromLatin1(kMainQml)));
    if (engine.rootObjects().isEmpty()) {
        return 1;
    }
    return QGuiApplication::exec();
}

} // namespace attnbook
