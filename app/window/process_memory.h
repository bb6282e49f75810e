#pragma once
// The window's memory as the system sees it. glibc keeps the heap a closed lesson freed for the
// process's next allocations and returns it to the system only when asked: after another lesson
// replaces one, the window asks (Main.qml), so its resident size falls back (issue 25).

#include <QObject>
#include <QtQml/qqmlregistration.h>

namespace attnbook {

class ProcessMemory : public QObject {
    Q_OBJECT
    QML_ELEMENT
    QML_SINGLETON

  public:
    explicit ProcessMemory(QObject* parent = nullptr) : QObject(parent) {}
    // Returns the heap's free pages to the system (glibc's malloc_trim); elsewhere nothing.
    Q_INVOKABLE static void returnFreedHeap();
    // The resident set size in MiB (/proc/self/status), -1 where it cannot be read.
    Q_INVOKABLE static double residentMegabytes();
};

} // namespace attnbook
