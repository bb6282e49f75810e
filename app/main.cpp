// attnbook: one executable for the window and the headless report generator.
#include "app/cli/command_line.h"
#include "app/window/shot_command.h"
#include "app/window/window.h"
#include "files/lesson_source.h"

#include <QApplication>
#include <QCoreApplication>
#include <QGuiApplication>
#include <QtQml/qqmlextensionplugin.h>

#include <algorithm>
#include <iostream>
#include <new>

// The window's QML modules are linked statically.
Q_IMPORT_QML_PLUGIN(AttnbookPlugin)
Q_IMPORT_QML_PLUGIN(AttnbookModelsPlugin)
Q_IMPORT_QML_PLUGIN(AttnbookWindowPlugin)

namespace {

QtMessageHandler qtHandler = nullptr;

// Headless commands print only their result and real problems. Qt warns on every start of a
// QGuiApplication without XDG_RUNTIME_DIR (ssh, CI, cron) and then uses a folder of its own,
// which is all attnbook needs: that one warning is dropped, every other one passes.
void quietHeadlessMessages(QtMsgType type, const QMessageLogContext& context,
                           const QString& message) {
    if (type == QtWarningMsg &&
        message.startsWith(QLatin1String("QStandardPaths: XDG_RUNTIME_DIR not set"))) {
        return;
    }
    qtHandler(type, context, message);
}

} // namespace

int main(int argc, char* argv[]) {
    QStringList arguments;
    for (int i = 1; i < argc; ++i) {
        arguments << QString::fromLocal8Bit(argv[i]);
    }
    try {
        // export paints PDFs and figures (and check of a bundle its web page): it needs fonts,
        // so a QGuiApplication, but never a window, so it runs on the offscreen platform, with
        // or without a display (reliability.md §22).
        if (attnbook::isHeadlessCommand(arguments)) {
            qtHandler = qInstallMessageHandler(quietHeadlessMessages);
        }
        // `check BUNDLE` makes the bundle's web page again to verify it: fonts too.
        const bool checksBundle =
            !arguments.isEmpty() && arguments.front() == QLatin1String("check") &&
            std::any_of(arguments.begin() + 1, arguments.end(),
                        [](const QString& a) { return attnbook::isBundlePath(a.toStdString()); });
        if (!arguments.isEmpty() &&
            (arguments.front() == QLatin1String("export") || checksBundle)) {
            if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
                qputenv("QT_QPA_PLATFORM", "offscreen");
            }
            QGuiApplication app(argc, argv);
            QGuiApplication::setApplicationName(QStringLiteral("attnbook"));
            return attnbook::runCommandLine(arguments);
        }
        if (attnbook::isHeadlessCommand(arguments) && arguments.front() != QLatin1String("shot")) {
            QCoreApplication app(argc, argv);
            QCoreApplication::setApplicationName(QStringLiteral("attnbook"));
            return attnbook::runCommandLine(arguments);
        }
        const bool shot = !arguments.isEmpty() && arguments.front() == QLatin1String("shot");
        if (!shot && qEnvironmentVariableIsEmpty("DISPLAY") &&
            qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
            qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
            std::cerr << "attnbook: there is no display to open the window on.\n"
                         "Headless, use: attnbook shot FILE --out page.png, or attnbook "
                         "compute/check/export (attnbook --help).\n";
            return 2;
        }
        if (shot && qEnvironmentVariableIsEmpty("DISPLAY") &&
            qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")) {
            qputenv("QT_QPA_PLATFORM", "offscreen"); // shot never needs a display
        }
        // Qt Charts in QML needs a QApplication (widgets), not a QGuiApplication.
        QApplication app(argc, argv);
        QApplication::setApplicationName(QStringLiteral("attnbook"));
        QApplication::setOrganizationName(QStringLiteral("attnbook"));
        if (shot) {
            return attnbook::runShotCommand(arguments);
        }
        return attnbook::runWindow(arguments);
    } catch (const std::bad_alloc&) {
        std::cerr << "attnbook: out of memory\n";
        return 1;
    }
}
