#include "app/models/transformer_shown_views.h"

#include "app/models/cell_transformer_views.h"
#include "app/models/transformer_cell_model.h"
#include "core/present/transformer_views.h"

#include <algorithm>

namespace attnbook {

TransformerShownViews::TransformerShownViews(TransformerCellModel& cell)
    : QObject(&cell), cell_(cell) {}

int TransformerShownViews::within(int choice, int count) {
    return count <= 0 ? 0 : std::clamp(choice, 0, count - 1);
}

void TransformerShownViews::choose(int& field, int value,
                                   void (TransformerShownViews::*changed)()) {
    if (field != value) {
        field = value;
        Q_EMIT(this->*changed)();
    }
}

void TransformerShownViews::numbersChanged() {
    Q_EMIT streamChanged();
    Q_EMIT ffnChanged();
    Q_EMIT nextChanged();
    Q_EMIT generationChanged();
    Q_EMIT blocksChanged();
    Q_EMIT attentionChanged();
}

void TransformerShownViews::setViewIndex(int index) {
    choose(viewIndex_, std::max(0, index), &TransformerShownViews::viewIndexChanged);
}

int TransformerShownViews::stage() const {
    return within(stage_, transformer_views::stageCount(cell_.result()));
}
void TransformerShownViews::setStage(int stage) {
    choose(stage_, within(stage, transformer_views::stageCount(cell_.result())),
           &TransformerShownViews::streamChanged);
}

int TransformerShownViews::ffnLayer() const {
    return within(ffnLayer_, cell_.layersRun());
}
void TransformerShownViews::setFfnLayer(int layer) {
    choose(ffnLayer_, within(layer, cell_.layersRun()), &TransformerShownViews::ffnChanged);
}

// Of the model's layers: a layer that does not run is said so, in place of its views.
int TransformerShownViews::attentionLayer() const {
    return within(attentionLayer_, cell_.layerCount());
}
void TransformerShownViews::setAttentionLayer(int layer) {
    choose(attentionLayer_, within(layer, cell_.layerCount()),
           &TransformerShownViews::attentionChanged);
}

int TransformerShownViews::blocksLayer() const {
    return within(blocksLayer_, cell_.layersRun());
}
void TransformerShownViews::setBlocksLayer(int layer) {
    choose(blocksLayer_, within(layer, cell_.layersRun()), &TransformerShownViews::blocksChanged);
}

int TransformerShownViews::blocksHead() const {
    return within(blocksHead_, blocksHeads());
}
void TransformerShownViews::setBlocksHead(int head) {
    choose(blocksHead_, within(head, blocksHeads()), &TransformerShownViews::blocksChanged);
}

int TransformerShownViews::blocksRow() const {
    return within(blocksRow_ < 0 ? cell_.n() - 1 : blocksRow_, cell_.n());
}
void TransformerShownViews::setBlocksRow(int row) {
    choose(blocksRow_, within(row, cell_.n()), &TransformerShownViews::blocksChanged);
}

int TransformerShownViews::blockSize() const {
    return std::clamp(blockSize_ > 0 ? blockSize_ : cell_.blockSize(), 1, std::max(1, cell_.n()));
}
void TransformerShownViews::setBlockSize(int size) {
    choose(blockSize_, std::clamp(size, 1, std::max(1, cell_.n())),
           &TransformerShownViews::blocksChanged);
}

// Each block reads blockSize keys of the n, the last block what is left.
int TransformerShownViews::blockCount() const {
    return (cell_.n() + blockSize() - 1) / blockSize();
}
int TransformerShownViews::blocksStep() const {
    return within(blocksStep_, blockCount());
}
void TransformerShownViews::setBlocksStep(int step) {
    choose(blocksStep_, within(step, blockCount()), &TransformerShownViews::blocksChanged);
}

QStringList TransformerShownViews::stageNames() const {
    return cell_.stageNames();
}
QVariantList TransformerShownViews::stageRows() const {
    return transformer_views::toVariant(transformer_views::stageRows(cell_.result(), stage()));
}
double TransformerShownViews::stageRange() const {
    return transformer_views::stageRange(cell_.result(), stage());
}
double TransformerShownViews::streamRange() const {
    return transformer_views::streamRange(cell_.result());
}
double TransformerShownViews::changeRange() const {
    return transformer_views::changeRange(cell_.result(), stage());
}

QVariantList TransformerShownViews::ffnRows() const {
    return transformer_views::toVariant(transformer_views::ffnRows(cell_.result(), ffnLayer()));
}
double TransformerShownViews::ffnRange() const {
    return transformer_views::ffnRange(cell_.result(), ffnLayer());
}

QVariantList TransformerShownViews::nextWords() const {
    return transformer_views::toVariant(
        transformer_views::nextWords(cell_.result(), kNextWords, cell_.sampledDrawComing()));
}

QVariantMap TransformerShownViews::knockout() const {
    return transformer_views::toVariant(transformer_views::knockoutView(cell_.result()));
}

QVariantMap TransformerShownViews::training() const {
    return transformer_views::toVariant(transformer_views::trainingCurve(cell_.training()));
}

QVariantList TransformerShownViews::generation() const {
    return transformer_views::toVariant(transformer_views::generationSteps(cell_.result()));
}

int TransformerShownViews::blocksHeads() const {
    return transformer_views::headsOf(cell_.result(), blocksLayer());
}
QVariantMap TransformerShownViews::blocks() const {
    return transformer_views::toVariant(transformer_views::blocks(
        cell_.result(), cell_.liveConfig(), blocksLayer(), blocksHead(), blocksRow(), blockSize()));
}

QObject* TransformerShownViews::attention() const {
    return cell_.layerAttention(attentionLayer());
}

} // namespace attnbook
