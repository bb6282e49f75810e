// attnbook-window-bench's attention cells (window_bench.cpp, sections 1 to 3): a random cell
// in a LessonSession with the tables a window shows, every kind of edit timed from the call to
// the updated models, and the GUI thread's longest block while a large cell recomputes.
#pragma once

namespace attnbook::window_bench {

// 1. Every kind of edit → models updated, n tokens of width d, quoted by prose; true when every
// edit met the target (kEditTargetMs), false too when the lesson did not open or an edit was
// refused.
bool benchEdits(int n, int d, int repetitions);

// 2. The longest the GUI thread was blocked (its CPU time between two ticks of a 1 ms timer)
// while an n-token cell recomputes on the worker after each kind of edit; -1 when the lesson
// did not open or an edit was refused.
double benchBlocking(int n, int d, int repetitions);

// 3. A GPT-2-shaped cell (n = 64, d = 768, 12 heads, causal): a few kinds of edit → updated.
void benchGpt2Shaped(int repetitions);

} // namespace attnbook::window_bench
