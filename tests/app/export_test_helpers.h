// What both Qt tests of File → Export (test_export_controller.cpp, test_export_dialog.cpp)
// share: their setup, how long a render may take, and running the event loop a while.
#pragma once

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QSettings>
#include <QString>
#include <QTemporaryDir>
#include <QTest>

namespace attnbook::test {

// A test's initTestCase: Qt's own file dialogs (not the platform's), and the window's settings
// in `settingsFolder`, under the test's own `applicationName`, so that the two tests run side by
// side under ctest --parallel and never write to the user's settings. False when the folder
// could not be made.
[[nodiscard]] inline bool setUpExportTest(const QTemporaryDir& settingsFolder,
                                          const QString& applicationName) {
    QCoreApplication::setAttribute(Qt::AA_DontUseNativeDialogs);
    if (!settingsFolder.isValid()) {
        return false;
    }
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settingsFolder.path());
    QCoreApplication::setOrganizationName(QStringLiteral("attnbook-tests"));
    QCoreApplication::setApplicationName(applicationName);
    return true;
}

// A render's limit: the worksheet's variants on a loaded CI machine take minutes.
constexpr int kRenderTimeout = 300000;

// Runs the event loop for `ms`, so that layouts, images and the PDF view settle.
inline void settle(int ms) {
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < ms) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QTest::qWait(10);
    }
}

} // namespace attnbook::test
