#pragma once
// Which keys a query may read: the one statement of the mask rules
// (attention.md, "Masks" and "Direct mode").
//
//   causal:  query row r sits at position m − n + r and reads key columns
//            c ≤ m − n + r (with m = n: c ≤ r, a position reads itself).
//   padding: a flagged key column is read by no row.
// A row that may read nothing gets all-zero shares and a warning.

#include "core/math/attention_config.h"

#include <vector>

namespace attnbook {

class KeyMask {
  public:
    KeyMask(int queries, int keys, MaskKind kind, std::vector<bool> padding);

    // Reading key c from row r is allowed only for c < readableEnd(r).
    int readableEnd(int row) const;
    bool blocks(int row, int col) const;
    bool hasPadding() const { return !padding_.empty(); }
    bool isCausal() const { return causal_; }

  private:
    int n_;
    int m_;
    bool causal_;
    std::vector<bool> padding_;
};

} // namespace attnbook
