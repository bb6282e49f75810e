#include "app/models/transformer_cell_model.h"

#include "app/models/attention_cell_model.h"
#include "app/models/number_text.h"
#include "core/document/cell_cost.h"
#include "core/live/control_names.h"
#include "core/math/blockwise_attention.h"
#include "core/math/transformer_engine.h"
#include "core/math/transformer_stages.h"
#include "exports/heat_palette.h"

#include <QElapsedTimer>
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

QStringList toQStringList(const std::vector<std::string>& items) {
    QStringList out;
    for (const std::string& item : items) {
        out << QString::fromStdString(item);
    }
    return out;
}

// Row `row` of `m`, its first `columns` numbers at most.
QVariantList rowValues(const arma::mat& m, arma::uword row,
                       arma::uword columns = std::numeric_limits<arma::uword>::max()) {
    QVariantList values;
    for (arma::uword c = 0; c < m.n_cols && c < columns; ++c) {
        values << m(row, c);
    }
    return values;
}

double largestMagnitude(const arma::mat& m) {
    return m.is_empty() ? 0.0 : arma::abs(m).max();
}

} // namespace

TransformerCellModel::TransformerCellModel(const std::string& id, const TransformerCellSpec& spec,
                                           std::shared_ptr<const TransformerResult> computed,
                                           QObject* parent)
    : QObject(parent), id_(QString::fromStdString(id)), views_(toQStringList(spec.views)),
      controls_(toQStringList(spec.controls)), live_(spec), result_(std::move(computed)) {
    wholeInline_ = transformerCost(spec.config).multiplyAdds < kInlineWork;
    forwardInline_ = wholeInline_ || transformerFirstStepWork(spec.config) < kInlineWork;
}

TransformerCellModel::~TransformerCellModel() {
    if (watcher_) {
        watcher_->waitForFinished(); // the job reads live_'s copy only, but finish cleanly
    }
}

QStringList TransformerCellModel::vocabWords() const {
    return toQStringList(live_.authored().vocabOrder);
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
    // The attention cell's words and the paper's (gradientCheckSentences).
    QStringList lines;
    for (const std::string& line : gradientCheckSentences(result_->gradcheck, true)) {
        lines << QString::fromStdString(line);
    }
    return lines.join(QLatin1Char(' '));
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
    if (!live_.edited()) {
        return;
    }
    live_.reset();
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
    if (!plan.notKept.empty()) {
        said << tr("Not part of the lesson, so not kept: %1.")
                    .arg(toQStringList(plan.notKept).join(QStringLiteral("; ")));
    }
    return said.isEmpty() ? tr("Nothing to keep.") : said.join(QLatin1Char(' '));
}

void TransformerCellModel::recompute() {
    ++serial_;
    if (!forwardInline_) {
        forwardWanted_ = true;
        scheduleWorker();
        Q_EMIT updatingChanged();
        return;
    }
    QElapsedTimer timer;
    timer.start();
    Outcome outcome;
    outcome.serial = serial_;
    try {
        const TransformerConfig config = live_.config();
        TransformerEngine engine;
        auto result = std::make_shared<TransformerResult>();
        engine.forward(config, *result);
        engine.generate(config, *result);
        if (wholeInline_) {
            engine.backward(config, *result);
            outcome.step = Step::Rest;
        }
        if (quoted_) {
            outcome.json =
                std::make_shared<const Json>(transformerJson(id_.toStdString(), *result));
        }
        outcome.result = std::move(result);
    } catch (const InvalidConfig& e) {
        outcome.error = e.error().message;
    }
    outcome.milliseconds = double(timer.nsecsElapsed()) / 1e6;
    accept(std::move(outcome));
    scheduleWorker(); // the rest, when it did not run here
    Q_EMIT updatingChanged();
}

void TransformerCellModel::scheduleWorker() {
    if (watcher_) {
        return; // workerFinished asks again
    }
    // Each job holds its configuration, whose weights alias the authored cell's (no copy of
    // them on the GUI thread): the destructor waits for the job, so they outlive it.
    auto config = std::make_shared<const TransformerConfig>(live_.config());
    if (forwardWanted_) {
        forwardWanted_ = false;
        startJob(Step::Forward, [config] {
            auto result = std::make_shared<TransformerResult>();
            TransformerEngine().forward(*config, *result);
            return result;
        });
    } else if (!shownComplete_ && shownSerial_ == serial_ && problem_.isEmpty()) {
        startJob(Step::Rest, [config, forward = result_] {
            // The forward numbers are copied (a few MB at GPT-2's size; the gradients, the
            // bulk, are not there yet): the shown result stays as it is.
            auto result = std::make_shared<TransformerResult>(*forward);
            TransformerEngine engine;
            if (!result->generation.ran && result->generation.refused.empty()) {
                engine.generate(*config, *result);
            }
            engine.backward(*config, *result);
            return result;
        });
    }
}

void TransformerCellModel::startJob(Step step,
                                    std::function<std::shared_ptr<TransformerResult>()> work) {
    // Only what the quoting paths read: the whole JSON of a large cell costs more than
    // computing it.
    const auto json = [quoted = quoted_, id = id_.toStdString()](const TransformerResult& r) {
        return quoted ? std::make_shared<const Json>(
                            transformerJson(id, r, quoted->empty() ? nullptr : quoted.get()))
                      : nullptr;
    };
    watcher_ = std::make_unique<QFutureWatcher<Outcome>>();
    connect(watcher_.get(), &QFutureWatcherBase::finished, this,
            &TransformerCellModel::workerFinished);
    watcher_->setFuture(QtConcurrent::run([step, serial = serial_, work = std::move(work), json]() {
        QElapsedTimer timer;
        timer.start();
        Outcome outcome;
        outcome.step = step;
        outcome.serial = serial;
        try {
            std::shared_ptr<TransformerResult> result = work();
            outcome.json = json(*result);
            outcome.result = std::move(result);
        } catch (const InvalidConfig& e) {
            outcome.error = e.error().message;
        } catch (const std::bad_alloc&) {
            outcome.error = "not enough memory to compute this cell";
        }
        outcome.milliseconds = double(timer.nsecsElapsed()) / 1e6;
        return outcome;
    }));
}

void TransformerCellModel::workerFinished() {
    Outcome outcome = watcher_->result();
    watcher_.reset();
    if (outcome.serial == serial_) {
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
        shownSerial_ = outcome.serial; // the problem is the latest settings' answer
        shownComplete_ = true;
        ++revision_;
        Q_EMIT recomputed();
        return;
    }
    problem_.clear();
    (outcome.step == Step::Forward ? lastComputeMs_ : lastCompletionMs_) = outcome.milliseconds;
    show(std::move(outcome.result), std::move(outcome.json), outcome.step);
}

void TransformerCellModel::show(std::shared_ptr<const TransformerResult> result,
                                std::shared_ptr<const Json> json, Step step) {
    const bool newForward = step == Step::Forward || shownSerial_ != serial_;
    std::shared_ptr<const TransformerResult> replaced = std::exchange(result_, std::move(result));
    json_ = std::move(json);
    shownSerial_ = serial_;
    shownComplete_ = step == Step::Rest;
    if (newForward) {
        ++forwardRevision_; // the layers' attention views are rebuilt from the new numbers
    }
    ++revision_;
    Q_EMIT recomputed();
    // The session lets go of the replaced result in `recomputed`. A large one is freed on the
    // pool, not here: a GPT-2-sized result is over 100 MB (its gradients), and giving its pages
    // back (munmap) took the GUI thread 5–20 ms after every what-if.
    if (!wholeInline_ && replaced && replaced.use_count() == 1) {
        QThreadPool::globalInstance()->start(
            [replaced = std::move(replaced)]() mutable { replaced.reset(); });
    }
}

bool TransformerCellModel::awaits(const BindingPath& path) const {
    if (complete() || path.steps.empty()) {
        return false;
    }
    const auto* first = std::get_if<std::string>(&path.steps[0]);
    return first && (*first == "grad" || *first == "gradcheck" || *first == "generation");
}

QStringList TransformerCellModel::stageNames() const {
    QStringList names{tr("tokens + positions")};
    for (int l = 0; l < result_->layersRun; ++l) {
        names << tr("layer %1: + attention").arg(l + 1) << tr("layer %1: + FFN").arg(l + 1);
    }
    names << tr("final LayerNorm");
    return names;
}

const arma::mat& TransformerCellModel::stageMatrix(int stage) const {
    const int layers = result_->layersRun;
    if (stage <= 0) {
        return result_->X;
    }
    if (stage > 2 * layers) {
        return result_->finalLn.out;
    }
    const TransformerLayerResult& layer = result_->layers[size_t((stage - 1) / 2)];
    return (stage - 1) % 2 == 0 ? layer.resid1 : layer.resid2;
}

QVariantList TransformerCellModel::stageRows(int stage) const {
    const arma::mat& now = stageMatrix(stage);
    const arma::mat* before = stage > 0 ? &stageMatrix(stage - 1) : nullptr;
    QVariantList rows;
    const arma::uword columns = arma::uword(kShownColumns);
    for (arma::uword r = 0; r < now.n_rows && r < arma::uword(kShownRows); ++r) {
        QVariantMap row;
        row[QStringLiteral("label")] = r < result_->tokens.size()
                                           ? QString::fromStdString(result_->tokens[r])
                                           : QString::number(r);
        row[QStringLiteral("values")] = rowValues(now, r, columns);
        row[QStringLiteral("norm")] = arma::norm(now.row(r));
        if (before) {
            const arma::rowvec change = now.row(r) - before->row(r); // (d) what the stage added
            QVariantList changes;
            for (arma::uword c = 0; c < change.n_elem && c < columns; ++c) {
                changes << change(c);
            }
            row[QStringLiteral("change")] = changes;
            row[QStringLiteral("changeNorm")] = arma::norm(change);
        }
        rows << row;
    }
    return rows;
}

double TransformerCellModel::stageRange(int stage) const {
    return largestMagnitude(stageMatrix(stage));
}

double TransformerCellModel::changeRange(int stage) const {
    if (stage <= 0) {
        return 0.0;
    }
    return largestMagnitude(stageMatrix(stage) - stageMatrix(stage - 1));
}

QVariantList TransformerCellModel::ffnRows(int layer) const {
    QVariantList rows;
    if (layer < 0 || layer >= result_->layersRun) {
        return rows;
    }
    const arma::mat& act = result_->layers[size_t(layer)].ffnAct;
    for (arma::uword r = 0; r < act.n_rows && r < arma::uword(kShownRows); ++r) {
        QVariantMap row;
        row[QStringLiteral("label")] = QString::fromStdString(result_->tokens[r]);
        row[QStringLiteral("values")] = rowValues(act, r, arma::uword(kShownHiddenColumns));
        rows << row;
    }
    return rows;
}

double TransformerCellModel::ffnRange(int layer) const {
    if (layer < 0 || layer >= result_->layersRun) {
        return 0.0;
    }
    return largestMagnitude(result_->layers[size_t(layer)].ffnAct);
}

QVariantList TransformerCellModel::nextWords(int count) const {
    QVariantList words;
    // The word generation picked first, else the most likely one (none while a sampled
    // generation is still coming: its draw may pick another).
    const bool drawComing = !complete() && live_.settings().pick == PickKind::Sample;
    const QString chosen = !result_->generation.steps.empty()
                               ? QString::fromStdString(result_->generation.steps.front().label)
                           : !result_->next.empty() && !drawComing
                               ? QString::fromStdString(result_->next[0].word)
                               : QString();
    for (size_t i = 0; i < result_->next.size() && int(i) < count; ++i) {
        QVariantMap w;
        w[QStringLiteral("word")] = QString::fromStdString(result_->next[i].word);
        w[QStringLiteral("prob")] = result_->next[i].prob;
        w[QStringLiteral("chosen")] = w[QStringLiteral("word")].toString() == chosen;
        words << w;
    }
    return words;
}

QVariantList TransformerCellModel::generationSteps() const {
    QVariantList steps;
    int keys = result_->n;
    for (const GenerationStep& step : result_->generation.steps) {
        QVariantMap s;
        s[QStringLiteral("word")] = QString::fromStdString(step.label);
        s[QStringLiteral("prob")] = step.prob;
        s[QStringLiteral("costCached")] = step.costCached;
        s[QStringLiteral("costFull")] = step.costFull;
        s[QStringLiteral("keys")] = keys++; // the positions the step's query reads
        steps << s;
    }
    return steps;
}

int TransformerCellModel::headsOf(int layer) const {
    if (layer < 0 || layer >= result_->layersRun) {
        return 0;
    }
    return result_->layers[size_t(layer)].attention.h;
}

QVariantMap TransformerCellModel::blocks(int layer, int head, int row, int blockSize) const {
    QVariantMap out;
    if (layer < 0 || layer >= result_->layersRun || blockSize < 1) {
        return out;
    }
    const AttentionResult& a = result_->layers[size_t(layer)].attention;
    if (head < 0 || head >= a.h || row < 0 || row >= a.n) {
        return out;
    }
    const arma::uword k0 = arma::uword(head * a.dK), v0 = arma::uword(head * a.dV);
    const TransformerConfig config = live_.config();
    const AttentionConfig& layerConfig = config.layers[size_t(layer)].attention;
    // Q_i (n × d_k), K_i (m × d_k), V_i (m × d_v): this head's columns
    const BlockwiseHead blocked = blockwiseHead(a.Q.cols(k0, k0 + arma::uword(a.dK) - 1),
                                                a.K.cols(k0, k0 + arma::uword(a.dK) - 1),
                                                a.V.cols(v0, v0 + arma::uword(a.dV) - 1), a.scale,
                                                layerConfig.mask, layerConfig.padding, blockSize);
    QVariantList steps;
    for (const BlockwiseStep& step : blocked.steps) {
        QVariantMap s;
        s[QStringLiteral("first")] = step.firstKey;
        s[QStringLiteral("end")] = step.endKey;
        const double m = step.runningMax(arma::uword(row));
        s[QStringLiteral("max")] = std::isfinite(m) ? QVariant(m) : QVariant();
        s[QStringLiteral("total")] = step.runningTotal(arma::uword(row));
        s[QStringLiteral("out")] = rowValues(step.runningOut, arma::uword(row));
        steps << s;
    }
    out[QStringLiteral("steps")] = steps;
    out[QStringLiteral("output")] = rowValues(blocked.output, arma::uword(row));
    out[QStringLiteral("plain")] = rowValues(a.head[size_t(head)].context, arma::uword(row));
    out[QStringLiteral("difference")] =
        arma::abs(blocked.output.row(arma::uword(row)) -
                  a.head[size_t(head)].context.row(arma::uword(row)))
            .max();
    return out;
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
    // The layer's attention as an attention cell of its own: its input H = LN₁(Xˡ⁻¹), its
    // weights, its result (shared with this cell's, not copied), and no controls.
    const TransformerConfig config = live_.config();
    AttentionCellSpec spec;
    spec.config = transformer::attentionOver(config.layers[size_t(layer)].attention,
                                             result_->layers[size_t(layer)].ln1.out, config.tokens);
    spec.config.X0 = arma::mat(spec.config.X0); // own copies: the spec outlives this call
    for (Projection* p : {&spec.config.wQ, &spec.config.wK, &spec.config.wV, &spec.config.wO}) {
        p->weights = arma::mat(p->weights);
    }
    spec.config.focus = std::min(config.focus, result_->n - 1);
    spec.views = {"matrices", "heatmap", "shares", "arithmetic", "trace"};
    spec.controls = {};
    const std::shared_ptr<const AttentionResult> shared(result_,
                                                        &result_->layers[size_t(layer)].attention);
    AttentionCellModel* model = AttentionCellModel::fromComputed(
        id_.toStdString() + ".layers[" + std::to_string(layer) + "]", spec, shared, false, this);
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
