#pragma once
// How many threads OpenBLAS may use in the window.

namespace attnbook {

// Leaves one core to the GUI thread: OpenBLAS runs on (cores − 1) threads, at least one, unless
// OPENBLAS_NUM_THREADS says otherwise. The window computes a large cell on a worker thread,
// and OpenBLAS threads that wait for work spin on sched_yield: with as many of them as cores,
// the GUI thread waited for a core while a 2048-token cell recomputed (a 1 ms timer 20–60 ms
// late on 2 cores), and the recompute itself was no faster. The command line keeps every core.
// A BLAS other than OpenBLAS is left as it is.
void leaveOneCoreToTheGuiThread();

} // namespace attnbook
