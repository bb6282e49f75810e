#pragma once
// What a transformer cell's views show, and the reader's choices among them, as properties
// that say when they change: the one place that tells every view of the cell what changed.
//
// Each view's numbers are a property with its own change signal, emitted when the cell shows
// new numbers (a what-if, its forward step or the rest of it) or when the reader changes a
// choice that view reads (its stage, layer, head, query row or block size). A QML binding that
// reads a property depends on it; a binding that only called a function never learned that
// the function's answer had changed, which left the views showing an earlier what-if.
//
// The choices (which view, which stage, …) live here rather than in the QML items, so a cell
// keeps them while the lesson is open, even after its card scrolls away and is rebuilt.

#include <QObject>
#include <QStringList>
#include <QVariantList>
#include <QVariantMap>
#include <QtQml/qqmlregistration.h>

namespace attnbook {

class TransformerCellModel;

class TransformerShownViews : public QObject {
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("a transformer cell's views come from its TransformerCellModel")

    // The reader's choices.
    Q_PROPERTY(int viewIndex READ viewIndex WRITE setViewIndex NOTIFY viewIndexChanged)
    Q_PROPERTY(int stage READ stage WRITE setStage NOTIFY streamChanged)
    Q_PROPERTY(int ffnLayer READ ffnLayer WRITE setFfnLayer NOTIFY ffnChanged)
    Q_PROPERTY(
        int attentionLayer READ attentionLayer WRITE setAttentionLayer NOTIFY attentionChanged)
    Q_PROPERTY(int blocksLayer READ blocksLayer WRITE setBlocksLayer NOTIFY blocksChanged)
    Q_PROPERTY(int blocksHead READ blocksHead WRITE setBlocksHead NOTIFY blocksChanged)
    Q_PROPERTY(int blocksRow READ blocksRow WRITE setBlocksRow NOTIFY blocksChanged)
    Q_PROPERTY(int blockSize READ blockSize WRITE setBlockSize NOTIFY blocksChanged)
    Q_PROPERTY(int blocksStep READ blocksStep WRITE setBlocksStep NOTIFY blocksChanged)

    // The residual stream at the chosen stage.
    Q_PROPERTY(QStringList stageNames READ stageNames NOTIFY streamChanged)
    Q_PROPERTY(QVariantList stageRows READ stageRows NOTIFY streamChanged)
    Q_PROPERTY(double stageRange READ stageRange NOTIFY streamChanged)
    Q_PROPERTY(double changeRange READ changeRange NOTIFY streamChanged)
    // The largest |value| over every stage: the colour scale the stream view keeps throughout.
    Q_PROPERTY(double streamRange READ streamRange NOTIFY streamChanged)
    // The FFN's activations of the chosen layer.
    Q_PROPERTY(QVariantList ffnRows READ ffnRows NOTIFY ffnChanged)
    Q_PROPERTY(double ffnRange READ ffnRange NOTIFY ffnChanged)
    // The last row's top chances: {word, prob, chosen}.
    Q_PROPERTY(QVariantList nextWords READ nextWords NOTIFY nextChanged)
    // The focus row's top word with each part of the model removed (the knockout view).
    Q_PROPERTY(QVariantMap knockout READ knockout NOTIFY nextChanged)
    // The loss at every training step and the step shown (the training view).
    Q_PROPERTY(QVariantMap training READ training NOTIFY nextChanged)
    // {word, prob, costCached, costFull, keys} per generated word.
    Q_PROPERTY(QVariantList generation READ generation NOTIFY generationChanged)
    // Attention in blocks for the chosen layer, head, row and block size.
    Q_PROPERTY(int blocksHeads READ blocksHeads NOTIFY blocksChanged)
    Q_PROPERTY(QVariantMap blocks READ blocks NOTIFY blocksChanged)
    // The chosen layer's attention as an attention cell (AttentionCellModel), read-only; null
    // when that layer does not run.
    Q_PROPERTY(QObject* attention READ attention NOTIFY attentionChanged)

  public:
    // The words the next-word view lists.
    static constexpr int kNextWords = 8;

    explicit TransformerShownViews(TransformerCellModel& cell);

    int viewIndex() const { return viewIndex_; }
    void setViewIndex(int index);
    // Each choice reads as the nearest one the shown numbers have (a what-if that runs fewer
    // layers or has fewer tokens keeps the reader's choice for when they come back).
    int stage() const;
    void setStage(int stage);
    int ffnLayer() const;
    void setFfnLayer(int layer);
    int attentionLayer() const;
    void setAttentionLayer(int layer);
    int blocksLayer() const;
    void setBlocksLayer(int layer);
    int blocksHead() const;
    void setBlocksHead(int head);
    int blocksRow() const;
    void setBlocksRow(int row);
    int blockSize() const;
    void setBlockSize(int size);
    int blocksStep() const;
    void setBlocksStep(int step);

    QStringList stageNames() const;
    QVariantList stageRows() const;
    double stageRange() const;
    double changeRange() const;
    double streamRange() const;
    QVariantList ffnRows() const;
    double ffnRange() const;
    QVariantList nextWords() const;
    QVariantMap knockout() const;
    QVariantMap training() const;
    QVariantList generation() const;
    int blocksHeads() const;
    QVariantMap blocks() const;
    QObject* attention() const;

    // The cell shows new numbers: every view's change.
    void numbersChanged();

  Q_SIGNALS:
    void viewIndexChanged();
    void streamChanged();
    void ffnChanged();
    void nextChanged();
    void generationChanged();
    void blocksChanged();
    void attentionChanged();

  private:
    // `choice` clamped to [0, count − 1] (0 when count is 0).
    static int within(int choice, int count);
    int blockCount() const;
    // Sets `field` and emits `changed` when it differs.
    void choose(int& field, int value, void (TransformerShownViews::*changed)());

    TransformerCellModel& cell_;
    int viewIndex_ = 0;
    int stage_ = 0;
    int ffnLayer_ = 0;
    int attentionLayer_ = 0;
    int blocksLayer_ = 0;
    int blocksHead_ = 0;
    int blocksRow_ = -1; // the last row until the reader picks one
    int blockSize_ = 0;  // the cell's own until the reader picks one
    int blocksStep_ = 0;
};

} // namespace attnbook
