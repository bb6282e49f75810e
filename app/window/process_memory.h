#pragma once
// The window's memory as the system sees it. glibc keeps the heap a closed lesson freed for the
// process's next allocations and returns it to the system only when asked: after another lesson
// replaces one, the window asks (Main.qml), so its resident size falls back.

#include <QObject>
#include <QtQml/qqmlregistration.h>

namespace attnbook {

class ProcessMemory : public QObject {
    Q_OBJECT
    QML_ELEMENT
    QML_SINGLETON

  public:
    explicit ProcessMemory(QObject* parent = nullptr) : QObject(parent) {}
    // Lets go of what the closed lesson left: the QML engine's compiled components that no item
    // uses any more (the old rows' delegates), then the heap's free pages (glibc's malloc_trim).
    Q_INVOKABLE void returnFreedHeap();
    // The resident set size in MiB (/proc/self/status), -1 where it cannot be read.
    Q_INVOKABLE static double residentMegabytes();
};

} // namespace attnbook
