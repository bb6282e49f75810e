#pragma once
// When a what-if was made, on one clock for every live cell of whatever kind: Ctrl+Z takes back
// the latest what-if of all cells (Main.qml compares the stamps).

#include <cstdint>

namespace attnbook {

inline std::int64_t nextWhatIfStamp() {
    static std::int64_t clock = 0;
    return ++clock;
}

} // namespace attnbook
