#pragma once
// A transformer cell's training run in the window (docs/training.md, "In the window"): on a
// worker thread, watched (the weights of the steps the `show` slider offers are kept), with its
// progress and a Cancel; the latest run wins, and a cancelled or superseded run is dropped.

#include "core/math/training_watch.h"

#include <QFutureWatcher>
#include <QObject>
#include <QTimer>

#include <atomic>
#include <memory>
#include <string>

namespace attnbook {

// What one run gave: the spec it ran, its result and the kept steps, or why it could not run.
struct TrainingRun {
    TrainingSpec spec;
    TrainingResult result;
    TrainingWatch watch;
    std::string error; // "" when it ran
};

class TrainingRunner : public QObject {
    Q_OBJECT

  public:
    explicit TrainingRunner(QObject* parent = nullptr);
    ~TrainingRunner() override; // waits for a run in progress (it reads only its own copies)

    // Trains `cell` (the cell's own, untrained weights) as `spec` says on the worker; a run
    // already going is told to stop and its outcome dropped.
    void start(const TransformerConfig& cell, const TrainingSpec& spec,
               const TransformerLimits& limits);
    void cancel();
    bool running() const { return watcher_ && watcher_->isRunning(); }
    // 0 … 1: the steps done of the latest run.
    double progress() const;
    // Blocks until no run is going (tests, and the window before it swaps the weights).
    void waitForFinished();

  Q_SIGNALS:
    void progressChanged();
    // The latest run ended: trained (run->error empty), refused (an error), or cancelled
    // (run is null).
    void finished(std::shared_ptr<const TrainingRun> run);

  private:
    void runEnded();

    std::unique_ptr<QFutureWatcher<std::shared_ptr<TrainingRun>>> watcher_;
    std::shared_ptr<std::atomic<bool>> stop_;   // the latest run's
    std::shared_ptr<std::atomic<int>> reached_; // the step the latest run is at
    int steps_ = 0;
    QTimer poll_; // says the progress while a run goes (20 times a second)
};

} // namespace attnbook
