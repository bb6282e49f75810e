#pragma once
// An attention cell's what-ifs (attention.md, "controls"): the authored cell, the
// reader's state, the undo steps back to it, and the one path every edit takes, which says what
// the edit changed (a CellChange, so no caller re-derives it) or why it was refused. No Qt: the
// window's AttentionCellModel runs the recompute (attention_recompute.h) and adapts this to QML,
// and doctest checks it.
//
// The same shape as TransformerLiveCell: a cell kind is a live cell (its edits, undo, reset,
// what Keep writes) plus a recompute; the model of either only adapts them. Unlike a transformer
// cell's settings an attention cell's state holds its numbers (a reader edits weights), so undo
// keeps WhatIfSteps, each as small as its edit allows.

#include "core/document/editable_attention.h"
#include "core/document/what_if_step.h"
#include "core/live/attention_recompute.h"
#include "core/live/live_undo.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace attnbook {

struct AttentionCellSpec;

// What one edit did: refused (with the reason, and nothing changed), or applied, with what the
// numbers depend on that it changed since the state before it.
struct LiveEdit {
    std::string refused; // "" when applied
    CellChange change;   // Kind::Nothing when refused
    bool applied() const { return refused.empty(); }

    static LiveEdit refusal(std::string reason) { return {std::move(reason), {}}; }
};

class AttentionLiveCell {
  public:
    explicit AttentionLiveCell(const AttentionCellSpec& spec);

    // The cell as the lesson holds it (after a Keep, as kept): shared with recompute jobs.
    const std::shared_ptr<const EditableAttention>& authored() const { return authored_; }
    const EditableAttention& state() const { return state_; }
    const std::vector<std::string>& controls() const { return controls_; }
    bool allows(const std::string& control) const;
    // Whether a reader may edit the matrix the window calls `name` (readerMayEdit, the one
    // rule: core/document/matrix_names.h), and if not, why: "" when it is editable.
    bool isEditable(const std::string& name) const;
    std::string fixedReason(const std::string& name) const;

    // The edits of the controls (editable_attention.h), each through apply().
    LiveEdit setHeads(int heads);
    LiveEdit setMask(MaskKind mask);
    LiveEdit setPadding(int key, bool padded);
    LiveEdit setPositional(PositionalKind kind);
    LiveEdit setScale(ScaleKind kind, double divisor);
    LiveEdit setFocus(int row);
    LiveEdit addToken(const std::string& label);
    LiveEdit removeToken(int index);
    LiveEdit renameToken(int index, const std::string& label);
    LiveEdit moveToken(int from, int to);
    LiveEdit setMatrixEntry(const std::string& name, int row, int column, double value);
    LiveEdit setIdentity(const std::string& name);
    LiveEdit setZero(const std::string& name);

    bool canUndo() const { return !undo_.empty(); }
    // When the latest step was made (what_if_clock.h), or 0 with none.
    std::int64_t latestStamp() const { return undo_.latestStamp(); }
    std::size_t undoDepth() const { return undo_.size(); }
    // Takes back the latest edit: the change to recompute from the current result, or nullopt
    // when there is none.
    std::optional<CellChange> undo();
    // The latest edit was applied, but its numbers cannot be computed (a product overflows):
    // takes it back and off the undo steps, as if it had been refused.
    void refuseLatest();
    // Back to a state that computed (the worker refused a later one). The undo steps stay.
    void restore(const EditableAttention& computed);
    // Back to the authored cell; the undo steps are dropped.
    CellChange reset();

    // What "Keep" writes: the changed keys with their YAML (editable_attention.h).
    std::vector<std::pair<std::string, std::string>> changedKeys() const;
    // Why `changes` cannot be kept, or "": Keep writes every changed value as typed YAML, except
    // an edit of a value read from a file ({file: PATH}), which keeps its reference with the
    // changed entries in `set:` (the file itself is never written). An edit that changes most of
    // a loaded matrix (or its shape) is typed out, and when that is too big to type (a GPT-2
    // projection is 589824 numbers) it stays a what-if: the lesson must stay a file one can read
    // and diff.
    static std::string
    tooLargeToKeep(const std::vector<std::pair<std::string, std::string>>& changes);
    // The keys were written into the document: they are the authored cell now, and Undo is the
    // document's.
    void kept();

    // Counts the changes of the state's weight matrices: two copies made at the same count hold
    // the same weights.
    std::uint64_t weightsVersion() const { return weightsVersion_; }
    // Makes `copy` the state; with `sameWeights` (it was copied at this weightsVersion) its
    // weight matrices are kept rather than copied again: kilobytes instead of 19 MB for a
    // GPT-2-shaped cell.
    void copyStateInto(EditableAttention& copy, bool sameWeights);

    // What-ifs kept for Undo; each is a copy of the cell's inputs (less its weights, mostly).
    static constexpr std::size_t kUndoSteps = LiveUndo<WhatIfStep>::kSteps;

  private:
    // The one path of every edit: the step back, the edit, and what it changes.
    template <class F> LiveEdit apply(WhatIfStep undo, F&& edit, CellChange change);
    template <class F> LiveEdit applyKeepingWeights(F&& edit, CellChange change);

    std::shared_ptr<const EditableAttention> authored_;
    EditableAttention state_;
    std::vector<std::string> controls_;
    LiveUndo<WhatIfStep> undo_; // the states before each edit
    std::uint64_t weightsVersion_ = 0;
};

} // namespace attnbook
