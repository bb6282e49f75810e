#pragma once
// Knock-outs (docs/transformer.md, "Knock-outs"): the cell computed again with one part of the
// model removed, for every part, so that a lesson can say what a head or a layer is for and a
// claim can hold it to that under every what-if.
//
//   head[l][i]     head i of layer l: its context rows are zero before W_O (b_O stays)
//   attention[l]   layer l's attention: A = 0, so R = Xˡ⁻¹
//   ffn[l]         layer l's FFN: F = 0, so Xˡ = R
//   block[l]       the whole block: Xˡ = Xˡ⁻¹
//
// They act on the model as the `run` switches leave it: only the layers that run, with the
// norms and FFNs on or off as the reader set them.

#include "core/math/transformer_config.h"
#include "core/math/transformer_result.h"

namespace attnbook {

class TransformerEngine;

// The knock-outs of `config`, each one forward pass of the engine (L·h + 3L of them).
TransformerKnockouts computeKnockouts(TransformerEngine& engine, const TransformerConfig& config);

// The forward passes the knock-outs add, in multiply-adds: what the limits charge before they
// run (transformerForwardCost for each of the L·h + 3L passes).
double knockoutWork(const TransformerConfig& config);

// How many passes that is: L·h + 3L over the layers that run.
int knockoutPasses(const TransformerConfig& config);

} // namespace attnbook
