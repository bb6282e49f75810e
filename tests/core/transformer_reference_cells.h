// Random transformer cells for the cases of test_transformer_reference*.cpp: one draw gives
// the reference's Cell (transformer_reference.h, every default spelled out, the `run` switches
// applied) and the TransformerConfig that says the same thing the way a document would. The
// draws are seeded, so every run (and every file) sees the same 100 cells.
#pragma once

#include "core/math/transformer_engine.h"

#include "reference_generator.h"
#include "transformer_reference.h"

#include <cstdint>

#include <set>
#include <string>
#include <vector>

namespace tref::cells {

using namespace attnbook;

struct Draw {
    tref::Cell cell;
    TransformerConfig config;
    bool sinusoidal = false;     // P is the sinusoidal encoding (it grows with generation)
    std::set<std::string> kinds; // what was drawn, for the coverage check
    std::string label;           // the same, for failure messages
};

// The shared random numbers (reference_generator.h), in the reference's long doubles.
using Generator = attnbook::test::ReferenceGenerator<Matrix>;

arma::mat toArma(const Matrix& m);

arma::rowvec toRow(const Matrix& m);

std::vector<std::string> labels(const std::string& prefix, int count);

void note(Draw& out, const std::string& kind);

// A LayerNorm: `none`, or γ and β each given or left to their defaults.
tref::Norm drawNorm(Generator& gen, Draw& out, int d, LayerNormParams& params,
                    const std::string& name);

// One layer's attention: h of 1, 2 or 4 heads, widths d / h (so that identities fit) or
// drawn, identity only where square (attention.md, "Widths"), W_O always back to d.
tref::Attention drawAttention(Generator& gen, Draw& out, int d, AttentionConfig& config,
                              bool forGeneration);

// Padding needs the token count; a few flags (possibly every one: blocked rows).
void drawPadding(Generator& gen, Draw& out, int n, tref::Attention& a, AttentionConfig& config);

tref::Ffn drawFfn(Generator& gen, Draw& out, int d, FeedForwardParams& params);

// A whole cell. For generation: tied, causal in every layer, no padding, P none or
// sinusoidal (positions must extend) and every layer run.
Draw drawCell(Generator& gen, bool forGeneration = false);

// The 100 random cells, the same every run: 4 seeds of 25.
std::vector<Draw> randomCells();

// splitmix64 as transformer.md states it, written here again (all arithmetic mod 2⁶⁴).
uint64_t splitmix(uint64_t& state);

// The cell of `draw` with `words` (vocab rows) as its tokens: what a full recompute of a
// longer sequence reads. No targets; the loss is not looked at.
// `weights` (a cell of `draw`) reading `words`: its tokens, X0 their rows of the tied vocab, and
// the positions for their number.
tref::Cell withWords(const Draw& draw, tref::Cell weights, const std::vector<int>& words);

tref::Cell extended(const Draw& draw, const std::vector<int>& words);

} // namespace tref::cells
