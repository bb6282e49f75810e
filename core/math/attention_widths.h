#pragma once
// The shape rules of resolveShapes (attention_shapes.h) without its scan of every value for
// NaN and infinity, and with the heads as a parameter: for callers that ask about shapes only
// of a configuration whose values were checked when it was read, and that only ever receives
// finite numbers after that (the window's edits, core/document/editable_attention). A scan of a
// model's projections (2.4 million numbers in GPT-2 small's shape) per question would cost
// more than the edit.

#include "core/math/attention_shapes.h"

namespace attnbook {

// The shapes `config` would have with `heads` heads. Throws InvalidConfig as resolveShapes
// does, for everything but a value that is not finite.
AttentionShapes resolveWidths(const AttentionConfig& config, int heads,
                              const AttentionLimits& limits);

} // namespace attnbook
