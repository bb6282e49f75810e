#include "core/live/attention_live_cell.h"

#include "core/document/cell_specs.h"
#include "core/document/matrix_names.h"

#include <algorithm>

namespace attnbook {

AttentionLiveCell::AttentionLiveCell(const AttentionCellSpec& spec)
    : authored_(std::make_shared<const EditableAttention>(EditableAttention::fromSpec(spec))),
      state_(*authored_), controls_(spec.controls) {}

bool AttentionLiveCell::allows(const std::string& control) const {
    return std::find(controls_.begin(), controls_.end(), control) != controls_.end();
}

bool AttentionLiveCell::isEditable(const std::string& name) const {
    return readerMayEdit(state_.config, controls_, name);
}

std::string AttentionLiveCell::fixedReason(const std::string& name) const {
    return isEditable(name) ? "" : "this lesson keeps " + name + " fixed in this cell";
}

template <class F> LiveEdit AttentionLiveCell::apply(WhatIfStep undo, F&& edit, CellChange change) {
    const bool leavesWeights = undo.leavesWeights();
    if (EditRefusal refusal = edit(state_)) {
        return LiveEdit::refusal(std::move(*refusal));
    }
    if (!leavesWeights) {
        ++weightsVersion_;
    }
    undo_.push(std::move(undo));
    return {"", std::move(change)};
}

template <class F> LiveEdit AttentionLiveCell::applyKeepingWeights(F&& edit, CellChange change) {
    return apply(WhatIfStep::beforeEditKeepingWeights(state_), std::forward<F>(edit),
                 std::move(change));
}

LiveEdit AttentionLiveCell::setHeads(int heads) {
    return applyKeepingWeights([&](EditableAttention& s) { return attnbook::setHeads(s, heads); },
                               CellChange::attention());
}

LiveEdit AttentionLiveCell::setMask(MaskKind mask) {
    return applyKeepingWeights([&](EditableAttention& s) { return attnbook::setMask(s, mask); },
                               CellChange::attention());
}

LiveEdit AttentionLiveCell::setPadding(int key, bool padded) {
    return applyKeepingWeights(
        [&](EditableAttention& s) { return attnbook::setPadding(s, key, padded); },
        CellChange::attention());
}

LiveEdit AttentionLiveCell::setPositional(PositionalKind kind) {
    // X = X0 + P: every row of Q, K and V.
    return applyKeepingWeights(
        [&](EditableAttention& s) { return attnbook::setPositional(s, kind); },
        CellChange::everything());
}

LiveEdit AttentionLiveCell::setScale(ScaleKind kind, double divisor) {
    return applyKeepingWeights(
        [&](EditableAttention& s) { return attnbook::setScale(s, kind, divisor); },
        CellChange::attention());
}

LiveEdit AttentionLiveCell::setFocus(int row) {
    return applyKeepingWeights([&](EditableAttention& s) { return attnbook::setFocus(s, row); },
                               CellChange::nothing());
}

LiveEdit AttentionLiveCell::addToken(const std::string& label) {
    return applyKeepingWeights([&](EditableAttention& s) { return attnbook::addToken(s, label); },
                               CellChange::everything());
}

LiveEdit AttentionLiveCell::removeToken(int index) {
    return applyKeepingWeights(
        [&](EditableAttention& s) { return attnbook::removeToken(s, index); },
        CellChange::everything());
}

LiveEdit AttentionLiveCell::renameToken(int index, const std::string& label) {
    // The token's vector (from the vocab) and its label change: one row.
    return applyKeepingWeights(
        [&](EditableAttention& s) { return attnbook::renameToken(s, index, label); },
        CellChange::ofRows({index}));
}

LiveEdit AttentionLiveCell::moveToken(int from, int to) {
    return applyKeepingWeights(
        [&](EditableAttention& s) { return attnbook::moveToken(s, from, to); },
        CellChange::everything());
}

LiveEdit AttentionLiveCell::setMatrixEntry(const std::string& name, int row, int column,
                                           double value) {
    if (std::string reason = fixedReason(name); !reason.empty()) {
        return LiveEdit::refusal(std::move(reason));
    }
    // A token's vector is one row of X0; with a vocab, every token of that word changes.
    CellChange change = CellChange::everything();
    const std::vector<std::string>& tokens = state_.config.tokens;
    const bool tokenVector = inputMatrixNamed(name)->role == InputMatrixName::Role::Tokens;
    if (tokenVector && row >= 0 && size_t(row) < tokens.size()) {
        std::vector<int> rows = {row};
        if (state_.usesVocab()) {
            rows.clear();
            for (size_t i = 0; i < tokens.size(); ++i) {
                if (tokens[i] == tokens[size_t(row)]) {
                    rows.push_back(int(i));
                }
            }
        }
        change = CellChange::ofRows(std::move(rows));
    } else if (const std::optional<AttentionEngine::Projected> projected = projectedBy(name)) {
        // Row `row` of W (outputs × inputs), or entry `column` of b: one column of the output.
        const bool weights = inputMatrixNamed(name)->role == InputMatrixName::Role::Projection;
        change = CellChange::ofColumn(*projected, weights ? row : column);
    }
    return apply(
        WhatIfStep::beforeEntryEdit(state_, name, row, column),
        [&](EditableAttention& s) { return attnbook::setMatrixEntry(s, name, row, column, value); },
        std::move(change));
}

LiveEdit AttentionLiveCell::setIdentity(const std::string& name) {
    if (!allows("projections")) {
        return LiveEdit::refusal("this lesson keeps the projections fixed in this cell");
    }
    return apply(
        WhatIfStep::beforeAnyEdit(state_),
        [&](EditableAttention& s) { return attnbook::setIdentity(s, name); },
        CellChange::everything());
}

LiveEdit AttentionLiveCell::setZero(const std::string& name) {
    if (!allows("projections")) {
        return LiveEdit::refusal("this lesson keeps the projections fixed in this cell");
    }
    return apply(
        WhatIfStep::beforeAnyEdit(state_),
        [&](EditableAttention& s) { return attnbook::setZero(s, name); }, CellChange::everything());
}

std::optional<CellChange> AttentionLiveCell::undo() {
    if (undo_.empty()) {
        return std::nullopt;
    }
    refuseLatest();
    // The state before the step computed once; a full pass is as cheap to reason about as any.
    return CellChange::everything();
}

void AttentionLiveCell::refuseLatest() {
    if (undo_.empty()) {
        return;
    }
    undo_.pop().takeBack(state_);
    ++weightsVersion_;
}

void AttentionLiveCell::restore(const EditableAttention& computed) {
    state_ = computed;
    ++weightsVersion_;
}

CellChange AttentionLiveCell::reset() {
    undo_.clear();
    state_ = *authored_;
    ++weightsVersion_;
    return CellChange::everything();
}

std::vector<std::pair<std::string, std::string>> AttentionLiveCell::changedKeys() const {
    return attnbook::changedKeys(*authored_, state_);
}

std::string
AttentionLiveCell::tooLargeToKeep(const std::vector<std::pair<std::string, std::string>>& changes) {
    constexpr size_t kMaxKeptYaml = 256 * 1024;
    for (const auto& [key, yaml] : changes) {
        if (yaml.size() > kMaxKeptYaml) {
            return key + " is too large to write into the lesson as typed numbers (" +
                   std::to_string(yaml.size() / 1024) +
                   " KB of YAML); your edit stays a what-if. To keep it, change the file it was "
                   "read from.";
        }
    }
    return "";
}

void AttentionLiveCell::kept() {
    // What the document now says, file references and their `set:` entries included.
    authored_ = std::make_shared<const EditableAttention>(keptState(*authored_, state_));
    state_.fileValues = authored_->fileValues;
    undo_.clear();
}

void AttentionLiveCell::copyStateInto(EditableAttention& copy, bool sameWeights) {
    if (!sameWeights) {
        copy = state_;
        return;
    }
    // Both weights are set aside while the rest is copied, then each gets its own back.
    WeightMatrices theirs = takeWeights(copy);
    WeightMatrices mine = takeWeights(state_);
    copy = state_;
    putWeights(state_, std::move(mine));
    putWeights(copy, std::move(theirs));
}

} // namespace attnbook
