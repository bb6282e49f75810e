// attnbook-window-bench's transformer cells (window_bench.cpp, sections 4 and 5): every kind of
// what-if on a GPT-2-small-shaped cell whose weights are .npy files, timed to the new chances and
// to the end of the recompute with the GUI thread's longest block, and each what-if on the
// shipped lesson's small cell `tiny`.
#pragma once

namespace attnbook::window_bench {

// 4. The GPT-2-small-shaped transformer cell, quoted by prose: its first what-if after opening,
// then every kind of what-if with the 1 ms timer ticking, and where a recompute's time goes.
void benchTransformerCell(int repetitions);

// 5. documents/transformer.md's cell `tiny`, as shipped and with every control.
void benchTiny(int repetitions);

} // namespace attnbook::window_bench
