#pragma once

#include "core/math/attention_config.h"
#include "core/math/attention_result.h"

namespace attnbook {

// Compares every analytic gradient in `analytic` with central differences
// (step 1e-6) of L = Σ G_Y ⊙ Y and returns the largest relative error
// |analytic − numeric| / max(1e-6, |analytic|, |numeric|) (attention.md).
//
// Each entry costs two forward passes; past `maxEntries` entries (fewer for
// large cells, so that the check stays within about a second) an evenly
// spaced sample of them is checked, so large cells stay interactive.
double gradientCheck(const AttentionConfig& config, const AttentionResult& analytic,
                     const AttentionLimits& limits, size_t maxEntries = 4000);

} // namespace attnbook
