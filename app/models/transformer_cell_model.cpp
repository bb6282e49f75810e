#include "app/models/transformer_cell_model.h"

#include "core/present/shown_cell.h"

#include "app/models/attention_cell_model.h"
#include "app/models/cell_variants.h"
#include "app/models/number_text.h"
#include "core/document/cell_cost.h"
#include "core/document/setting_words.h"
#include "core/live/transformer_steps.h"
#include "exports/paint/heat_palette.h"

#include <QLocale>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace attnbook {
namespace {

// A cell whose estimate is below this many multiply-adds computes on the GUI thread (well
// under a millisecond here); a larger one on the worker, so the window never stalls.
constexpr double kInlineWork = 2e6;

} // namespace

TransformerCellModel::TransformerCellModel(const std::string& id, const TransformerCellSpec& spec,
                                           std::shared_ptr<const TransformerResult> computed,
                                           QObject* parent)
    : QObject(parent), id_(QString::fromStdString(id)), views_(toQStringList(spec.views)),
      controls_(toQStringList(spec.controls)), live_(shownSpec(spec, computed.get())),
      training_(computed ? computed->training : nullptr), result_(std::move(computed)),
      wholeInline_(transformerCost(spec.config).multiplyAdds < kInlineWork),
      steps_(wholeInline_ || transformerFirstStepWork(spec.config) < kInlineWork),
      shown_(new TransformerShownViews(*this)) {
    untrained_ = spec;
    if (spec.training) {
        trainingSpec_ = *spec.training;
    }
    lessonTraining_ = training_;
    connect(&runner_, &TrainingRunner::progressChanged, this,
            &TransformerCellModel::trainingProgressChanged);
    connect(&runner_, &TrainingRunner::finished, this, &TransformerCellModel::trainingEnded);
    if (result_) {
        changes_.remember(*this);
    }
}

TransformerCellModel::~TransformerCellModel() {
    if (watcher_) {
        watcher_->waitForFinished(); // the job reads live_'s copy only, but finish cleanly
    }
}

QStringList TransformerCellModel::vocabWords() const {
    // Built once: a reader's what-ifs never change the model's vocab (see the header).
    if (vocabWordsShown_.isEmpty()) {
        vocabWordsShown_ = toQStringList(live_.authored().vocabOrder);
    }
    return vocabWordsShown_;
}

bool TransformerCellModel::learnedPositional() const {
    return live_.authored().config.positional == PositionalKind::Learned;
}

QStringList TransformerCellModel::tokens() const {
    return toQStringList(result_->tokens);
}

QString TransformerCellModel::pick() const {
    return QString::fromStdString(pickName(live_.settings().pick));
}

QString TransformerCellModel::mask() const {
    return QString::fromStdString(maskName(live_.settings().mask));
}

QString TransformerCellModel::positional() const {
    return QString::fromStdString(positionalName(live_.settings().positional));
}

QString TransformerCellModel::gradientCheckText() const {
    if (!complete()) {
        return tr("Checking the gradients of this what-if…");
    }
    return gradientCheckLine(result_->gradcheck); // the attention cell's words
}

QString TransformerCellModel::generationRefused() const {
    return QString::fromStdString(result_->generation.refused);
}

QString TransformerCellModel::edit(const std::function<std::string(TransformerLiveCell&)>& change) {
    const TransformerSettings was = live_.settings();
    const std::string refusal = change(live_);
    if (!refusal.empty()) {
        return QString::fromStdString(refusal);
    }
    if (live_.settings() == was) {
        return {}; // nothing changed: nothing to undo or compute
    }
    recompute();
    return {};
}

QString TransformerCellModel::replaceToken(int index, const QString& word) {
    return edit([&](TransformerLiveCell& c) { return c.replaceToken(index, word.toStdString()); });
}
QString TransformerCellModel::addToken(const QString& word) {
    return edit([&](TransformerLiveCell& c) { return c.addToken(word.toStdString()); });
}
QString TransformerCellModel::removeToken(int index) {
    return edit([&](TransformerLiveCell& c) { return c.removeToken(index); });
}
QString TransformerCellModel::setLayersRun(int layers) {
    return edit([&](TransformerLiveCell& c) { return c.setLayersRun(layers); });
}
QString TransformerCellModel::setNorm(bool on) {
    return edit([&](TransformerLiveCell& c) { return c.setNorm(on); });
}
QString TransformerCellModel::setFfn(bool on) {
    return edit([&](TransformerLiveCell& c) { return c.setFeedForward(on); });
}
QString TransformerCellModel::setTemperature(double temperature) {
    return edit([&](TransformerLiveCell& c) { return c.setTemperature(temperature); });
}
QString TransformerCellModel::setGenerate(int steps, const QString& pick, int seed) {
    const PickKind kind = pickNamed(pick.toStdString()).value_or(PickKind::Greedy);
    if (seed < 0) {
        return tr("the seed is a whole number from 0");
    }
    return edit(
        [&](TransformerLiveCell& c) { return c.setGenerate(steps, kind, std::uint64_t(seed)); });
}
QString TransformerCellModel::setMask(const QString& name) {
    const MaskKind kind = maskNamed(name.toStdString()).value_or(MaskKind::Causal);
    return edit([&](TransformerLiveCell& c) { return c.setMask(kind); });
}
QString TransformerCellModel::setPositional(const QString& name) {
    const PositionalKind kind = positionalNamed(name.toStdString()).value_or(PositionalKind::None);
    return edit([&](TransformerLiveCell& c) { return c.setPositional(kind); });
}

bool TransformerCellModel::undoWhatIf() {
    if (!live_.undo()) {
        return false;
    }
    recompute();
    return true;
}

void TransformerCellModel::reset() {
    if (!edited()) {
        return;
    }
    live_.reset();
    if (training_ != lessonTraining_) {
        // Back to the lesson's own training and the step it shows.
        runner_.cancel();
        run_.reset();
        wantedStep_.reset();
        trainingSpec_ = *untrained_.training;
        if (watcher_) {
            watcher_->waitForFinished();
        }
        live_.replaceWeights(shownSpec(untrained_, lessonTraining_->weights));
        training_ = lessonTraining_;
        Q_EMIT trainingChanged();
    }
    recompute();
}

QString TransformerCellModel::keep() {
    const TransformerKeepPlan plan = live_.keepPlan();
    QStringList said;
    if (!plan.keys.empty()) {
        if (!keeper_) {
            return tr("this cell cannot be kept here");
        }
        if (const auto error = keeper_(id_.toStdString(), plan.keys)) {
            return QString::fromStdString(*error);
        }
        QStringList keys;
        for (const auto& key : plan.keys) {
            keys << QString::fromStdString(key.first);
        }
        said << tr("Kept %1 in the lesson (unsaved).").arg(keys.join(QStringLiteral(", ")));
    }
    QStringList notKept = toQStringList(plan.notKept);
    if (training_ != lessonTraining_) {
        // docs/training.md "In the window": a reader's training is the window's view.
        notKept << tr("the training on show (step %1 of %2)")
                       .arg(training_->shown)
                       .arg(trainingSpec_.steps);
    }
    if (!notKept.empty()) {
        said << tr("Not part of the lesson, so not kept: %1.")
                    .arg(notKept.join(QStringLiteral("; ")));
    }
    return said.isEmpty() ? tr("Nothing to keep.") : said.join(QLatin1Char(' '));
}

bool TransformerCellModel::weightsFileExists() const {
    return weightsKeeping_.exists && weightsKeeping_.exists(weightsFileName().toStdString());
}

QString TransformerCellModel::keepWeights(bool replace) {
    if (!training_) {
        return tr("this cell does not train (it has no train key)");
    }
    if (!weightsKeeping_.keep) {
        return tr("this cell cannot be kept here");
    }
    if (trainingRunning()) {
        return tr("wait for the training to finish, or cancel it");
    }
    // A successful keep reads the lesson again and replaces this model: nothing of it is used
    // after the call.
    return QString::fromStdString(
        weightsKeeping_.keep(id_.toStdString(), training_->weights, replace));
}

QString TransformerCellModel::trainingOptimizer() const {
    return trainingSpec_.optimizer == TrainingSpec::Optimizer::Adam ? QStringLiteral("adam")
                                                                    : QStringLiteral("sgd");
}

int TransformerCellModel::trainingSeed() const {
    return trainingSpec_.init ? int(trainingSpec_.init->seed) : 0;
}

QString TransformerCellModel::keptNote() const {
    if (!run_) {
        return {};
    }
    const TrainingWatch& watch = run_->watch;
    const QString size = QLocale::system().formattedDataSize(qint64(watch.bytesKept));
    return watch.every == 1
               ? tr("%1 steps kept for the slider (%2)").arg(watch.steps.size()).arg(size)
               : tr("%1 steps kept for the slider, every %2th (%3)")
                     .arg(watch.steps.size())
                     .arg(watch.every)
                     .arg(size);
}

QString TransformerCellModel::train(int steps, const QString& optimizer, double lr, int seed) {
    if (!trains()) {
        return tr("this cell does not train (it has no train key)");
    }
    if (!allows(QStringLiteral("train"))) {
        return tr("this cell's training is fixed by the lesson");
    }
    if (steps < 0 || steps > kMaxReaderSteps) {
        return tr("steps must be a whole number from 0 to %1").arg(kMaxReaderSteps);
    }
    if (!(lr > 0) || !std::isfinite(lr)) {
        return tr("the learning rate must be a number above 0");
    }
    if (optimizer != QLatin1String("sgd") && optimizer != QLatin1String("adam")) {
        return tr("the optimizer is sgd or adam");
    }
    if (seed < 0) {
        return tr("the seed is a whole number from 0");
    }
    TrainingSpec spec = trainingSpec_;
    spec.steps = steps;
    spec.show = steps; // a new run is shown at its end
    spec.lr = lr;
    spec.optimizer = optimizer == QLatin1String("sgd") ? TrainingSpec::Optimizer::Sgd
                                                       : TrainingSpec::Optimizer::Adam;
    if (spec.init) {
        spec.init->seed = std::uint64_t(seed);
    }
    // Charged against the limits before it starts, as compute charges it (cell_cost.h).
    CellCost work;
    work.multiplyAdds = trainingWork(untrained_.config, spec);
    if (const std::string why = costProblem(work, costLimits()); !why.empty()) {
        return tr("this training would take %1: fewer steps, please")
            .arg(QString::fromStdString(why));
    }
    wantedStep_.reset();
    trainingProblem_.clear();
    runner_.start(untrained_.config, spec, TransformerLimits{});
    Q_EMIT trainingChanged();
    return {};
}

QString TransformerCellModel::showStep(int step) {
    if (!trains()) {
        return tr("this cell does not train (it has no train key)");
    }
    if (run_) {
        const auto* kept = keptStepNear(run_->watch, step);
        if (kept && (!training_ || kept->first != training_->shown)) {
            showTrained(run_->result, kept->first, kept->second);
        }
        return {};
    }
    // The lesson's run kept only its shown step: run it once more, watched, for the others.
    wantedStep_ = step;
    if (!runner_.running()) {
        runner_.start(untrained_.config, trainingSpec_, TransformerLimits{});
    }
    return {};
}

void TransformerCellModel::trainingEnded(std::shared_ptr<const TrainingRun> run) {
    if (!run) {
        Q_EMIT trainingChanged(); // cancelled: the last run stays on show
        return;
    }
    if (!run->error.empty()) {
        trainingProblem_ = QString::fromStdString(run->error);
        Q_EMIT trainingChanged();
        return;
    }
    run_ = std::move(run);
    trainingSpec_ = run_->spec;
    const int step = wantedStep_.value_or(run_->result.shown);
    wantedStep_.reset();
    const auto* kept = keptStepNear(run_->watch, step);
    if (kept) {
        showTrained(run_->result, kept->first, kept->second);
    }
}

void TransformerCellModel::showTrained(const TrainingResult& result, int step,
                                       const TransformerConfig& weights) {
    // The run as it was, shown at `step`.
    auto shown = std::make_shared<TrainingResult>(result);
    shown->shown = step;
    shown->weights = weights;
    // The worker's jobs read configurations that alias the weights being replaced.
    if (watcher_) {
        watcher_->waitForFinished();
    }
    live_.replaceWeights(shownSpec(untrained_, shown->weights));
    training_ = std::move(shown);
    Q_EMIT trainingChanged();
    recompute();
}

void TransformerCellModel::recompute() {
    steps_.edited();
    if (!steps_.forwardInline()) {
        scheduleWorker();
        Q_EMIT updatingChanged();
        return;
    }
    static const JsonSelection all; // a small cell's whole JSON
    const TransformerConfig config = live_.config();
    accept(runTransformerStep(
        wholeInline_ ? TransformerStep::Rest : TransformerStep::Forward, steps_.serial(),
        [&] { return keptTraining(transformerInlineStep(config, wholeInline_)); },
        id_.toStdString(), quoted_ ? &all : nullptr));
    scheduleWorker(); // the rest, when it did not run here
    Q_EMIT updatingChanged();
}

void TransformerCellModel::scheduleWorker() {
    const std::optional<TransformerStep> step = steps_.nextJob();
    if (!step) {
        return; // busy (workerFinished asks again), or nothing owed
    }
    // Each job holds its configuration, whose weights alias the authored cell's (no copy of
    // them on the GUI thread): the destructor waits for the job, so they outlive it.
    auto config = std::make_shared<const TransformerConfig>(live_.config());
    if (*step == TransformerStep::Forward) {
        startJob(*step, [this, config] { return keptTraining(transformerForwardStep(*config)); });
    } else {
        startJob(*step, [this, config, forward = result_] {
            return keptTraining(transformerRestStep(*config, *forward));
        });
    }
}

// A what-if starts from the trained weights and does not train again: its result carries the
// lesson's training, so that prose quoting training.* still reads it (docs/training.md).
std::shared_ptr<TransformerResult>
TransformerCellModel::keptTraining(std::shared_ptr<TransformerResult> result) const {
    result->training = training_;
    return result;
}

void TransformerCellModel::startJob(TransformerStep step,
                                    std::function<std::shared_ptr<TransformerResult>()> work) {
    watcher_ = std::make_unique<QFutureWatcher<Outcome>>();
    connect(watcher_.get(), &QFutureWatcherBase::finished, this,
            &TransformerCellModel::workerFinished);
    watcher_->setFuture(QtConcurrent::run([step, serial = steps_.serial(), work = std::move(work),
                                           quoted = quoted_, id = id_.toStdString()] {
        return runTransformerStep(step, serial, work, id, quoted.get());
    }));
}

void TransformerCellModel::workerFinished() {
    Outcome outcome = watcher_->result();
    watcher_.reset();
    if (steps_.finished(outcome.serial)) {
        accept(std::move(outcome));
    } // else a newer edit's numbers replace these
    scheduleWorker();
    if (!updating()) {
        Q_EMIT updatingChanged();
    }
}

void TransformerCellModel::accept(Outcome outcome) {
    if (!outcome.result) {
        problem_ = QString::fromStdString(outcome.error);
        steps_.shown(outcome.step, true); // the problem is the latest settings' answer
        announce();
        shown_->numbersChanged(); // the problem's words replace the chosen word's
        return;
    }
    problem_.clear();
    (outcome.step == TransformerStep::Forward ? lastComputeMs_ : lastCompletionMs_) =
        outcome.milliseconds;
    show(std::move(outcome.result), std::move(outcome.json), outcome.step);
}

void TransformerCellModel::announce() {
    ++revision_;
    changes_.announce(*this);
    Q_EMIT recomputed();
}

void TransformerCellModel::show(std::shared_ptr<const TransformerResult> result,
                                std::shared_ptr<const Json> json, TransformerStep step) {
    std::shared_ptr<const TransformerResult> replaced = std::exchange(result_, std::move(result));
    json_ = std::move(json);
    if (steps_.shown(step, false)) {
        ++forwardRevision_; // the layers' attention views are rebuilt from the new numbers
    }
    announce();
    shown_->numbersChanged();
    // The session lets go of the replaced result in `recomputed`. A large one is freed on the
    // pool, not here: a GPT-2-sized result is over 100 MB (its gradients), and giving its pages
    // back (munmap) took the GUI thread 5–20 ms after every what-if.
    if (!wholeInline_ && replaced && replaced.use_count() == 1) {
        QThreadPool::globalInstance()->start(
            [replaced = std::move(replaced)]() mutable { replaced.reset(); });
    }
}

bool TransformerCellModel::awaits(const BindingPath& path) const {
    return !complete() && transformerPathNeedsRest(path);
}

QStringList TransformerCellModel::stageNames() const {
    QStringList names{tr("tokens + positions")};
    for (int l = 0; l < result_->layersRun; ++l) {
        names << tr("layer %1: + attention").arg(l + 1) << tr("layer %1: + FFN").arg(l + 1);
    }
    names << tr("final LayerNorm");
    return names;
}

QObject* TransformerCellModel::layerAttention(int layer) {
    if (layer < 0 || layer >= result_->layersRun) {
        return nullptr;
    }
    if (layerModelsRevision_ != forwardRevision_) {
        for (auto& [index, model] : layerModels_) {
            if (model) {
                model->deleteLater();
            }
        }
        layerModels_.clear();
        layerModelsRevision_ = forwardRevision_;
    }
    if (QPointer<AttentionCellModel>& cached = layerModels_[layer]; cached) {
        return cached;
    }
    // The layer's attention as an attention cell of its own, its result shared with this
    // cell's, not copied.
    const AttentionCellSpec spec =
        transformer_views::layerAttentionSpec(live_.config(), *result_, layer);
    const std::shared_ptr<const AttentionResult> shared(result_,
                                                        &result_->layers[size_t(layer)].attention);
    AttentionCellModel* model = AttentionCellModel::fromComputed(
        id_.toStdString() + ".layers[" + std::to_string(layer) + "]", spec, shared, false, this);
    // The layer reads the stream before it (Xˡ⁻¹, X⁰ for the first), normalized by LN₁.
    static const QString superscripts = QStringLiteral("⁰¹²³⁴⁵⁶⁷⁸⁹");
    QString index;
    for (const QChar digit : QString::number(layer)) {
        index += superscripts[digit.digitValue()];
    }
    model->setLayerInput(live_.settings().run.norm
                             ? tr("H = LN₁(X%1), the stream normalized").arg(index)
                             : tr("H = X%1, the stream (LayerNorm off)").arg(index));
    layerModels_[layer] = model;
    return model;
}

QColor TransformerCellModel::changeColour(double t, bool dark) const {
    return QColor::fromRgb(HeatPalette{dark}.change(std::clamp(t, -1.0, 1.0)));
}

QColor TransformerCellModel::shareColour(double t, bool dark) const {
    return QColor::fromRgb(HeatPalette{dark}.share(std::clamp(t, 0.0, 1.0)));
}

QColor TransformerCellModel::textOn(const QColor& background) const {
    return HeatPalette::textOn(background.rgb());
}

QString TransformerCellModel::number(double value, int digits) const {
    return displayNumber(value, digits);
}

} // namespace attnbook
