#pragma once
// The name table (matrix_names.h) as member lookups into an AttentionConfig, for the edits
// (editable_attention.cpp) and for what Keep writes back (editable_attention_keep.cpp).
// Internal to core/document.

#include "core/document/matrix_names.h"

#include <string>

namespace attnbook {

// nullptr for a name of another role.
inline Projection* projectionOf(AttentionConfig& c, const std::string& name) {
    const InputMatrixName* entry = inputMatrixNamed(name);
    return entry && entry->projection ? &(c.*(entry->projection)) : nullptr;
}
inline const Projection* projectionOf(const AttentionConfig& c, const std::string& name) {
    return projectionOf(const_cast<AttentionConfig&>(c), name);
}
inline arma::rowvec* biasOf(AttentionConfig& c, const std::string& name) {
    const InputMatrixName* entry = inputMatrixNamed(name);
    return entry && entry->bias ? &(c.*(entry->bias)) : nullptr;
}
inline arma::mat* directMatrixOf(AttentionConfig& c, const std::string& name) {
    const InputMatrixName* entry = inputMatrixNamed(name);
    return entry && entry->isDirect() ? &(c.*(entry->matrix)) : nullptr;
}

} // namespace attnbook
