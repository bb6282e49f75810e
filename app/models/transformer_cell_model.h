#pragma once
// One transformer cell as the window shows it (transformer.md): the reader's what-ifs
// (core/live/transformer_live_cell.h) behind the controls, and the result every view reads —
// the residual stream stage by stage, the FFN's activations, the next-word chances, the
// generation with its cache and costs, attention in blocks, and each layer's attention as an
// attention cell of its own (the attention views the window already has).
//
// A what-if is shown in two steps, so the chances follow at once even where the gradients
// cannot: first the forward pass (the stream, the FFN, the chances, the loss), then the rest
// (generation, the backward pass and the gradient check), each on the GUI thread when its
// estimate is tiny, else on a worker thread, the latest edit winning, while `updating` is
// true. transformer.md's cells show the forward pass inline (0.1 ms) and check the gradients
// on the worker (40–70 ms per what-if); a GPT-2-sized cell runs both steps on the worker.
// Until the rest arrives, `complete` is false and prose that quotes it waits (LessonSession).

#include "app/models/property_changes.h"
#include "app/models/training_runner.h"
#include "app/models/transformer_shown_views.h"
#include "core/document/expression.h"
#include "core/document/json.h"
#include "core/document/result_json.h"
#include "core/live/recompute_queue.h"
#include "core/live/transformer_live_cell.h"
#include "core/live/transformer_steps.h"
#include "core/math/transformer_result.h"
#include "core/present/transformer_views.h"

#include <QColor>
#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QVariantList>
#include <QtQml/qqmlregistration.h>

#include <functional>
#include <map>
#include <memory>
#include <optional>

namespace attnbook {

class AttentionCellModel;

class TransformerCellModel : public QObject {
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("transformer cells come from a LessonSession")

    Q_PROPERTY(QString cellId READ cellId CONSTANT)
    Q_PROPERTY(QStringList views READ views CONSTANT)
    Q_PROPERTY(QStringList controls READ controls CONSTANT)
    Q_PROPERTY(QStringList vocabWords READ vocabWords CONSTANT)
    Q_PROPERTY(int layerCount READ layerCount CONSTANT)
    Q_PROPERTY(bool learnedPositional READ learnedPositional CONSTANT)
    // The properties below change with an edit or a recompute. Each group has its own signal,
    // emitted only when one of its values changed (property_changes.h); `revision` and
    // `recomputed` mark every new set of numbers.
    Q_PROPERTY(int revision READ revision NOTIFY recomputed)
    Q_PROPERTY(QStringList tokens READ tokens NOTIFY tokensChanged)
    Q_PROPERTY(int n READ n NOTIFY tokensChanged)
    Q_PROPERTY(int d READ d NOTIFY tokensChanged)
    Q_PROPERTY(int layersRun READ layersRun NOTIFY settingsChanged)
    Q_PROPERTY(bool norm READ norm NOTIFY settingsChanged)
    Q_PROPERTY(bool ffn READ ffn NOTIFY settingsChanged)
    Q_PROPERTY(double temperature READ temperature NOTIFY settingsChanged)
    Q_PROPERTY(int generateSteps READ generateSteps NOTIFY settingsChanged)
    Q_PROPERTY(QString pick READ pick NOTIFY settingsChanged)
    Q_PROPERTY(int seed READ seed NOTIFY settingsChanged)
    Q_PROPERTY(QString mask READ mask NOTIFY settingsChanged)
    Q_PROPERTY(QString positional READ positional NOTIFY settingsChanged)
    Q_PROPERTY(bool edited READ edited NOTIFY whatIfChanged)
    Q_PROPERTY(bool canUndoWhatIf READ canUndoWhatIf NOTIFY whatIfChanged)
    Q_PROPERTY(qint64 whatIfStamp READ whatIfStamp NOTIFY stampChanged)
    Q_PROPERTY(bool hasLoss READ hasLoss NOTIFY lossChanged)
    Q_PROPERTY(double loss READ loss NOTIFY lossChanged)
    Q_PROPERTY(bool gradientCheckPassed READ gradientCheckPassed NOTIFY checksChanged)
    Q_PROPERTY(QString gradientCheckText READ gradientCheckText NOTIFY checksChanged)
    // Why the settings cannot be computed (the views show the last numbers that could).
    Q_PROPERTY(QString problem READ problem NOTIFY checksChanged)
    Q_PROPERTY(QString generationRefused READ generationRefused NOTIFY checksChanged)
    Q_PROPERTY(double cacheNumbers READ cacheNumbers NOTIFY lossChanged)
    Q_PROPERTY(int blockSize READ blockSize CONSTANT)
    Q_PROPERTY(bool updating READ updating NOTIFY updatingChanged)
    // The shown numbers include generation, the gradients and the gradient check.
    Q_PROPERTY(bool complete READ complete NOTIFY checksChanged)
    // How many of the width's numbers the stream view draws per token (all when small).
    Q_PROPERTY(int shownColumns READ shownColumns NOTIFY settingsChanged)
    // What the views show: every view reads its numbers from here (transformer_shown_views.h).
    Q_PROPERTY(attnbook::TransformerShownViews* shown READ shown CONSTANT)
    // Training in the window (docs/training.md): the settings a reader may change, the step
    // every other view shows, and a run on the worker with its progress.
    Q_PROPERTY(bool trains READ trains CONSTANT)
    Q_PROPERTY(bool randomStart READ randomStart CONSTANT)
    Q_PROPERTY(int trainingSteps READ trainingSteps NOTIFY trainingChanged)
    Q_PROPERTY(QString trainingOptimizer READ trainingOptimizer NOTIFY trainingChanged)
    Q_PROPERTY(double trainingLr READ trainingLr NOTIFY trainingChanged)
    Q_PROPERTY(int trainingSeed READ trainingSeed NOTIFY trainingChanged)
    Q_PROPERTY(int shownStep READ shownStep NOTIFY trainingChanged)
    // The steps the slider offers are every `keptEvery`-th (all of them while they fit in the
    // memory the window gives them); 0 before the first watched run kept any.
    Q_PROPERTY(int keptEvery READ keptEvery NOTIFY trainingChanged)
    Q_PROPERTY(QString keptNote READ keptNote NOTIFY trainingChanged)
    Q_PROPERTY(QString trainingProblem READ trainingProblem NOTIFY trainingChanged)
    Q_PROPERTY(bool trainingRunning READ trainingRunning NOTIFY trainingProgressChanged)
    Q_PROPERTY(double trainingProgress READ trainingProgress NOTIFY trainingProgressChanged)

  public:
    using Keeper = std::function<std::optional<std::string>(
        const std::string& cellId, const std::vector<std::pair<std::string, std::string>>&)>;

    // The model of a cell that computeLesson computed: `computed` is shown until an edit.
    TransformerCellModel(const std::string& id, const TransformerCellSpec& spec,
                         std::shared_ptr<const TransformerResult> computed,
                         QObject* parent = nullptr);
    ~TransformerCellModel() override;

    QString cellId() const { return id_; }
    QStringList views() const { return views_; }
    QStringList controls() const { return controls_; }
    QStringList vocabWords() const;
    int layerCount() const { return int(live_.authored().config.layers.size()); }
    bool learnedPositional() const;
    int revision() const { return revision_; }
    QStringList tokens() const;
    int n() const { return result_->n; }
    int d() const { return result_->d; }
    int layersRun() const { return result_->layersRun; }
    bool norm() const { return live_.settings().run.norm; }
    bool ffn() const { return live_.settings().run.ffn; }
    double temperature() const { return live_.settings().temperature; }
    int generateSteps() const { return live_.settings().generateSteps; }
    QString pick() const;
    int seed() const { return int(live_.settings().seed); }
    QString mask() const;
    QString positional() const;
    bool edited() const { return live_.edited() || training_ != lessonTraining_; }
    bool canUndoWhatIf() const { return live_.canUndo(); }
    qint64 whatIfStamp() const { return live_.latestStamp(); }
    bool hasLoss() const { return result_->loss.has_value(); }
    double loss() const { return result_->loss.value_or(0.0); }
    bool gradientCheckPassed() const { return result_->gradcheck.passed(); }
    QString gradientCheckText() const;
    QString problem() const { return problem_; }
    QString generationRefused() const;
    double cacheNumbers() const { return result_->generation.cacheNumbers; }
    int blockSize() const { return live_.authored().blockSize; }
    bool updating() const { return steps_.updating(); }
    // The forward pass of the latest settings is on screen (the chances follow the edit).
    bool chancesCurrent() const { return steps_.chancesCurrent(); }
    bool complete() const { return steps_.complete(); }
    // Whether prose reading `path` of this cell waits for the rest of the computation: the
    // paths under grad, gradcheck and generation while `complete` is false.
    bool awaits(const BindingPath& path) const;
    int shownColumns() const { return std::min(result_->d, transformer_views::kShownColumns); }

    // Edits: "" when applied, else why refused (nothing changed).
    Q_INVOKABLE QString replaceToken(int index, const QString& word);
    Q_INVOKABLE QString addToken(const QString& word);
    Q_INVOKABLE QString removeToken(int index);
    Q_INVOKABLE QString setLayersRun(int layers);
    Q_INVOKABLE QString setNorm(bool on);
    Q_INVOKABLE QString setFfn(bool on);
    Q_INVOKABLE QString setTemperature(double temperature);
    Q_INVOKABLE QString setGenerate(int steps, const QString& pick, int seed);
    Q_INVOKABLE QString setMask(const QString& mask);
    Q_INVOKABLE QString setPositional(const QString& positional);
    Q_INVOKABLE bool allows(const QString& control) const { return controls_.contains(control); }
    // One drag of a slider or a held spin button is one Undo step (TransformerLiveCell).
    Q_INVOKABLE void beginGesture() { live_.beginGesture(); }
    Q_INVOKABLE void endGesture() { live_.endGesture(); }
    Q_INVOKABLE bool undoWhatIf();
    Q_INVOKABLE void reset();
    // Writes the settings that are part of the lesson into it (an unsaved change); returns
    // what was kept and what is only the reader's view, or why not.
    Q_INVOKABLE QString keep();
    // Keep on a cell that trains (docs/training.md, "Keep"): the weights of the step on show go
    // into weightsFileName() beside the lesson, and the cell reads them from there and trains
    // no more (one Undo step). An existing file is replaced only when `replace`. "" when kept
    // (the lesson is read again, this model with it), else why not.
    Q_INVOKABLE QString keepWeights(bool replace);
    Q_INVOKABLE QString weightsFileName() const { return id_ + QStringLiteral(".safetensors"); }
    Q_INVOKABLE bool weightsFileExists() const;
    struct WeightsKeeping {
        std::function<bool(const std::string& fileName)> exists;
        std::function<std::string(const std::string& cellId, const TransformerConfig& shown,
                                  bool replace)>
            keep;
    };
    void setWeightsKeeping(WeightsKeeping keeping) { weightsKeeping_ = std::move(keeping); }

    bool trains() const { return untrained_.training.has_value(); }
    bool randomStart() const { return trains() && untrained_.training->init.has_value(); }
    int trainingSteps() const { return trainingSpec_.steps; }
    QString trainingOptimizer() const;
    double trainingLr() const { return trainingSpec_.lr; }
    int trainingSeed() const;
    int shownStep() const { return training_ ? training_->shown : 0; }
    int keptEvery() const { return run_ ? run_->watch.every : 0; }
    QString keptNote() const;
    QString trainingProblem() const { return trainingProblem_; }
    bool trainingRunning() const { return runner_.running(); }
    double trainingProgress() const { return runner_.progress(); }
    // Trains again with these settings on the worker (the latest call wins); "" when started,
    // else why not (nothing changed).
    Q_INVOKABLE QString train(int steps, const QString& optimizer, double lr, int seed);
    Q_INVOKABLE void cancelTraining() { runner_.cancel(); }
    // Every other view shows the model after `step` steps: at once from the kept steps (the
    // nearest one kept), or after one watched run that keeps them.
    Q_INVOKABLE QString showStep(int step);
    // Blocks until no training run is going (tests).
    void waitForTraining() { runner_.waitForFinished(); }
    // The most steps a reader may ask for (the limits charge the work too).
    static constexpr int kMaxReaderSteps = 5000;

    // The views' numbers and the reader's choices among them (each a property that says when
    // it changes).
    TransformerShownViews* shown() const { return shown_; }
    // "tokens + positions", "layer 1: + attention", "layer 1: + FFN", …, "final LayerNorm".
    QStringList stageNames() const;
    // Layer `layer`'s attention as an attention cell (read-only), rebuilt after new forward
    // numbers; nullptr outside the layers run.
    QObject* layerAttention(int layer);
    // The configuration of the reader's settings (its weights alias the authored cell's).
    TransformerConfig liveConfig() const { return live_.config(); }
    // A sampled draw of the latest settings is still to come: no word is marked as picked.
    bool sampledDrawComing() const {
        return !complete() && live_.settings().pick == PickKind::Sample;
    }
    // A diverging colour for t in [−1, 1] and a sequential one for t in [0, 1], from the
    // heatmaps' palette (exports/paint/heat_palette.h).
    Q_INVOKABLE QColor changeColour(double t, bool dark) const;
    Q_INVOKABLE QColor shareColour(double t, bool dark) const;
    Q_INVOKABLE QColor textOn(const QColor& background) const;
    Q_INVOKABLE QString number(double value, int digits) const;

    std::shared_ptr<const TransformerResult> sharedResult() const { return result_; }
    // Prose quotes the cell through `paths`: each recompute also builds its JSON (resultJson),
    // on the worker for a large cell, of a large one only what these paths read.
    void setQuoted(std::shared_ptr<const JsonSelection> paths) { quoted_ = std::move(paths); }
    std::shared_ptr<const Json> resultJson() const { return json_; }
    const TransformerResult& result() const { return *result_; }
    // The cell's training as the lesson computed it (a reader's what-ifs keep its weights and
    // do not train again); nullptr for a cell that does not train.
    const TrainingResult* training() const { return training_.get(); }
    void setKeeper(Keeper keeper) { keeper_ = std::move(keeper); }
    // Milliseconds the latest forward step and the latest rest step took.
    double lastComputeMilliseconds() const { return lastComputeMs_; }
    double lastCompletionMilliseconds() const { return lastCompletionMs_; }

  Q_SIGNALS:
    // New numbers are shown (the forward step's, or the rest's).
    void recomputed();
    void tokensChanged();
    void settingsChanged();
    void whatIfChanged();
    void checksChanged();
    void stampChanged();
    void lossChanged();
    void updatingChanged();
    void trainingChanged();
    void trainingProgressChanged();

  private:
    // Tells the views: the changed groups' signals, then `recomputed`.
    void announce();
    // A training run ended (null: cancelled or superseded).
    void trainingEnded(std::shared_ptr<const TrainingRun> run);
    // Every view shows `weights` (a step of `result`'s training) from now on.
    void showTrained(const TrainingResult& result, int step, const TransformerConfig& weights);
    using Outcome = TransformerOutcome; // one step of a recompute (see the class comment)

    QString edit(const std::function<std::string(TransformerLiveCell&)>& change);
    std::shared_ptr<TransformerResult>
    keptTraining(std::shared_ptr<TransformerResult> result) const;
    void recompute();
    // Starts the next job the worker owes, if it is free: the forward step of the latest
    // settings, else the rest of the shown forward result.
    void scheduleWorker();
    // Runs `work` (a step) on the worker for the current settings, timed, with the JSON of
    // the quoted paths; a refusal becomes the outcome's error.
    void startJob(TransformerStep step, std::function<std::shared_ptr<TransformerResult>()> work);
    void workerFinished();
    void accept(Outcome outcome);
    void show(std::shared_ptr<const TransformerResult> result, std::shared_ptr<const Json> json,
              TransformerStep step);

    QString id_;
    QStringList views_, controls_;
    TransformerLiveCell live_;
    // The vocab's words as QML reads them. QML reads a list property again for every element
    // it takes, so building it on each read made a combo box of V words cost V²; the model's
    // vocab is the lesson's (no what-if changes it), built on the first read.
    mutable QStringList vocabWordsShown_;
    std::shared_ptr<const TrainingResult> training_;
    std::shared_ptr<const TransformerResult> result_;
    QString problem_;
    int revision_ = 0;
    // What QML last heard of each group of properties (see the Q_PROPERTYs).
    PropertyChanges changes_{staticMetaObject,
                             {"tokensChanged", "settingsChanged", "whatIfChanged", "stampChanged",
                              "lossChanged", "checksChanged"}};
    int forwardRevision_ = 0; // bumped when new forward numbers are shown
    Keeper keeper_;
    WeightsKeeping weightsKeeping_;
    double lastComputeMs_ = 0.0, lastCompletionMs_ = 0.0;
    bool wholeInline_ = true; // both steps at once on the GUI thread
    // Which step the worker computes next, and which outcome is still wanted (the forward
    // step with generation runs on the GUI thread when steps_.forwardInline()).
    TransformerStepQueue steps_;
    std::unique_ptr<QFutureWatcher<Outcome>> watcher_; // the worker: one job at a time
    std::shared_ptr<const JsonSelection> quoted_;
    // Training: the cell as the lesson wrote it (before any training), the spec of the run
    // shown, the lesson's own training (Reset goes back to it), the latest watched run, a step
    // the reader asked for before any run had kept steps, and the runner.
    TransformerCellSpec untrained_;
    TrainingSpec trainingSpec_;
    std::shared_ptr<const TrainingResult> lessonTraining_;
    std::shared_ptr<const TrainingRun> run_;
    std::optional<int> wantedStep_;
    QString trainingProblem_;
    TrainingRunner runner_;
    std::shared_ptr<const Json> json_;
    TransformerShownViews* shown_; // a child of this model
    std::map<int, QPointer<AttentionCellModel>> layerModels_;
    int layerModelsRevision_ = -1;
};

} // namespace attnbook
