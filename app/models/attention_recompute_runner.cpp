#include "app/models/attention_recompute_runner.h"

#include <QtConcurrent/QtConcurrentRun>

namespace attnbook {
namespace {

// A recompute estimated below this many multiply-adds runs inline, on the GUI thread: every
// shipped lesson's cell (a few thousand, tens of thousands with its gradient check: well under
// a millisecond), so a test or a shot reads the new numbers right after an edit, as it always
// could, and a learner's edit shows in the same frame. Anything larger (a 512-token cell costs
// about 3e7) goes to the worker.
constexpr double kInlineWork = 2e6;

} // namespace

AttentionRecomputeRunner::AttentionRecomputeRunner(std::string cellId, AttentionLiveCell& live,
                                                   Cell cell, QObject* parent)
    : QObject(parent), id_(std::move(cellId)), live_(live), cell_(std::move(cell)),
      computer_(std::make_shared<CellComputer>()), memory_(live_.authored()) {
    // The worker's outcome arrives here, on the GUI thread. A runner destroyed while its job
    // runs takes the watcher with it: the job finishes on its own (it owns or shares all it
    // touches) and its outcome is dropped.
    connect(&watcher_, &QFutureWatcher<RecomputeOutcome>::finished, this,
            &AttentionRecomputeRunner::jobFinished);
}

bool AttentionRecomputeRunner::computesInline() const {
    return recomputeWork(*cell_.shown(), gradients_) <= kInlineWork;
}

void AttentionRecomputeRunner::setQuoted(std::shared_ptr<const JsonSelection> paths) {
    quotedJson_ = paths != nullptr;
    quoted_ = std::move(paths);
}

void AttentionRecomputeRunner::prepareWorkerMemory() {
    if (!computesInline()) {
        memory_.prepare(live_, *cell_.shown());
    }
}

void AttentionRecomputeRunner::recycle(std::shared_ptr<const AttentionResult> replaced) {
    memory_.recycle(std::move(replaced));
}

// The route of every recompute (edits, reset, the gradients wanted).
//
// On the worker: QtConcurrent on the global thread pool rather than a QThread per session.
// A job owns, or shares read-only, everything it touches (a copy of the configuration, the
// engine's scratch, the result it fills), so a cell model can go away while its job runs
// without waiting for it; and the pool's threads are shared with the export renders instead
// of adding a thread per open lesson. One job per cell at a time: edits made meanwhile only
// merge into one pending change (AttentionRecomputeQueue), and when the job finishes a result
// that is already stale is not shown: the newest state is computed from it.
std::optional<ConfigError> AttentionRecomputeRunner::recomputeAfter(const CellChange& change) {
    if (change.kind == CellChange::Kind::Nothing && !updating()) {
        cell_.showUnchanged();
        return std::nullopt;
    }
    if (!updating() && computesInline()) {
        return computeInline(change);
    }
    const bool wasUpdating = updating();
    if (const std::optional<CellChange> start = queue_.edit(change)) {
        startJob(*start);
    }
    if (wasUpdating != updating()) {
        Q_EMIT updatingChanged();
    }
    return std::nullopt;
}

std::optional<ConfigError> AttentionRecomputeRunner::computeInline(const CellChange& change) {
    RecomputeJob job = jobFor(change);
    RecomputeOutcome outcome = computer_->run(job, memory_.freeBuffer());
    if (outcome.error) {
        return outcome.error;
    }
    memory_.replaceLatest(std::move(job.state), live_.weightsVersion(), live_);
    queue_.shownInline();
    cell_.show(std::move(outcome));
    return std::nullopt;
}

RecomputeJob AttentionRecomputeRunner::jobFor(const CellChange& change) {
    RecomputeJob job;
    job.state = memory_.snapshot(live_); // the worker's own copy
    job.authored = live_.authored();
    job.base = queue_.base(cell_.shown());
    job.change = change;
    job.gradients = gradients_;
    job.json = quotedJson_;
    job.quoted = quoted_;
    job.id = id_;
    return job;
}

void AttentionRecomputeRunner::startJob(const CellChange& change) {
    if (change.kind == CellChange::Kind::Nothing) {
        cell_.showUnchanged();
        return;
    }
    RecomputeJob job = jobFor(change);
    queue_.started(job.state, live_.weightsVersion());
    watcher_.setFuture(QtConcurrent::run(
        [computer = computer_, job = std::move(job), buffer = memory_.freeBuffer()]() mutable {
            return computer->run(job, std::move(buffer));
        }));
}

void AttentionRecomputeRunner::jobFinished() {
    AttentionRecomputeQueue::Next next = queue_.finished(watcher_.result());
    if (next.refusal) {
        // Refused: back to the last state that computed, without the edits made since.
        live_.restore(memory_.latestState());
        next.show ? cell_.show(std::move(*next.show)) : cell_.showUnchanged();
        Q_EMIT updatingChanged();
        Q_EMIT refused(QString::fromStdString(next.refusal->message));
        return;
    }
    memory_.replaceLatest(std::move(next.computed), next.computedVersion, live_);
    if (next.start) {
        startJob(*next.start); // the outcome was stale: the newest edit is computed from it
        return;
    }
    cell_.show(std::move(*next.show));
    Q_EMIT updatingChanged();
}

} // namespace attnbook
