#include "core/math/attention_mask.h"

#include <algorithm>

namespace attnbook {

KeyMask::KeyMask(int queries, int keys, MaskKind kind, std::vector<bool> padding)
    : n_(queries), m_(keys), causal_(kind == MaskKind::Causal), padding_(std::move(padding)) {
    if (std::none_of(padding_.begin(), padding_.end(), [](bool flag) { return flag; })) {
        padding_.clear();
    }
}

int KeyMask::readableEnd(int row) const {
    if (!causal_) {
        return m_;
    }
    return std::clamp(m_ - n_ + row + 1, 0, m_);
}

bool KeyMask::blocks(int row, int col) const {
    return col >= readableEnd(row) || (hasPadding() && padding_[size_t(col)]);
}

} // namespace attnbook
