#pragma once
// One attention cell as the window shows it: an AttentionLiveCell (the authored cell, the
// reader's what-ifs and their undo, core/live/attention_live_cell.h) adapted to QML, and the
// result the views read. Each edit is checked, and refused or applied, by the live cell at
// once, which says what it changed; its numbers are computed by one route, its
// AttentionRecomputeRunner's: inline for a cell whose estimated cost is tiny, else on a worker
// thread, the latest edit winning, while `updating` is true.

#include "app/models/attention_recompute_runner.h"
#include "app/models/property_changes.h"
#include "core/document/editable_attention.h"
#include "core/live/attention_live_cell.h"
#include "core/live/attention_recompute.h"
#include "core/math/attention_engine.h"
#include "core/math/shares_shown.h"

#include <QObject>
#include <QStringList>
#include <QVariantList>
#include <QtQml/qqmlregistration.h>

#include <functional>
#include <memory>

namespace attnbook {

struct AttentionCellSpec;

class AttentionCellModel : public QObject {
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("attention cells come from a LessonSession")

    Q_PROPERTY(QString cellId READ cellId CONSTANT)
    Q_PROPERTY(int maxSharesShown READ maxSharesShown CONSTANT)
    Q_PROPERTY(QStringList views READ views CONSTANT)
    Q_PROPERTY(QStringList controls READ controls CONSTANT)
    Q_PROPERTY(bool direct READ direct CONSTANT)
    // A transformer layer's attention: what its input is ("H = LN₁(X⁰)"), or "" for a cell of
    // the lesson's own. Its input is not token vectors, and it has no positions of its own.
    Q_PROPERTY(QString layerInput READ layerInput CONSTANT)
    Q_PROPERTY(bool usesVocab READ usesVocab CONSTANT)
    Q_PROPERTY(QStringList vocabWords READ vocabWords CONSTANT)
    // The properties below change with an edit or a recompute. Each group has its own signal,
    // emitted only when one of its values changed (property_changes.h); `revision` and
    // `recomputed` mark every new set of numbers.
    Q_PROPERTY(int revision READ revision NOTIFY recomputed)
    Q_PROPERTY(int n READ n NOTIFY shapeChanged)
    Q_PROPERTY(int m READ m NOTIFY shapeChanged)
    Q_PROPERTY(int d READ d NOTIFY shapeChanged)
    Q_PROPERTY(int heads READ heads NOTIFY shapeChanged)
    Q_PROPERTY(int dK READ dK NOTIFY shapeChanged)
    Q_PROPERTY(int dV READ dV NOTIFY shapeChanged)
    Q_PROPERTY(int dO READ dO NOTIFY shapeChanged)
    Q_PROPERTY(QStringList tokens READ tokens NOTIFY tokensChanged)
    Q_PROPERTY(QStringList keyLabels READ keyLabels NOTIFY tokensChanged)
    Q_PROPERTY(QStringList queryLabels READ queryLabels NOTIFY tokensChanged)
    Q_PROPERTY(QVariantList allowedHeads READ allowedHeads NOTIFY shapeChanged)
    Q_PROPERTY(QString mask READ mask NOTIFY settingsChanged)
    Q_PROPERTY(QVariantList padding READ padding NOTIFY tokensChanged)
    Q_PROPERTY(QString positional READ positional NOTIFY settingsChanged)
    Q_PROPERTY(bool hasLearnedPositional READ hasLearnedPositional CONSTANT)
    Q_PROPERTY(QString scaleMode READ scaleMode NOTIFY settingsChanged)
    Q_PROPERTY(double scaleDivisor READ scaleDivisor NOTIFY settingsChanged)
    Q_PROPERTY(double scale READ scale NOTIFY settingsChanged)
    Q_PROPERTY(int focus READ focus NOTIFY settingsChanged)
    Q_PROPERTY(bool edited READ edited NOTIFY whatIfChanged)
    // A what-if to take back (Undo on the cell, or Ctrl+Z), and when it was
    // made: a number that grows with every what-if in any cell, so the
    // window can undo the latest one of all.
    Q_PROPERTY(bool canUndoWhatIf READ canUndoWhatIf NOTIFY whatIfChanged)
    Q_PROPERTY(qint64 whatIfStamp READ whatIfStamp NOTIFY stampChanged)
    Q_PROPERTY(bool compareAvailable READ compareAvailable NOTIFY compareChanged)
    Q_PROPERTY(QString compareNote READ compareNote NOTIFY compareChanged)
    // The largest |change| of any weight against the authored cell.
    Q_PROPERTY(double changeRange READ changeRange NOTIFY colourScaleChanged)
    // The largest share of any head: the top of a stretched colour scale.
    Q_PROPERTY(double largestShare READ largestShare NOTIFY colourScaleChanged)
    Q_PROPERTY(bool rowCheckPassed READ rowCheckPassed NOTIFY checksChanged)
    Q_PROPERTY(QString rowCheck READ rowCheck NOTIFY checksChanged)
    Q_PROPERTY(QStringList warnings READ warnings NOTIFY checksChanged)
    // The gradient check (attention.md), as core/math/gradient_check computed it.
    Q_PROPERTY(bool gradientChecked READ gradientChecked NOTIFY checksChanged)
    Q_PROPERTY(bool gradientCheckPassed READ gradientCheckPassed NOTIFY checksChanged)
    Q_PROPERTY(double maxRelError READ maxRelError NOTIFY checksChanged)
    Q_PROPERTY(QString gradientCheckText READ gradientCheckText NOTIFY checksChanged)
    Q_PROPERTY(QStringList gradientNames READ gradientNames CONSTANT)
    // An edit's numbers are being computed: what the views show is the last complete result.
    Q_PROPERTY(bool updating READ updating NOTIFY updatingChanged)
    // The worked views: the reader's choices and what they show, as properties whose change
    // signals fire on every recompute and on every choice, so that a binding reading them
    // follows both. The choices live here, not in the views, so a card rebuilt after it
    // scrolled away shows the same head and step.
    Q_PROPERTY(
        int arithmeticHead READ arithmeticHead WRITE setArithmeticHead NOTIFY arithmeticChanged)
    Q_PROPERTY(QVariantList arithmeticSteps READ arithmeticSteps NOTIFY arithmeticChanged)
    Q_PROPERTY(int traceHead READ traceHead WRITE setTraceHead NOTIFY traceChanged)
    Q_PROPERTY(int traceStep READ traceStep WRITE setTraceStep NOTIFY traceChanged)
    Q_PROPERTY(QVariantList traceSteps READ traceSteps NOTIFY traceChanged)

  public:
    // Writes the changed keys into the document; returns why not, or nullopt.
    using Keeper = std::function<std::optional<std::string>(
        const std::string& cellId, const std::vector<std::pair<std::string, std::string>>&)>;

    // The model of a cell as the lesson wrote it, or nullptr with `error`
    // set when the authored cell cannot be computed. Cells that show their
    // gradients, or whose gradients prose quotes, also run the backward pass.
    static AttentionCellModel* create(const std::string& id, const AttentionCellSpec& spec,
                                      bool needsGradients, ConfigError& error,
                                      QObject* parent = nullptr);
    // The model of a cell that computeLesson computed (the one route every view shares):
    // `computed` is shown as it is until an edit recomputes the cell.
    static AttentionCellModel* fromComputed(const std::string& id, const AttentionCellSpec& spec,
                                            std::shared_ptr<const AttentionResult> computed,
                                            bool needsGradients, QObject* parent = nullptr);
    ~AttentionCellModel() override;

    QString cellId() const { return id_; }
    QStringList views() const { return views_; }
    QStringList controls() const { return controls_; }
    bool direct() const { return state().config.direct; }
    QString layerInput() const { return layerInput_; }
    // Set once, by the transformer cell that made this model, before QML reads it.
    void setLayerInput(const QString& input) { layerInput_ = input; }
    bool usesVocab() const { return state().usesVocab(); }
    QStringList vocabWords() const;
    int revision() const { return revision_; }
    int n() const { return result_->n; }
    int m() const { return result_->m; }
    int d() const { return result_->d; }
    int heads() const { return result_->h; }
    int dK() const { return result_->dK; }
    int dV() const { return result_->dV; }
    int dO() const { return result_->dO; }
    QStringList tokens() const;
    QStringList keyLabels() const;
    QStringList queryLabels() const;
    QVariantList allowedHeads() const;
    QString mask() const;
    QVariantList padding() const;
    QString positional() const;
    bool hasLearnedPositional() const { return hasLearned_; }
    QString scaleMode() const;
    double scaleDivisor() const { return state().config.scaleDivisor; }
    double scale() const { return result_->scale; }
    int focus() const { return state().config.focus; }
    bool edited() const;
    bool compareAvailable() const;
    QString compareNote() const;
    double changeRange() const;
    double largestShare() const { return rowCheck_.largestShare; }
    bool rowCheckPassed() const { return rowCheck_.passed; }
    QString rowCheck() const { return QString::fromStdString(rowCheck_.text); }
    QStringList warnings() const;
    bool gradientChecked() const { return result_->gradcheck.ran; }
    bool gradientCheckPassed() const { return result_->gradcheck.passed(); }
    double maxRelError() const { return result_->gradcheck.maxRelError; }
    // One sentence: the error, the worst entry, how many entries; or why it did not run.
    QString gradientCheckText() const;
    QStringList gradientNames() const;
    bool updating() const { return runner_.updating(); }

    // Edits. Each returns "" when applied, else the reason it was refused
    // (and then nothing changed).
    Q_INVOKABLE QString setHeads(int heads);
    Q_INVOKABLE QString setMask(const QString& mask);
    Q_INVOKABLE QString setPadding(int key, bool padded);
    Q_INVOKABLE QString setPositional(const QString& kind);
    Q_INVOKABLE QString setScale(const QString& mode, const QString& divisorText = {});
    Q_INVOKABLE QString setFocus(int row);
    Q_INVOKABLE QString addToken(const QString& label);
    Q_INVOKABLE QString removeToken(int index);
    Q_INVOKABLE QString renameToken(int index, const QString& label);
    Q_INVOKABLE QString moveToken(int from, int to);
    Q_INVOKABLE QString setMatrixEntry(const QString& matrix, int row, int column,
                                       const QString& text);
    Q_INVOKABLE QString setIdentity(const QString& matrix);
    Q_INVOKABLE QString setZero(const QString& matrix);
    Q_INVOKABLE bool isEditable(const QString& matrix) const;
    Q_INVOKABLE bool allows(const QString& control) const { return controls_.contains(control); }
    // Takes back the latest what-if; false when there is none.
    Q_INVOKABLE bool undoWhatIf();
    bool canUndoWhatIf() const { return live_.canUndo(); }
    qint64 whatIfStamp() const { return live_.latestStamp(); }
    // Back to the cell as the lesson wrote it.
    Q_INVOKABLE void reset();
    // Makes the edits part of the document (an unsaved change).
    Q_INVOKABLE QString keep();

    // What the views read for the focus row, generated from the live numbers.
    QVariantList arithmetic(int head, int digits) const;
    QVariantList trace(int head, int digits) const;
    // Each chosen head reads as the nearest head the cell has (a what-if with fewer heads
    // keeps the reader's choice for when they come back); the step as the nearest step.
    int arithmeticHead() const;
    void setArithmeticHead(int head);
    QVariantList arithmeticSteps() const { return arithmetic(arithmeticHead(), kWorkedDigits); }
    int traceHead() const;
    void setTraceHead(int head);
    int traceStep() const;
    void setTraceStep(int step);
    QVariantList traceSteps() const { return trace(traceHead(), kWorkedDigits); }
    Q_INVOKABLE QVariantList focusShares(int head) const;
    // The keys the shares view shows for the focus row (core/math/shares_shown.h: the paper's).
    Q_INVOKABLE QVariantList shownKeys() const;
    int maxSharesShown() const { return kMaxSharesShown; }
    Q_INVOKABLE double weight(int head, int row, int column) const;
    Q_INVOKABLE double outputAt(int row, int column) const;

    const AttentionResult& result() const { return *result_; }
    const AttentionResult& authoredResult() const { return *authoredResult_; }
    const EditableAttention& state() const { return live_.state(); }
    std::shared_ptr<const AttentionResult> sharedResult() const { return result_; }
    // The cell's JSON as the last recompute built it for the prose that quotes it
    // (setQuoted), or nullptr.
    std::shared_ptr<const Json> resultJson() const { return json_; }
    // The input matrix named as the window names it (identity spelled out).
    arma::mat inputMatrix(const std::string& name) const;

    void setKeeper(Keeper keeper) { keeper_ = std::move(keeper); }
    // Cells whose gradients prose quotes also run the backward pass.
    void setNeedsGradients(bool needed);
    // Prose quotes the cell through `paths`: each recompute also builds its JSON
    // (resultJson), of a large cell only the part these paths read.
    void setQuoted(std::shared_ptr<const JsonSelection> paths) {
        runner_.setQuoted(std::move(paths));
    }
    // Milliseconds the last recompute took (for the benchmark).
    double lastComputeMilliseconds() const { return lastComputeMs_; }
    // Whether a recompute of this cell runs inline on the calling thread (its estimated cost
    // is tiny, as for every shipped lesson's cells), rather than on the worker.
    bool computesInline() const { return runner_.computesInline(); }

  Q_SIGNALS:
    // New numbers (or the same numbers for a new focus row) are shown.
    void recomputed();
    void shapeChanged();
    void tokensChanged();
    void settingsChanged();
    void whatIfChanged();
    void checksChanged();
    void stampChanged();
    void compareChanged();
    void colourScaleChanged();
    void updatingChanged();
    void arithmeticChanged();
    void traceChanged();
    // An edit accepted at once was refused when the worker computed it (its numbers
    // overflow): the cell is back at the last state that computed.
    void refused(const QString& reason);

  private:
    AttentionCellModel(const std::string& id, const AttentionCellSpec& spec, QObject* parent);
    // The one way an edit of the live cell lands in the window: refused, or recomputed.
    QString land(const LiveEdit& edit);
    // The one route of every recompute (the runner's): inline, returning why the state cannot
    // be computed, or on the worker.
    std::optional<ConfigError> recomputeAfter(const CellChange& change) {
        return runner_.recomputeAfter(change);
    }
    // Swaps a computed result in, then tells the views.
    void show(RecomputeOutcome outcome);
    // A change that needs no compute (the focus): the views redraw.
    void showUnchangedNumbers();
    // Tells the views: the changed groups' signals, then `recomputed`.
    void announce();

    QString id_;
    QStringList views_;
    QStringList controls_;
    bool hasLearned_ = false;
    AttentionLiveCell live_;
    // Results are never changed once shown (views, the session and jobs read them): each
    // recompute fills a buffer nobody else holds, and the one it replaces is reused.
    std::shared_ptr<const AttentionResult> result_;
    std::shared_ptr<const AttentionResult> authoredResult_;
    std::shared_ptr<const Json> json_;
    Keeper keeper_;
    int revision_ = 0;
    // What QML last heard of each group of properties (see the Q_PROPERTYs).
    PropertyChanges changes_{staticMetaObject,
                             {"shapeChanged", "tokensChanged", "settingsChanged", "whatIfChanged",
                              "stampChanged", "compareChanged", "checksChanged",
                              "colourScaleChanged"}};
    // The vocab's words as QML reads them. QML reads a list property again for every element
    // it takes, so building it on each read made a combo box of V words cost V² (10,000 words:
    // a minute); built once per revision, each read is a shared copy.
    mutable QStringList vocabWordsShown_;
    mutable int vocabWordsRevision_ = -1;
    RowCheck rowCheck_;
    bool editedBesidesFocus_ = false; // the focus is compared at once (edited())
    std::vector<int> allowedHeads_;
    double lastComputeMs_ = 0.0;
    // Computes each change, inline or on the worker (after live_ and result_, which it reads).
    AttentionRecomputeRunner runner_;
    QString layerInput_;                    // see layerInput
    static constexpr int kWorkedDigits = 4; // the worked views' decimals
    int arithmeticHead_ = 0;
    int traceHead_ = 0;
    int traceStep_ = 0;
};

} // namespace attnbook
