#include "app/window/process_memory.h"

#include <QFile>
#include <QQmlEngine>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace attnbook {

void ProcessMemory::returnFreedHeap() {
    if (QQmlEngine* engine = qmlEngine(this)) {
        engine->trimComponentCache();
    }
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

double ProcessMemory::residentMegabytes() {
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly)) {
        return -1;
    }
    while (!status.atEnd()) {
        const QByteArray line = status.readLine();
        if (line.startsWith("VmRSS:")) {
            bool ok = false;
            const double kib = line.mid(6).trimmed().split(' ').value(0).toDouble(&ok);
            return ok ? kib / 1024.0 : -1;
        }
    }
    return -1;
}

} // namespace attnbook
