#include "app/models/training_runner.h"

#include <QtConcurrent/QtConcurrentRun>

#include <exception>
#include <new>

namespace attnbook {

TrainingRunner::TrainingRunner(QObject* parent) : QObject(parent) {
    poll_.setInterval(50);
    connect(&poll_, &QTimer::timeout, this, &TrainingRunner::progressChanged);
}

TrainingRunner::~TrainingRunner() {
    cancel();
    waitForFinished();
}

void TrainingRunner::start(const TransformerConfig& cell, const TrainingSpec& spec,
                           const TransformerLimits& limits) {
    cancel();
    waitForFinished(); // a stopped run ends at its next step
    stop_ = std::make_shared<std::atomic<bool>>(false);
    reached_ = std::make_shared<std::atomic<int>>(0);
    steps_ = spec.steps;
    watcher_ = std::make_unique<QFutureWatcher<std::shared_ptr<TrainingRun>>>();
    connect(watcher_.get(), &QFutureWatcherBase::finished, this, &TrainingRunner::runEnded);
    // The worker trains a copy: the window may drop the cell meanwhile.
    watcher_->setFuture(QtConcurrent::run(
        [cell = TransformerConfig(cell), spec, limits, stop = stop_, reached = reached_] {
            auto run = std::make_shared<TrainingRun>();
            run->spec = spec;
            run->watch.keepGoing = [stop, reached](int step) {
                reached->store(step);
                return !stop->load();
            };
            try {
                run->result = trainTransformer(cell, spec, limits, run->watch);
            } catch (const InvalidConfig& e) {
                run->error = e.error().message;
            } catch (const std::bad_alloc&) {
                // Nothing is rethrown on the GUI thread: the cell says why and keeps its run.
                run->error = "not enough memory for this training: fewer steps, please";
            } catch (const std::exception& e) {
                run->error = std::string("the training failed: ") + e.what();
            }
            run->watch.keepGoing = nullptr;
            return run;
        }));
    poll_.start();
    Q_EMIT progressChanged();
}

void TrainingRunner::cancel() {
    if (stop_) {
        stop_->store(true);
    }
}

double TrainingRunner::progress() const {
    if (!reached_ || !running()) {
        return 0.0;
    }
    return double(reached_->load()) / double(std::max(steps_, 1));
}

void TrainingRunner::waitForFinished() {
    if (watcher_) {
        watcher_->waitForFinished();
    }
}

void TrainingRunner::runEnded() {
    poll_.stop();
    std::shared_ptr<TrainingRun> run = watcher_->result();
    const bool cancelled = stop_ && stop_->load();
    Q_EMIT progressChanged();
    Q_EMIT finished(cancelled || run->watch.cancelled ? nullptr : std::move(run));
}

} // namespace attnbook
