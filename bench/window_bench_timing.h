// attnbook-window-bench's timing and report helpers, shared by its attention sections
// (window_bench_attention.cpp) and its transformer sections (window_bench_transformer.cpp): the
// targets, a median and worst of times, an edit and the wait for its numbers, the GUI thread's
// CPU time, and the 1 ms timer that measures how long the GUI thread is blocked.
#pragma once

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QString>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

namespace attnbook::window_bench {

// The targets (window_bench.cpp, at the top).
constexpr double kEditTargetMs = 16.0;
constexpr double kBlockTargetMs = 8.0;
constexpr double kTransformerEditTargetMs = 150.0; // the new chances shown after a what-if
constexpr double kFrameMs = 16.0;                  // a small cell's what-if, inline

struct Stats {
    double median = 0, worst = 0;
};

// The median and the worst of `ms` (not empty).
Stats stats(std::vector<double> ms);

// Runs the event loop until the cell shows the edit's numbers; false on a refusal. The edit
// must change something (a transformer cell computes nothing for an edit that does not).
template <class Cell> bool editAndWait(Cell* cell, const std::function<QString()>& edit) {
    const int before = cell->revision();
    const QString refusal = edit();
    if (!refusal.isEmpty()) {
        std::printf("      refused: %s\n", qPrintable(refusal));
        return false;
    }
    while (cell->updating() || cell->revision() == before) {
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    }
    return true;
}

// The calling thread's CPU time, in ms.
double threadCpuMs();

// A 1 ms timer on the GUI thread. Between two ticks the thread is either working or waiting
// for a core: `busy` is the longest CPU time the thread spent between two ticks (its own
// work), `late` the longest gap less the 1 ms (that work and any wait for a core).
class BlockMeter {
  public:
    BlockMeter() {
        clock_.start();
        ticker_.setTimerType(Qt::PreciseTimer);
        ticker_.setInterval(1);
        QObject::connect(&ticker_, &QTimer::timeout, &ticker_, [this] {
            const qint64 now = clock_.nsecsElapsed();
            const double cpu = threadCpuMs();
            late_ = std::max(late_, double(now - lastTick_) / 1e6 - 1.0);
            busy_ = std::max(busy_, cpu - lastCpu_);
            lastTick_ = now;
            lastCpu_ = cpu;
            ++ticks_;
        });
    }
    // Starts the timer, lets it tick a few times and forgets what came before.
    void start() {
        ticker_.start();
        lastTick_ = clock_.nsecsElapsed();
        lastCpu_ = threadCpuMs();
        for (int k = 0; k < 3; ++k) {
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
        }
        late_ = busy_ = 0;
    }
    // Lets the timer tick once more, then stops it: the work that ended the wait (the result
    // swapped in, the prose rewritten, the views refreshed) is counted by the tick after it.
    void stop() {
        const int ticks = ticks_;
        while (ticks_ == ticks) {
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
        }
        ticker_.stop();
    }
    double busy() const { return busy_; }
    double late() const { return late_; }
    // The thread's CPU time at the latest tick.
    double lastTickCpuMs() const { return lastCpu_; }

  private:
    QElapsedTimer clock_;
    QTimer ticker_;
    qint64 lastTick_ = 0;
    double lastCpu_ = 0, busy_ = 0, late_ = 0;
    int ticks_ = 0;
};

} // namespace attnbook::window_bench
