#include "window.h"

#include <QQmlApplicationEngine>
#include <QQmlContext>
#include <QGuiApplication>

namespace attnbook {

int runWindow(const QStringList& arguments) {
    QQmlApplicationEngine engine;
    engine.rootContext()->setContextProperty(QStringLiteral("lessonArgument"),
                                             arguments.value(0));
    engine.load(QUrl(QStringLiteral("qrc:/qt/qml/Attnbook/Main.qml")));
    if (engine.rootObjects().isEmpty()) {
        return 1;
    }
    return QGuiApplication::exec();
}

} // namespace attnbook
