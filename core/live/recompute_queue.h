#pragma once
// When a cell's worker computes what, without Qt and without
// threads: the window's cell models run the jobs (QtConcurrent) and ask these queues which job
// to start next and which outcome to show, so the rules are doctested here
// (tests/core/test_recompute_queue.cpp).
//
// AttentionRecomputeQueue: one job at a time; edits made while it runs merge into one pending
// change; an outcome made stale by a newer edit is not shown but is the base of the next
// incremental pass; a refused job drops the pending edits (the cell goes back to the last state
// that computed).
//
// TransformerStepQueue: a what-if shows in two steps, the forward pass and then the rest
// (generation, gradients, their check); an outcome of settings that an edit has since changed
// is dropped, and the rest of a forward result is computed only while it is the latest one.

#include "core/document/editable_attention.h"
#include "core/live/attention_recompute.h"

#include <cstdint>
#include <memory>
#include <optional>

namespace attnbook {

class AttentionRecomputeQueue {
  public:
    // What to do once the running job finished.
    struct Next {
        std::optional<ConfigError> refusal;   // the job's state cannot be computed
        std::optional<RecomputeOutcome> show; // the outcome to show (none: the numbers stay)
        std::optional<CellChange> start;      // the job to start now, from `base()`
        std::shared_ptr<const EditableAttention> computed; // the state the job computed
        std::uint64_t computedVersion = 0; // the live cell's weightsVersion() it was at
    };

    // A job is running or an edit waits for one: the views show the last complete numbers.
    bool updating() const { return running_ || pending_.has_value(); }
    bool running() const { return running_; }

    // An edit to compute on the worker: the change to start a job with now when the worker
    // is free, else nullopt (merged into the pending change: computed after the running job).
    std::optional<CellChange> edit(const CellChange& change);
    // The job just started computes `state`, copied at the live cell's weightsVersion().
    void started(std::shared_ptr<const EditableAttention> state, std::uint64_t version);
    // The result the next job starts from: a stale outcome never shown, else `shown`.
    std::shared_ptr<const AttentionResult>
    base(std::shared_ptr<const AttentionResult> shown) const {
        return unshown_ ? unshown_->result : std::move(shown);
    }
    // The running job finished with `outcome`.
    Next finished(RecomputeOutcome outcome);
    // A result computed inline is shown: a stale one is no base any more.
    void shownInline() { unshown_.reset(); }

  private:
    bool running_ = false;
    std::shared_ptr<const EditableAttention> runningState_;
    std::uint64_t runningVersion_ = 0;
    std::optional<CellChange> pending_;       // the edits since the running job started, merged
    std::optional<RecomputeOutcome> unshown_; // a stale outcome: the next job's base
};

enum class TransformerStep { Forward, Rest };

class TransformerStepQueue {
  public:
    // `forwardInline`: the forward step runs on the GUI thread (the rest may not).
    explicit TransformerStepQueue(bool forwardInline) : forwardInline_(forwardInline) {}

    bool forwardInline() const { return forwardInline_; }
    std::uint64_t serial() const { return serial_; }
    bool updating() const { return running_ || forwardWanted_; }
    // The forward pass of the latest settings is shown (the chances follow the edit).
    bool chancesCurrent() const { return shownSerial_ == serial_; }
    // … and with it generation, the gradients and their check.
    bool complete() const { return chancesCurrent() && shownComplete_; }

    // The settings changed: the new serial. A worker-sized forward step is owed.
    std::uint64_t edited();
    // The step the worker should start now (it is then running), or nullopt: busy, or owing
    // nothing (the rest is owed only for the shown forward numbers of the latest settings).
    std::optional<TransformerStep> nextJob();
    // The running job finished for settings `serial`: whether its outcome is still wanted.
    bool finished(std::uint64_t serial);
    // An outcome of the latest settings is shown: `step`'s numbers, or a problem (`failed`:
    // the latest settings' answer, nothing more to compute). Returns whether the shown forward
    // numbers are new (the views of the layers are rebuilt).
    bool shown(TransformerStep step, bool failed);

  private:
    bool forwardInline_ = true;
    std::uint64_t serial_ = 0;      // bumped by every change of the settings
    std::uint64_t shownSerial_ = 0; // the settings the shown numbers were computed from
    bool shownComplete_ = true;     // the shown numbers hold the rest too
    bool shownFailed_ = false;      // the shown answer is a problem
    bool running_ = false;
    bool forwardWanted_ = false; // the forward step of the latest settings, owed by the worker
};

} // namespace attnbook
