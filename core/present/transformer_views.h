#pragma once
// What a transformer cell's views read of its result (transformer.md), without Qt: the residual
// stream stage by stage, the FFN's activations, the next-word chances, the generation, attention
// in blocks, and each layer's attention as an attention cell of its own. The window's model
// (app/models/cell_transformer_views.h) only turns these into QVariants.

#include "core/document/cell_specs.h"
#include "core/document/chart_series.h"
#include "core/math/number_format.h"
#include "core/math/transformer_config.h"
#include "core/math/transformer_result.h"

#include <optional>
#include <string>
#include <vector>

namespace attnbook::transformer_views {

// The columns (and rows) the stream and FFN views show of a large cell: the first ones.
constexpr int kShownColumns = 48;
constexpr int kShownHiddenColumns = 128;
constexpr int kShownRows = 32;

// One token's row of a stage: the vector after the stage and its length, and (after stage 0)
// what the stage added and its length.
struct StageRow {
    std::string label;
    std::vector<double> values;
    double norm = 0.0;
    std::optional<std::vector<double>> change;
    double changeNorm = 0.0;
};

// One token's FFN activations.
struct FfnRow {
    std::string label;
    std::vector<double> values;
};

struct NextWord {
    std::string word;
    double prob = 0.0;
    bool chosen = false;
};

struct GeneratedWord {
    std::string word;
    double prob = 0.0;
    double costCached = 0.0;
    double costFull = 0.0;
    int keys = 0; // the positions the step's query reads
};

// One block of keys [first, end) read by the running softmax, for one query row.
struct BlockStep {
    int first = 0;
    int end = 0;
    std::optional<double> max; // none while every key so far is blocked (−∞)
    double total = 0.0;
    std::vector<double> out;
    bool read = false; // whether the row reads some key of the block (else all are masked)
};

// Attention in blocks for one head and query row, beside the plain computation's row.
struct Blocks {
    int layer = 0, head = 0, row = 0, blockSize = 1;
    std::vector<BlockStep> steps;
    std::vector<double> output;
    std::vector<double> plain;
    double difference = 0.0; // the largest |output − plain|
};

// One bar of the knockout view: a part removed, the chance the whole model's top word keeps
// without it, and the word that comes out on top instead when it is another.
struct KnockoutBar {
    std::string part; // "block 1, head 2" (counted from 1, as the window's tabs count layers)
    double prob = 0.0;
    std::string topWord; // the likeliest word without the part
    bool topChanged = false;
};

// The knockout view (transformer.md, "Knock-outs"): for the focus row's top word in the whole
// model, its chance with each part removed in turn, beside the whole model's chance.
struct KnockoutView {
    int row = 0; // the focus row
    std::string word;
    double full = 0.0;
    std::vector<KnockoutBar> bars; // per layer: each head, the attention, the FFN, the block
};

// The training view (docs/training.md): the loss at every step, on the training sentences and
// the held-out ones, and the step whose weights the cell shows.
struct TrainingCurve {
    std::vector<double> steps;   // 0 … S
    std::vector<double> loss;    // one per step
    std::vector<double> heldOut; // one per step; empty without held-out sentences
    int shown = 0;
    double shownLoss = 0.0;
    std::string stopped; // why training ended early, or ""
};

// Row `row` of `m`, its first `columns` numbers at most.
std::vector<double> rowOf(const arma::mat& m, arma::uword row,
                          arma::uword columns = arma::uword(-1));
// The largest |entry| of `m`; 0 when empty.
double largestMagnitude(const arma::mat& m);

// Stage 0 is the tokens with their positions; then each layer's + attention and + FFN; last
// the final LayerNorm: stageCount of them.
inline int stageCount(const TransformerResult& result) {
    return 2 * result.layersRun + 2;
}
const arma::mat& stageMatrix(const TransformerResult& result, int stage);
// One row per token shown (kShownRows at most, kShownColumns numbers each).
std::vector<StageRow> stageRows(const TransformerResult& result, int stage);
double stageRange(const TransformerResult& result, int stage);
// The largest |value| of every stage: one colour scale for the whole stream, so a vector that
// grows from stage to stage is seen to grow (per stage, lengths 3.4 and 19.2 looked alike).
double streamRange(const TransformerResult& result);
double changeRange(const TransformerResult& result, int stage);
// [] outside the layers run.
std::vector<FfnRow> ffnRows(const TransformerResult& result, int layer);
double ffnRange(const TransformerResult& result, int layer);
// The word the cell picks next, as an index into its words: generation's first pick, else the
// likeliest (the first in order on a tie); −1 without chances. One rule for every renderer.
int chosenNextWord(const TransformerResult& result);
// The top `count` chances, chosenNextWord marked, none while a sampled draw is `drawComing`
// (it may pick another).
std::vector<NextWord> nextWords(const TransformerResult& result, int count, bool drawComing);
std::vector<GeneratedWord> generationSteps(const TransformerResult& result);
int headsOf(const TransformerResult& result, int layer);
// Nothing when the result has no knock-outs (the cell was not asked for them).
std::optional<KnockoutView> knockoutView(const TransformerResult& result);
// Nothing when the cell does not train (`training` null).
std::optional<TrainingCurve> trainingCurve(const TrainingResult* training);

// The training curve as a chart: the loss at each step on the lesson's sentences, and on the
// held-out ones when there are any, over the steps 0 … S.
struct TrainingChart {
    ChartCellSpec chart;
    std::vector<ChartSeries> series;
};
TrainingChart trainingChart(const TrainingCurve& curve);

// What the cache of keys and values holds after the generation (or for the prompt alone, when
// none ran), as the cache view says it: "LEAD<b>FORMULA = NUMBERS numbers</b>.", the formula
// L · h · (d_k + d_v) · (n + N − 1) with its numbers when every layer run has the same heads
// and widths, else Σ over layers h · (d_k + d_v) × (n + N − 1).
struct CacheSize {
    std::string lead;
    std::string formula;
    std::string numbers;
};
CacheSize cacheSize(const TransformerResult& result);

// One row of the gradients view: a parameter's gradient by its path, its shape, its Frobenius
// norm and its largest |entry|; `ruleAbove` starts a group (each layer, then the final
// LayerNorm and the vocab).
struct GradientRow {
    std::string name; // "layers[0].attention.W_Q"
    arma::uword rows = 0, cols = 0;
    double norm = 0.0;
    double largest = 0.0;
    bool ruleAbove = false;
};
// Every gradient the result has, in the model's order (X0, each layer's LN₁, W_Q … b_O, LN₂,
// FFN, then the final LayerNorm, the vocab or the unembedding, and b_U when the cell has one).
std::vector<GradientRow> gradientRows(const TransformerCellSpec& spec,
                                      const TransformerResult& result);
// The sentence over the table: what L is.
std::string gradientLossText(const TransformerResult& result);
// What a bar is called: "block 1, head 2", "block 1 attention", "block 1 FFN", "block 1".
std::string knockoutPartLabel(const ModelPart& part);
// Nothing outside the layers run, the heads, the rows, or for a block size below 1.
std::optional<Blocks> blocks(const TransformerResult& result, const TransformerConfig& config,
                             int layer, int head, int row, int blockSize);
// The printed blocks view (page and paper): head 1 of the last layer run, the focus row, in
// blocks of the cell's `block_size`; nothing when no layer ran.
std::optional<Blocks> blocksOfFocus(const TransformerCellSpec& spec,
                                    const TransformerResult& result);
// The running outputs the printed view shows: o₁ … o₄ at most.
constexpr int kBlocksCoordinatesShown = 4;
int blocksCoordinatesShown(const Blocks& blocks);
// The sentence over the table: which head, row and word, and what each block updates (the
// block size is the view's title's).
std::string blocksLead(const Blocks& blocks, const std::string& word);
// One way of writing the table's m, ℓ and o entries (number_format.h).
NumberStyle blocksNumberStyle(const Blocks& blocks);
// The sentence under the table: whether the blocks end where the plain path does, and which
// coordinates are shown.
std::string blocksAgreement(const Blocks& blocks);

// Layer `layer`'s attention as a read-only attention cell: its input H = LN₁(Xˡ⁻¹) and its
// weights, copied (the spec outlives the result it was read from), the attention views, no
// controls. The layer must be one the result ran.
AttentionCellSpec layerAttentionSpec(const TransformerConfig& config,
                                     const TransformerResult& result, int layer);

} // namespace attnbook::transformer_views
