#pragma once
// What a transformer cell's views read, as QVariants, from its result (transformer.md): the
// residual stream stage by stage, the FFN's activations, the next-word chances, the generation,
// attention in blocks. TransformerCellModel hands these to QML.

#include "core/math/transformer_config.h"
#include "core/math/transformer_result.h"

#include <QVariantList>
#include <QVariantMap>

namespace attnbook::transformer_views {

// The columns (and rows) the stream and FFN views show of a large cell: the first ones.
constexpr int kShownColumns = 48;
constexpr int kShownHiddenColumns = 128;
constexpr int kShownRows = 32;

// Stage 0 is the tokens with their positions; then each layer's + attention and + FFN; last
// the final LayerNorm.
const arma::mat& stageMatrix(const TransformerResult& result, int stage);
// One entry per token {label, values, norm, change, changeNorm}.
QVariantList stageRows(const TransformerResult& result, int stage);
double stageRange(const TransformerResult& result, int stage);
double changeRange(const TransformerResult& result, int stage);
QVariantList ffnRows(const TransformerResult& result, int layer);
double ffnRange(const TransformerResult& result, int layer);
// {word, prob, chosen} for the top `count`; none chosen while a sampled draw is `drawComing`.
QVariantList nextWords(const TransformerResult& result, int count, bool drawComing);
QVariantList generationSteps(const TransformerResult& result);
int headsOf(const TransformerResult& result, int layer);
QVariantMap blocks(const TransformerResult& result, const TransformerConfig& config, int layer,
                   int head, int row, int blockSize);

} // namespace attnbook::transformer_views
