// attnbook-binding-bench: how many QML bindings one what-if re-evaluates in the window.
// A benchmark: built by the default build, never run by CTest.
//
//   attnbook-binding-bench [LESSON CELL]...   (default: attention.md playground,
//                                              transformer.md playground)
//
// The window (Main.qml, offscreen, software renderer) shows one cell alone, as `shot --cell`
// does, so that every view of the cell exists. For every signal of the window's C++ objects
// (the models in app/models) it counts the subscribers before any edit: QObject::receivers
// counts QML's binding guards too, one per binding and signal. Then it makes the cell's
// what-ifs one after another, through the same Q_INVOKABLEs the controls call, and for each
// reports the sum over the signals it emitted of emissions × subscribers: the bindings (and
// Connections handlers) re-evaluated because of it. Objects the what-if creates are not
// counted; the cell's own views are made once, when the window opens.
#include "app/window/window.h"

#include <QApplication>
#include <QDeadlineTimer>
#include <QMetaMethod>
#include <QQmlApplicationEngine>
#include <QQuickWindow>
#include <QSignalSpy>
#include <QtQml/QQmlExtensionPlugin>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

Q_IMPORT_QML_PLUGIN(AttnbookPlugin)
Q_IMPORT_QML_PLUGIN(AttnbookModelsPlugin)
Q_IMPORT_QML_PLUGIN(AttnbookWindowPlugin)

using namespace attnbook;

namespace {

// QObject::receivers is protected: its address, taken through a class that may name it, is a
// pointer to QObject's member and so callable on any QObject.
struct ReceiverCount : QObject {
    static int of(const QObject* object, const QMetaMethod& signal) {
        const QByteArray signature = "2" + signal.methodSignature(); // what SIGNAL() writes
        return (object->*(&ReceiverCount::receivers))(signature.constData());
    }
};

struct WatchedSignal {
    const QObject* object;
    QString name; // Class::signal
    QMetaMethod signal;
    int subscribers;
    std::unique_ptr<QSignalSpy> spy;
};

// Every signal of the window's own C++ objects that something listens to.
std::vector<WatchedSignal> watchSignals(QObject* root) {
    std::vector<WatchedSignal> watched;
    QList<QObject*> objects = root->findChildren<QObject*>();
    objects.prepend(root);
    for (QObject* object : objects) {
        const QMetaObject* meta = object->metaObject();
        if (!QByteArray(meta->className()).startsWith("attnbook::")) {
            continue;
        }
        for (int i = QObject::staticMetaObject.methodCount(); i < meta->methodCount(); ++i) {
            const QMetaMethod method = meta->method(i);
            if (method.methodType() != QMetaMethod::Signal) {
                continue;
            }
            const int subscribers = ReceiverCount::of(object, method);
            if (subscribers == 0) {
                continue;
            }
            const QString name = QString::fromLatin1(meta->className()).mid(10) +
                                 QStringLiteral("::") + QString::fromLatin1(method.name());
            watched.push_back({object, name, method, subscribers, nullptr});
        }
    }
    // The spies connect after every count, so that none counts another's connection.
    for (WatchedSignal& w : watched) {
        w.spy = std::make_unique<QSignalSpy>(w.object, w.signal);
    }
    return watched;
}

void settle(QObject* cell, int quietMs) {
    QDeadlineTimer deadline(30000);
    QDeadlineTimer quiet(quietMs);
    while (!deadline.hasExpired()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
        if (cell->property("updating").toBool()) {
            quiet.setRemainingTime(quietMs);
        } else if (quiet.hasExpired()) {
            return;
        }
    }
}

struct WhatIf {
    const char* name;
    std::function<QString(QObject*)> apply;
};

QString call(QObject* cell, const char* method, QVariantList arguments) {
    QString answer;
    QGenericArgument a[3];
    for (int i = 0; i < arguments.size(); ++i) {
        a[i] = QGenericArgument(arguments[i].typeName(), arguments[i].constData());
    }
    QMetaObject::invokeMethod(cell, method, Qt::DirectConnection, Q_RETURN_ARG(QString, answer),
                              a[0], a[1], a[2]);
    return answer;
}

std::vector<WhatIf> whatIfs(const QString& kind) {
    using V = QVariantList;
    if (kind == QLatin1String("attnbook::AttentionCellModel")) {
        return {
            {"a W_Q entry",
             [](QObject* c) {
                 QString answer;
                 QMetaObject::invokeMethod(c, "setMatrixEntry", Qt::DirectConnection,
                                           Q_RETURN_ARG(QString, answer),
                                           Q_ARG(QString, QStringLiteral("W_Q")), Q_ARG(int, 0),
                                           Q_ARG(int, 1), Q_ARG(QString, QStringLiteral("0.5")));
                 return answer;
             }},
            {"a token renamed",
             [](QObject* c) {
                 return call(c, "renameToken", V{0, QStringLiteral("green")});
             }},
            {"a token added",
             [](QObject* c) { return call(c, "addToken", V{QStringLiteral("blue")}); }},
            {"two heads", [](QObject* c) { return call(c, "setHeads", V{2}); }},
            {"the causal mask",
             [](QObject* c) { return call(c, "setMask", V{QStringLiteral("causal")}); }},
            {"positions",
             [](QObject* c) { return call(c, "setPositional", V{QStringLiteral("sinusoidal")}); }},
            {"the focus row", [](QObject* c) { return call(c, "setFocus", V{1}); }},
        };
    }
    return {
        {"the temperature", [](QObject* c) { return call(c, "setTemperature", V{0.5}); }},
        {"a token replaced",
         [](QObject* c) {
             return call(c, "replaceToken", V{1, QStringLiteral("cat")});
         }},
        {"a token added", [](QObject* c) { return call(c, "addToken", V{QStringLiteral("the")}); }},
        {"no normalization", [](QObject* c) { return call(c, "setNorm", V{false}); }},
        {"one block", [](QObject* c) { return call(c, "setLayersRun", V{1}); }},
        {"greedy generation",
         [](QObject* c) {
             return call(c, "setGenerate", V{3, QStringLiteral("greedy"), 7});
         }},
    };
}

int benchCell(const QString& lesson, const QString& cellId) {
    QQmlApplicationEngine engine;
    addModuleImportPath(engine);
    engine.setInitialProperties(
        {{QStringLiteral("initialPath"), lesson}, {QStringLiteral("shotCell"), cellId}});
    engine.load(QUrl(QString::fromLatin1(kMainQml)));
    auto* window = qobject_cast<QQuickWindow*>(engine.rootObjects().value(0));
    if (!window) {
        std::fprintf(stderr, "the window could not be created\n");
        return 1;
    }
    window->resize(1280, 4000); // every view of the cell laid out at once
    QObject* session = window->property("session").value<QObject*>();
    QObject* cell = nullptr;
    QMetaObject::invokeMethod(session, "cell", Qt::DirectConnection, Q_RETURN_ARG(QObject*, cell),
                              Q_ARG(QString, cellId));
    if (!cell) {
        std::fprintf(stderr, "%s has no cell %s\n", qPrintable(lesson), qPrintable(cellId));
        return 1;
    }
    settle(cell, 1500);
    std::vector<WatchedSignal> watched = watchSignals(window);
    int subscriptions = 0;
    for (const WatchedSignal& w : watched) {
        subscriptions += w.subscribers;
    }
    std::printf("\n%s, cell %s: %zu signals with %d subscriptions\n", qPrintable(lesson),
                qPrintable(cellId), watched.size(), subscriptions);
    std::printf("  %-20s %12s   largest parts\n", "what-if", "re-evaluated");
    for (const WhatIf& whatIf : whatIfs(QString::fromLatin1(cell->metaObject()->className()))) {
        for (WatchedSignal& w : watched) {
            w.spy->clear();
        }
        const QString refused = whatIf.apply(cell);
        settle(cell, 300);
        std::map<QString, int> parts;
        int total = 0;
        for (const WatchedSignal& w : watched) {
            const int n = int(w.spy->count()) * w.subscribers;
            if (n > 0) {
                parts[w.name] += n;
                total += n;
            }
        }
        std::vector<std::pair<int, QString>> largest;
        for (const auto& [name, n] : parts) {
            largest.push_back({n, name});
        }
        std::sort(largest.rbegin(), largest.rend());
        QStringList shown;
        for (size_t i = 0; i < std::min<size_t>(3, largest.size()); ++i) {
            shown << QStringLiteral("%1 %2").arg(largest[i].second).arg(largest[i].first);
        }
        std::printf("  %-20s %12d   %s%s\n", whatIf.name, total, qPrintable(shown.join(", ")),
                    refused.isEmpty() ? "" : qPrintable(" (refused: " + refused + ")"));
    }
    return 0;
}

} // namespace

int main(int argc, char* argv[]) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QQuickWindow::setGraphicsApi(QSGRendererInterface::Software);
    QApplication app(argc, argv); // Qt Charts in QML needs a QApplication
    chooseControlsStyle();
    QStringList arguments = app.arguments().mid(1);
    if (arguments.isEmpty()) {
        const QString documents = QStringLiteral(ATTNBOOK_SOURCE_DIR "/documents/");
        arguments = {documents + QStringLiteral("attention.md"), QStringLiteral("playground"),
                     documents + QStringLiteral("transformer.md"), QStringLiteral("playground")};
    }
    int failures = 0;
    for (int i = 0; i + 1 < arguments.size(); i += 2) {
        failures += benchCell(arguments[i], arguments[i + 1]);
    }
    return failures == 0 ? 0 : 1;
}
