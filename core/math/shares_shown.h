#pragma once
// What the views of shares agree on, window and paper alike (the window showed the
// 16 largest shares and the paper the first 32; the legend and the heatmap each worked out
// Compare's range). With many keys a bar each is unreadable, so both show at most
// kMaxSharesShown: the keys with the largest share over all heads, in the keys' order, so that
// every head's chart has the same bars.

#include "core/math/attention_result.h"

#include <vector>

namespace attnbook {

constexpr int kMaxSharesShown = 16;

// The key indices to show for query `row`: every key when there are at most kMaxSharesShown,
// else the kMaxSharesShown largest (the largest share over the heads; a blocked key has none),
// ties to the earlier key, in ascending order.
std::vector<int> sharesShown(const AttentionResult& result, int row);

// The largest |change| of any share between a what-if and the authored cell: the top of
// Compare's colour scale, which the cell's legend and the heatmap both read. 0 when the two
// are not of one shape (there is nothing to compare).
double largestShareChange(const AttentionResult& now, const AttentionResult& was);

} // namespace attnbook
