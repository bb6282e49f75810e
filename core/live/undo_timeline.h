#pragma once
// Ctrl+Z's one timeline across the open lesson: a reader's what-ifs in every cell and
// the author's edits of the document. A document edit re-reads the lesson and every cell starts
// again from what the document says, so a what-if still standing is newer than every document
// edit: the latest what-if (by its stamp on the one what-if clock, what_if_clock.h) is taken back
// first, in whichever cell it was made, and the document's own history only when none is left.
// "Keep" writes a cell's what-ifs into the document, and that cell has none to undo after it.

#include <cstdint>
#include <string>
#include <vector>

namespace attnbook {

// A cell's latest what-if that Undo can take back.
struct WhatIfHead {
    std::string cellId;
    std::int64_t stamp = 0; // when it was made, on the what-if clock
};

struct UndoChoice {
    enum class Target { Nothing, WhatIf, DocumentEdit };
    Target target = Target::Nothing;
    std::string cellId; // Target::WhatIf: the cell whose what-if goes
};

// What Ctrl+Z takes back: the latest of `whatIfs` (cells with one to undo), else the document's
// last edit when `documentCanUndo`, else nothing.
UndoChoice chooseUndo(const std::vector<WhatIfHead>& whatIfs, bool documentCanUndo);

} // namespace attnbook
