#pragma once
// The transformer cell a reader sees: the authored cell, with the weights of its shown training
// step when it trains (docs/training.md). The window's what-ifs start from it and the notebook
// writes its weights, so that both show what compute does.

#include "core/document/cell_specs.h"
#include "core/math/transformer_result.h"

namespace attnbook {

TransformerCellSpec shownSpec(const TransformerCellSpec& authored,
                              const TransformerResult* computed);
// The authored cell with the weights `trained` (a training step's): its vocab rows too.
TransformerCellSpec shownSpec(const TransformerCellSpec& authored,
                              const TransformerConfig& trained);

} // namespace attnbook
