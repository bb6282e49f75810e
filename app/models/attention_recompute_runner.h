#pragma once
// The thread an attention cell's recompute runs on: inline for a cell whose estimated cost is
// tiny, else on a worker (QtConcurrent), one job at a time, the latest edit winning.
// The rules of the worker's queue and the jobs are core's (core/live/recompute_queue.h,
// core/live/attention_recompute.h); this class only runs them on Qt's threads and hands each
// outcome to the cell model that owns it (attention_cell_model.h).

#include "core/live/attention_live_cell.h"
#include "core/live/attention_recompute.h"
#include "core/live/recompute_queue.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace attnbook {

class AttentionRecomputeRunner : public QObject {
    Q_OBJECT

  public:
    // What the runner reads of, and does to, the cell model it computes for.
    struct Cell {
        // The result the views show now: the next job's base when no stale one waits.
        std::function<std::shared_ptr<const AttentionResult>()> shown;
        // Swaps a computed result in, then tells the views.
        std::function<void(RecomputeOutcome)> show;
        // A change that needs no compute (the focus): the views redraw.
        std::function<void()> showUnchanged;
    };

    AttentionRecomputeRunner(std::string cellId, AttentionLiveCell& live, Cell cell,
                             QObject* parent = nullptr);

    // A job is running or an edit waits for one: the views show the last complete numbers.
    bool updating() const { return queue_.updating(); }
    // Whether a recompute of the shown cell runs inline on the calling thread.
    bool computesInline() const;
    // Jobs also run the backward pass (cells whose gradients are shown or quoted).
    bool gradients() const { return gradients_; }
    void setGradients(bool needed) { gradients_ = needed; }
    // Jobs also build the cell's JSON, of a large cell only the part these paths read.
    void setQuoted(std::shared_ptr<const JsonSelection> paths);

    // The one route of every recompute: inline (returning why the state cannot be computed,
    // or nullopt) or, for a large cell, on the worker (nullopt at once).
    std::optional<ConfigError> recomputeAfter(const CellChange& change);
    std::optional<ConfigError> computeInline(const CellChange& change);
    // For a cell computed on the worker: the memory its first what-ifs reuse.
    void prepareWorkerMemory();
    // A result no longer shown: the next one's memory.
    void recycle(std::shared_ptr<const AttentionResult> replaced);

  Q_SIGNALS:
    void updatingChanged();
    // An edit accepted at once was refused when the worker computed it (its numbers
    // overflow): the live cell is back at the last state that computed.
    void refused(const QString& reason);

  private:
    RecomputeJob jobFor(const CellChange& change);
    void startJob(const CellChange& change);
    void jobFinished();

    std::string id_;
    AttentionLiveCell& live_;
    Cell cell_;
    bool gradients_ = false;
    bool quotedJson_ = false;
    std::shared_ptr<const JsonSelection> quoted_;
    std::shared_ptr<CellComputer> computer_;
    RecomputeMemory memory_; // the states and results the recomputes reuse
    // The worker (startJob): one job at a time, the latest edit winning (the queue's rules).
    QFutureWatcher<RecomputeOutcome> watcher_;
    AttentionRecomputeQueue queue_;
};

} // namespace attnbook
