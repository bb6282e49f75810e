// Ctrl+Z's one timeline (core/live/undo_timeline.h): the latest what-if in whichever cell, then
// the document's history.
#include "core/live/undo_timeline.h"

#include <doctest/doctest.h>

using namespace attnbook;

TEST_CASE("undo takes the latest what-if first, whichever cell it was made in") {
    const UndoChoice choice = chooseUndo({{"colour", 4}, {"playground", 9}, {"causal", 7}}, true);
    CHECK(choice.target == UndoChoice::Target::WhatIf);
    CHECK(choice.cellId == "playground");
    // Order in the lesson does not matter, only the stamps.
    CHECK(chooseUndo({{"playground", 2}, {"colour", 3}}, false).cellId == "colour");
}

TEST_CASE("with no what-if left, undo takes back the document's last edit") {
    const UndoChoice choice = chooseUndo({}, true);
    CHECK(choice.target == UndoChoice::Target::DocumentEdit);
    CHECK(choice.cellId.empty());
}

TEST_CASE("with nothing to take back, undo does nothing") {
    CHECK(chooseUndo({}, false).target == UndoChoice::Target::Nothing);
}
