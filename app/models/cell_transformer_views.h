#pragma once
// A transformer cell's views (core/present/transformer_views.h) as the QVariants QML reads:
// TransformerCellModel hands these to the stream, FFN, next-word, generation and blocks views.

#include "core/present/transformer_views.h"

#include <QVariantList>
#include <QVariantMap>

namespace attnbook::transformer_views {

// {label, values, norm, change, changeNorm} per token (change and changeNorm after stage 0).
QVariantList toVariant(const std::vector<StageRow>& rows);
// {label, values} per token.
QVariantList toVariant(const std::vector<FfnRow>& rows);
// {word, prob, chosen} per word.
QVariantList toVariant(const std::vector<NextWord>& words);
// {word, prob, costCached, costFull, keys} per generated word.
QVariantList toVariant(const std::vector<GeneratedWord>& steps);
// {steps, loss, heldOut, shown, shownLoss, stopped}; {} for a cell that does not train.
QVariantMap toVariant(const std::optional<TrainingCurve>& curve);
// {row, word, full, bars: [{part, prob, topWord, topChanged}]}; {} without knock-outs.
QVariantMap toVariant(const std::optional<KnockoutView>& view);
// {steps: [{first, end, max, total, out}], output, plain, difference}; {} for none.
QVariantMap toVariant(const std::optional<Blocks>& blocks);

} // namespace attnbook::transformer_views
