// attnbook-window-bench: how long the window takes from an edit to updated models,
// and how long the GUI thread is ever blocked while a large cell recomputes on the
// worker. A benchmark: built by the default build, never run by CTest.
//
//   attnbook-window-bench [repetitions] [edits|block|gpt2|transformer]   (default 21, all four)
//
// 1. A 512-token cell of width 64 with projections, quoted by prose, in a LessonSession with
//    the tables a window shows: for every kind of edit, the time from the call to the cell's
//    `recomputed` with `updating` false. The session rewrites the quoting prose in its own
//    `recomputed` handler, connected before ours, so the time includes it. Median and worst.
// 2. A 2048-token cell recomputing on the worker after each kind of edit, while a 1 ms timer
//    runs on the GUI thread. Between two ticks the GUI thread is either working (an edit
//    call, a result swapped in, the tables refreshed) or waiting for a core: the thread's CPU
//    time between ticks is the longest it was blocked by its own work; the gap between ticks,
//    less the 1 ms, is how late the timer was, which also counts the time the thread waited
//    for a core (on a loaded 2-core machine, behind the worker's BLAS threads and any build).
//    The timer ticks once more after the numbers are shown, so that the swap itself (the
//    result, the prose, the tables) is counted: it is the last thing the wait sees.
// 3. A GPT-2-shaped cell (n = 64, d = 768, 12 heads): edit → updated.
// 4. A GPT-2-small-shaped transformer cell (transformer.md: n = 64, d = 768, 12 heads,
//    d_ff = 3072, 2 layers, 1000 words, its weights read from .npy files), quoted by prose, which
//    recomputes on the worker in two steps: for every kind of what-if, the time from the call
//    to the new chances (the forward step's `recomputed`) and to `updating` false (generation,
//    gradients and their check), and the GUI thread's longest block (the 1 ms timer of
//    2.) — the call, the result swapped in, the prose rewritten, and what the views read when
//    they hear `recomputed` (the shown views: stageRows, nextWords, generation); the GUI thread's
//    CPU time split into the call, the swap with the prose, and the views' reads; and where the
//    worker's time goes. Then the first what-if after opening, alone.
// 5. The shipped lesson's cell `tiny` (documents/transformer.md), as shipped and with every
//    control: where each what-if's forward step computes, its time, the call's wall and CPU
//    time, and the time until the new chances and until everything is shown.
//
// Targets: every edit ≤ 16 ms at n = 512, d = 64; the GUI never blocked > 8 ms.
// The transformer cell: the new chances shown ≤ 150 ms after a what-if, the GUI never blocked
// > 8 ms; `tiny`: each what-if's new chances within a frame (16 ms).
//
// The parts: the timing and the report (window_bench_timing.h), the attention cells of 1 to 3
// (window_bench_attention.h) and the transformer cells of 4 and 5 (window_bench_transformer.h).
#include "app/window/blas_threads.h"
#include "bench/window_bench_attention.h"
#include "bench/window_bench_timing.h"
#include "bench/window_bench_transformer.h"
#include "core/document/cell_cost.h"

#include <QGuiApplication>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace attnbook;
using namespace attnbook::window_bench;

int main(int argc, char* argv[]) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QGuiApplication app(argc, argv);
    leaveOneCoreToTheGuiThread(); // as the window does
    const int repetitions = argc > 1 ? std::max(3, std::atoi(argv[1])) : 21;
    // The 2048-token and GPT-2-shaped cells pass the default limits on what `check` and
    // `compute` would print as JSON (cell_cost.h); the window prints none of it, so the bench
    // raises them as --max-json and --max-memory would.
    CostLimits limits = costLimits();
    limits.maxJsonBytes = 1e12;
    limits.maxBytes = 1e12;
    setCostLimits(limits);
    const std::string only = argc > 2 ? argv[2] : "";
    std::printf("attnbook-window-bench: %d repetitions of each edit\n", repetitions);
    if (only.empty() || only == "edits") {
        const bool met = benchEdits(512, 64, repetitions);
        std::printf("   every edit ≤ %.0f ms at n = 512, d = 64: %s\n", kEditTargetMs,
                    met ? "yes" : "no");
    }
    if (only.empty() || only == "block") {
        benchBlocking(2048, 64, std::max(3, repetitions / 4));
    }
    if (only.empty() || only == "gpt2") {
        benchGpt2Shaped(repetitions);
    }
    if (only.empty() || only == "transformer") {
        benchTransformerCell(repetitions);
        benchTiny(repetitions);
    }
    return 0;
}
