#include "core/live/undo_timeline.h"

#include <algorithm>

namespace attnbook {

UndoChoice chooseUndo(const std::vector<WhatIfHead>& whatIfs, bool documentCanUndo) {
    const auto latest = std::max_element(
        whatIfs.begin(), whatIfs.end(),
        [](const WhatIfHead& a, const WhatIfHead& b) { return a.stamp < b.stamp; });
    if (latest != whatIfs.end()) {
        return {UndoChoice::Target::WhatIf, latest->cellId};
    }
    if (documentCanUndo) {
        return {UndoChoice::Target::DocumentEdit, {}};
    }
    return {};
}

} // namespace attnbook
