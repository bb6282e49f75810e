#pragma once
// Checks a configuration and settles every width before anything is
// allocated (attention.md, "Widths" and "Direct mode").

#include "core/math/attention_config.h"

namespace attnbook {

struct AttentionShapes {
    int n = 0;  // query rows
    int m = 0;  // key/value rows
    int d = 0;  // model width (0 in direct mode)
    int h = 1;  // heads
    int dK = 0; // per head
    int dV = 0; // per head
    int dO = 0; // output width
    double scale = 1.0;
};

// Throws InvalidConfig naming the key (and element) at fault.
AttentionShapes resolveShapes(const AttentionConfig& config, const AttentionLimits& limits);

} // namespace attnbook
