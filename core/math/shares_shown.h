#pragma once
// Which keys a shares view shows for one query row (issue 24: the window showed the 16 largest
// and the paper the first 32). With many keys a bar each is unreadable, so both show at most
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

} // namespace attnbook
