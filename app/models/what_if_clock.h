#pragma once
// When a what-if was made, on one clock for every cell of the window: Ctrl+Z takes back the
// latest what-if of all cells, whichever kind they are (Main.qml compares the stamps).

#include <QtGlobal>

namespace attnbook {

inline qint64 nextWhatIfStamp() {
    static qint64 clock = 0;
    return ++clock;
}

} // namespace attnbook
