#pragma once
// Recomputing an attention cell after an edit:
// what an edit changed, one recompute as a job that owns or only reads what it touches (so it
// can run on a worker thread and outlive the cell that started it), and what the views read
// that is derived from a result (the row check, `edited`, the heads allowed, the JSON that
// prose quotes), computed with the result rather than on the GUI thread.
//
// No Qt: AttentionLiveCell (attention_live_cell.h) says which CellChange each edit makes, and
// the window's AttentionCellModel runs these jobs: inline for a cell whose estimated cost is
// tiny (every shipped lesson's), else on the worker, latest edit winning.

#include "core/document/editable_attention.h"
#include "core/document/json.h"
#include "core/math/attention_engine.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace attnbook {

class JsonSelection;

// What an edit changed since the state whose result is at hand.
struct CellChange {
    enum class Kind {
        Nothing,   // nothing the numbers depend on (the focus row)
        Rows,      // only the vectors of the tokens in `rows` (rows of X0): incremental
        Column,    // only one row of a projection's weights or one entry of its bias
        Attention, // only the heads, the mask, the padding or the scale: Q, K, V stay
        Everything // anything else: a full forward pass
    };
    Kind kind = Kind::Nothing;
    std::vector<int> rows;
    // Kind::Column: which projection, and the column of Q, K, V or Y that the edit changed.
    AttentionEngine::Projected projected = AttentionEngine::Projected::Q;
    int column = -1;

    static CellChange nothing() { return {}; }
    static CellChange everything() { return {Kind::Everything, {}}; }
    static CellChange ofRows(std::vector<int> rows) { return {Kind::Rows, std::move(rows)}; }
    static CellChange attention() { return {Kind::Attention, {}}; }
    static CellChange ofColumn(AttentionEngine::Projected projected, int column) {
        return {Kind::Column, {}, projected, column};
    }
    // This change and then `later`, as one change from this one's starting point.
    void merge(const CellChange& later);
};

// The one-line check under the weights: what a learner should be able to trust about every
// row, verified on the numbers shown rather than assumed.
struct RowCheck {
    bool passed = true;
    double largestShare = 0.0; // the top of a stretched colour scale
    std::string text;          // "✓ Every row totals 1 · …", UTF-8
};
RowCheck checkRows(const AttentionResult& result);

// One recompute. Everything it reads is shared read-only; it writes only `buffer`.
struct RecomputeJob {
    std::shared_ptr<const EditableAttention> state;    // what to compute
    std::shared_ptr<const EditableAttention> authored; // the lesson's cell, for `edited`
    std::shared_ptr<const AttentionResult> base;       // the result before `change`
    CellChange change;
    bool gradients = false; // the backward pass and the gradient check too
    // Prose quotes the cell: build its JSON, of a large cell only the part these paths read.
    bool json = false;
    std::shared_ptr<const JsonSelection> quoted;
    std::string id;
};

struct RecomputeOutcome {
    std::shared_ptr<const AttentionResult> result;
    std::optional<ConfigError> error; // set: the state cannot be computed, show nothing of it
    RowCheck rows;
    bool editedBesidesFocus = false; // whether it differs from the lesson's cell, focus aside
    // Only after an edit that can change the widths (CellChange::Kind::Everything).
    std::optional<std::vector<int>> allowedHeads;
    std::shared_ptr<const Json> json; // when the job asked for it
    double milliseconds = 0.0;
};

// The engine's scratch memory, shared by a cell model and its jobs (one job at a time).
class CellComputer {
  public:
    // Runs `job` into `buffer`, a result nobody else holds (its memory is reused).
    RecomputeOutcome run(const RecomputeJob& job, std::shared_ptr<AttentionResult> buffer);

  private:
    AttentionEngine engine_;
};

// Multiply-adds a recompute of a cell shaped like `result` costs: the forward pass, and with
// `gradients` the backward pass and the gradient check (attentionGradientsWork, the formula the
// cost limits charge).
double recomputeWork(const AttentionResult& result, bool gradients);

class AttentionLiveCell;

// The memory a cell's recomputes reuse: the worker's copies of the live state and the results
// no longer shown. A copy made in the memory of an earlier one of the same sizes costs one copy
// of its numbers and no fresh pages (the page faults of a fresh 19 MB copy were most of a
// GPT-2-shaped edit's time on the GUI thread), and a copy whose weights are the state's copies
// the rest only. Only what nobody else holds (a view, the session, a job) is reused. Used on
// the thread that edits the cell.
class RecomputeMemory {
  public:
    explicit RecomputeMemory(std::shared_ptr<const EditableAttention> authored)
        : latest_(std::move(authored)) {}

    // For a cell computed on the worker: its first copies of the state and of a result at open,
    // so that the first what-ifs reuse memory as every later one does (about 40 ms at GPT-2
    // small's shape, against 8 ms after). Two of each: the first edit's job takes one; the
    // authored state and result it replaces stay held, so the second edit takes the other.
    void prepare(const AttentionLiveCell& live, const AttentionResult& shown);
    // The worker's own copy of the live state.
    std::shared_ptr<const EditableAttention> snapshot(AttentionLiveCell& live);
    // The last state that computed (what a refused edit goes back to), and the live cell's
    // weightsVersion() when it was copied; the one it replaces becomes the next snapshot's.
    const EditableAttention& latestState() const { return *latest_; }
    void replaceLatest(std::shared_ptr<const EditableAttention> state, std::uint64_t version,
                       const AttentionLiveCell& live);
    // A result to fill, nobody else's.
    std::shared_ptr<AttentionResult> freeBuffer();
    // A result no longer shown (never the authored one, which stays held): the next one's memory.
    void recycle(std::shared_ptr<const AttentionResult> replaced);

  private:
    std::shared_ptr<const EditableAttention> latest_;
    std::uint64_t latestVersion_ = 0;
    std::shared_ptr<EditableAttention> spare_; // a snapshot nobody reads any more
    std::uint64_t spareVersion_ = 0;
    // Results no longer shown, the oldest first: two, because the authored result stays held
    // (by the cell and the session) and cannot be one.
    std::vector<std::shared_ptr<AttentionResult>> spares_;
    static constexpr size_t kSpareResults = 2;
};

} // namespace attnbook
