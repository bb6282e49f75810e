#pragma once
// The way back from one what-if edit of an attention cell, for the window's Undo:
// the state the cell had before the edit, held as cheaply as the edit allows. The four weight
// matrices are most of a large cell (19 MB in GPT-2 small's shape, and the window keeps up to
// 200 steps), and most edits leave them alone: a step holds them only when the edit replaced
// them, and of an edit of one weight entry only that entry.

#include "core/document/editable_attention.h"

#include <cstddef>
#include <optional>
#include <string>

namespace attnbook {

class WhatIfStep {
  public:
    // Before an edit that leaves the weights alone (tokens, heads, mask, scale, X0, biases…).
    // `state` is changed only for a moment: its weights are set aside while the rest is copied.
    static WhatIfStep beforeEditKeepingWeights(EditableAttention& state);
    // Before an edit of entry (row, col) of the matrix the window calls `name` (setMatrixEntry).
    static WhatIfStep beforeEntryEdit(EditableAttention& state, const std::string& name, int row,
                                      int col);
    // Before any other edit: the whole state.
    static WhatIfStep beforeAnyEdit(const EditableAttention& state);

    // Makes `state`, the cell after this step's edit (and after no later edit that a later
    // step has not taken back), the cell before it.
    void takeBack(EditableAttention& state) &&;

    // Whether the edit this step takes back leaves the weight matrices as they are.
    bool leavesWeights() const { return !weightsHeld_ && !entry_ && !projection_; }

    // The bytes of matrix entries the step holds: what Undo costs in memory.
    std::size_t heldBytes() const;

  private:
    // One weight entry's old value (a projection that was a matrix before the edit).
    struct WeightEntry {
        std::string name;
        arma::uword row = 0, col = 0;
        double value = 0.0;
    };
    // One projection as it was when the edit made an identity into a matrix.
    struct WholeProjection {
        std::string name;
        Projection before;
    };

    EditableAttention before_; // without its weights unless weightsHeld_
    bool weightsHeld_ = false;
    std::optional<WeightEntry> entry_;
    std::optional<WholeProjection> projection_;
};

} // namespace attnbook
