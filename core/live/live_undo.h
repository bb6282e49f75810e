#pragma once
// The undo steps of a live cell of any kind: each step is whatever takes that kind's
// edit back (a WhatIfStep of an attention cell, the settings before a transformer cell's edit),
// stamped on the one clock of every what-if (what_if_clock.h) so that Ctrl+Z takes back the
// latest what-if of all cells, and bounded so a long session keeps the newest steps. A new cell
// kind keeps its steps here rather than copying this.

#include "core/live/what_if_clock.h"

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace attnbook {

template <class Step> class LiveUndo {
  public:
    // Steps kept for Undo, the oldest dropped first.
    static constexpr std::size_t kSteps = 200;

    bool empty() const { return steps_.empty(); }
    std::size_t size() const { return steps_.size(); }
    // When the latest step was made, or 0 with none.
    std::int64_t latestStamp() const { return steps_.empty() ? 0 : steps_.back().stamp; }

    void push(Step step) {
        steps_.push_back({std::move(step), nextWhatIfStamp()});
        if (steps_.size() > kSteps) {
            steps_.erase(steps_.begin());
        }
    }
    // The latest step, left on the stack. Only when !empty().
    const Step& latest() const { return steps_.back().step; }
    // The latest step, off the stack. Only when !empty().
    Step pop() {
        Step step = std::move(steps_.back().step);
        steps_.pop_back();
        return step;
    }
    void clear() { steps_.clear(); }

  private:
    struct Stamped {
        Step step;
        std::int64_t stamp = 0;
    };
    std::vector<Stamped> steps_; // the latest last
};

} // namespace attnbook
