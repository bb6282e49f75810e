#pragma once
// A training run that a reader watches (docs/training.md, "In the window"): it keeps the weights
// of the steps a reader may show with the `show` slider, says how far it has come, and stops when
// asked. The numbers are those of trainTransformer, bit for bit: the same run, observed.

#include "core/math/transformer_training.h"

#include <cstddef>
#include <functional>
#include <vector>

namespace attnbook {

struct TrainingWatch {
    // Called before each step with the step about to run (0 … S); false stops the run there
    // (`cancelled` is then set and the result is not to be shown).
    std::function<bool(int step)> keepGoing;
    // The most bytes the kept weights may take: every `every`-th step is kept so that they fit
    // (the first and the last step always are).
    size_t byteBudget = size_t(64) << 20;

    // Out: the weights after each kept step (the cell's own tokens taking their trained rows of
    // the vocab), in step order, and the distance between kept steps.
    std::vector<std::pair<int, TransformerConfig>> steps;
    int every = 1;
    size_t bytesKept = 0;
    bool cancelled = false;
};

// trainTransformer, watched. Throws as it does.
TrainingResult trainTransformer(const TransformerConfig& cell, const TrainingSpec& spec,
                                const TransformerLimits& limits, TrainingWatch& watch);

// The kept step nearest to `step` (the shown step of a slider between kept steps), or nullptr
// when nothing was kept.
const std::pair<int, TransformerConfig>* keptStepNear(const TrainingWatch& watch, int step);

} // namespace attnbook
