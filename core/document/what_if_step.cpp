#include "core/document/what_if_step.h"

#include <utility>

namespace attnbook {
namespace {

// A copy of `state` with empty weight matrices, without copying them.
EditableAttention copyWithoutWeights(EditableAttention& state) {
    WeightMatrices weights = takeWeights(state);
    EditableAttention copy = state;
    putWeights(state, std::move(weights));
    return copy;
}

std::size_t bytesOf(const arma::mat& m) {
    return m.n_elem * sizeof(double);
}

} // namespace

WhatIfStep WhatIfStep::beforeEditKeepingWeights(EditableAttention& state) {
    WhatIfStep step;
    step.before_ = copyWithoutWeights(state);
    return step;
}

WhatIfStep WhatIfStep::beforeEntryEdit(EditableAttention& state, const std::string& name, int row,
                                       int col) {
    const Projection* edited = projectionNamed(state.config, name);
    if (!edited) {
        return beforeEditKeepingWeights(state); // X0, a bias or a direct matrix
    }
    WhatIfStep step;
    step.before_ = copyWithoutWeights(state);
    const auto r = arma::uword(row), c = arma::uword(col);
    if (edited->identity || r >= edited->weights.n_rows || c >= edited->weights.n_cols) {
        // The edit writes the identity out as a matrix (or is refused): keep the projection as
        // it was, which holds no matrix of its own.
        step.projection_ = WholeProjection{name, *edited};
    } else {
        step.entry_ = WeightEntry{name, r, c, edited->weights(r, c)};
    }
    return step;
}

WhatIfStep WhatIfStep::beforeAnyEdit(const EditableAttention& state) {
    WhatIfStep step;
    step.before_ = state;
    step.weightsHeld_ = true;
    return step;
}

void WhatIfStep::takeBack(EditableAttention& state) && {
    if (!weightsHeld_) {
        // The weights the edit left alone (or changed in one place) are the current ones.
        putWeights(before_, takeWeights(state));
    }
    if (entry_) {
        projectionNamed(before_.config, entry_->name)->weights(entry_->row, entry_->col) =
            entry_->value;
    }
    if (projection_) {
        *projectionNamed(before_.config, projection_->name) = std::move(projection_->before);
    }
    state = std::move(before_);
}

std::size_t WhatIfStep::heldBytes() const {
    const AttentionConfig& c = before_.config;
    std::size_t bytes = bytesOf(c.X0) + bytesOf(c.queries) + bytesOf(c.keys) + bytesOf(c.values);
    for (const arma::rowvec* b : {&c.bQ, &c.bK, &c.bV, &c.bO}) {
        bytes += b->n_elem * sizeof(double);
    }
    if (weightsHeld_) {
        for (const Projection* p : {&c.wQ, &c.wK, &c.wV, &c.wO}) {
            bytes += bytesOf(p->weights);
        }
    }
    if (projection_) {
        bytes += bytesOf(projection_->before.weights);
    }
    return bytes;
}

} // namespace attnbook
