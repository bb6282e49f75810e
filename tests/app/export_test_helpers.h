// What both Qt tests of File → Export (test_export_controller.cpp, test_export_dialog.cpp)
// share: how long a render may take, and running the event loop a while.
#pragma once

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTest>

namespace attnbook::test {

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
