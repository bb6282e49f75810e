#include "core/live/recompute_queue.h"

#include <utility>

namespace attnbook {

std::optional<CellChange> AttentionRecomputeQueue::edit(const CellChange& change) {
    if (pending_) {
        pending_->merge(change);
    } else {
        pending_ = change;
    }
    if (running_) {
        return std::nullopt; // the running job finishes first; then the latest state computes
    }
    CellChange next = std::move(*pending_);
    pending_.reset();
    return next;
}

void AttentionRecomputeQueue::started(std::shared_ptr<const EditableAttention> state,
                                      std::uint64_t version) {
    running_ = true;
    runningState_ = std::move(state);
    runningVersion_ = version;
}

AttentionRecomputeQueue::Next AttentionRecomputeQueue::finished(RecomputeOutcome outcome) {
    running_ = false;
    Next next;
    next.computed = std::move(runningState_);
    next.computedVersion = runningVersion_;
    if (outcome.error) {
        // Refused: back to the last state that computed, the edits since dropped with it; the
        // last outcome that computed (if never shown) is what the views show.
        next.refusal = std::move(outcome.error);
        pending_.reset();
        next.show = std::exchange(unshown_, std::nullopt);
        return next;
    }
    if (pending_ && pending_->kind != CellChange::Kind::Nothing) {
        unshown_ = std::move(outcome); // stale: the newest edit is computed from it
        next.start = std::move(*pending_);
        pending_.reset();
        return next;
    }
    pending_.reset(); // at most a focus moved: nothing to compute
    unshown_.reset();
    next.show = std::move(outcome);
    return next;
}

std::uint64_t TransformerStepQueue::edited() {
    ++serial_;
    if (!forwardInline_) {
        forwardWanted_ = true;
    }
    return serial_;
}

std::optional<TransformerStep> TransformerStepQueue::nextJob() {
    if (running_) {
        return std::nullopt; // asked again when it finishes
    }
    if (forwardWanted_) {
        forwardWanted_ = false;
        running_ = true;
        return TransformerStep::Forward;
    }
    if (!shownComplete_ && shownSerial_ == serial_ && !shownFailed_) {
        running_ = true;
        return TransformerStep::Rest;
    }
    return std::nullopt;
}

bool TransformerStepQueue::finished(std::uint64_t serial) {
    running_ = false;
    return serial == serial_; // else a newer edit's numbers replace these
}

bool TransformerStepQueue::shown(TransformerStep step, bool failed) {
    const bool newForward =
        !failed && (step == TransformerStep::Forward || shownSerial_ != serial_);
    shownSerial_ = serial_;
    shownFailed_ = failed;
    shownComplete_ = failed || step == TransformerStep::Rest;
    return newForward;
}

} // namespace attnbook
