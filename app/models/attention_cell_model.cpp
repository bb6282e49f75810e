// One Q_INVOKABLE per control of an attention cell, each
// turning QML's strings into its edit of the live cell (attention_live_cell.h, which applies it,
// keeps its undo step and says what it changed), the thread each recompute runs on (inline or
// on the worker; the jobs, their memory and the rules are core/live/attention_recompute.h's),
// and what the views read from the live result, as QVariants.
#include "app/models/attention_cell_model.h"

#include "app/models/cell_variants.h"
#include "app/models/number_text.h"
#include "core/document/cell_specs.h"
#include "core/document/matrix_names.h"
#include "core/live/control_names.h"
#include "core/math/shares_shown.h"
#include "core/math/worked_steps.h"
#include "exports/pdf_figures.h"

#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>

namespace attnbook {
namespace {

// A recompute estimated below this many multiply-adds runs inline, on the GUI thread: every
// shipped lesson's cell (a few thousand, tens of thousands with its gradient check: well under
// a millisecond), so a test or a shot reads the new numbers right after an edit, as it always
// could, and a learner's edit shows in the same frame. Anything larger (a 512-token cell costs
// about 3e7) goes to the worker.
constexpr double kInlineWork = 2e6;

} // namespace

AttentionCellModel::AttentionCellModel(const std::string& id, const AttentionCellSpec& spec,
                                       QObject* parent)
    : QObject(parent), id_(QString::fromStdString(id)), views_(toQStringList(spec.views)),
      controls_(toQStringList(spec.controls)),
      hasLearned_(spec.config.positional == PositionalKind::Learned), live_(spec),
      result_(std::make_shared<AttentionResult>()), authoredResult_(result_),
      computer_(std::make_shared<CellComputer>()), memory_(live_.authored()) {
    // The worker's outcome arrives here, on the GUI thread. A model destroyed while its job
    // runs takes the watcher with it: the job finishes on its own (it owns or shares all it
    // touches) and its outcome is dropped.
    connect(&watcher_, &QFutureWatcher<RecomputeOutcome>::finished, this,
            &AttentionCellModel::jobFinished);
}

AttentionCellModel* AttentionCellModel::create(const std::string& id, const AttentionCellSpec& spec,
                                               bool needsGradients, ConfigError& error,
                                               QObject* parent) {
    std::unique_ptr<AttentionCellModel> model(new AttentionCellModel(id, spec, parent));
    model->needsGradients_ = needsGradients || model->views_.contains(QStringLiteral("gradients"));
    if (const std::optional<ConfigError> failure = model->computeInline(CellChange::everything())) {
        error = *failure;
        return nullptr;
    }
    model->authoredResult_ = model->result_;
    model->prepareWorkerMemory();
    return model.release();
}

AttentionCellModel*
AttentionCellModel::fromComputed(const std::string& id, const AttentionCellSpec& spec,
                                 std::shared_ptr<const AttentionResult> computed,
                                 bool needsGradients, QObject* parent) {
    auto* model = new AttentionCellModel(id, spec, parent);
    model->needsGradients_ = needsGradients || model->views_.contains(QStringLiteral("gradients"));
    model->result_ = computed;
    model->authoredResult_ = std::move(computed);
    model->rowCheck_ = checkRows(*model->result_);
    model->allowedHeads_ = attnbook::allowedHeads(model->state());
    ++model->revision_;
    model->prepareWorkerMemory();
    return model;
}

void AttentionCellModel::prepareWorkerMemory() {
    if (!computesInline()) {
        memory_.prepare(live_, *result_);
    }
}

AttentionCellModel::~AttentionCellModel() = default;

QStringList AttentionCellModel::vocabWords() const {
    return toQStringList(state().vocabOrder);
}

QStringList AttentionCellModel::tokens() const {
    return toQStringList(state().config.tokens);
}

QStringList AttentionCellModel::keyLabels() const {
    return attnbook::keyLabels(*result_); // exports/pdf_figures.h
}

QStringList AttentionCellModel::queryLabels() const {
    return attnbook::queryLabels(*result_);
}

QVariantList AttentionCellModel::allowedHeads() const {
    return toVariantList(allowedHeads_);
}

QString AttentionCellModel::mask() const {
    return QString::fromStdString(maskName(state().config.mask));
}

QVariantList AttentionCellModel::padding() const {
    QVariantList out;
    const std::vector<bool>& flags = state().config.padding;
    for (int c = 0; c < result_->m; ++c) {
        out << (size_t(c) < flags.size() && flags[size_t(c)]);
    }
    return out;
}

QString AttentionCellModel::positional() const {
    return QString::fromStdString(positionalName(state().config.positional));
}

QString AttentionCellModel::scaleMode() const {
    return QString::fromStdString(scaleName(state().config.scaleKind));
}

bool AttentionCellModel::edited() const {
    return editedBesidesFocus_ || state().config.focus != live_.authored()->config.focus;
}

bool AttentionCellModel::compareAvailable() const {
    return compareProblem(*authoredResult_, *result_).empty();
}

QString AttentionCellModel::compareNote() const {
    return QString::fromStdString(compareProblem(*authoredResult_, *result_));
}

double AttentionCellModel::changeRange() const {
    if (!compareAvailable()) {
        return 0.0;
    }
    return largestShareChange(*result_, *authoredResult_);
}

QStringList AttentionCellModel::warnings() const {
    return warningLines(*result_);
}

QStringList AttentionCellModel::gradientNames() const {
    // The parameters of this mode (the name table), the token vectors aside: the view
    // offers ∂L/∂X beside the upstream gradient already.
    QStringList out;
    for (const InputMatrixName& entry : inputMatrixNames()) {
        if (entry.existsIn(state().config) && entry.role != InputMatrixName::Role::Tokens) {
            out << QString::fromLatin1(entry.gradientName);
        }
    }
    return out;
}

QString AttentionCellModel::land(const LiveEdit& edit) {
    if (!edit.applied()) {
        return QString::fromStdString(edit.refused);
    }
    // The live cell recorded the undo step before the recompute announces it, so the views see
    // Undo at once.
    if (updating() || !computesInline()) {
        // Checked (and refused) at once; computed on the worker. An edit refused only when
        // its numbers overflow comes back through refused().
        recomputeAfter(edit.change);
        return {};
    }
    // The shapes were checked; the numbers can still be refused by the core (a product that
    // overflows). Then the cell keeps the state and the result it had.
    if (const std::optional<ConfigError> failure = recomputeAfter(edit.change)) {
        live_.refuseLatest();
        return QString::fromStdString(failure->message);
    }
    return {};
}

bool AttentionCellModel::undoWhatIf() {
    const std::optional<CellChange> change = live_.undo();
    if (!change) {
        return false;
    }
    recomputeAfter(*change); // a state that computed before
    return true;
}

bool AttentionCellModel::computesInline() const {
    return recomputeWork(*result_, needsGradients_) <= kInlineWork;
}

// The route of every recompute (edits, reset, setNeedsGradients).
//
// On the worker: QtConcurrent on the global thread pool rather than a QThread per session.
// A job owns, or shares read-only, everything it touches (a copy of the configuration, the
// engine's scratch, the result it fills), so a cell model can go away while its job runs
// without waiting for it; and the pool's threads are shared with the export renders instead
// of adding a thread per open lesson. One job per cell at a time: edits made meanwhile only
// merge into one pending change (AttentionRecomputeQueue), and when the job finishes a result that
// is already stale is not shown: the newest state is computed from it.
std::optional<ConfigError> AttentionCellModel::recomputeAfter(const CellChange& change) {
    if (change.kind == CellChange::Kind::Nothing && !updating()) {
        showUnchangedNumbers();
        return std::nullopt;
    }
    if (!updating() && computesInline()) {
        return computeInline(change);
    }
    const bool wasUpdating = updating();
    if (const std::optional<CellChange> start = queue_.edit(change)) {
        startJob(*start);
    }
    if (wasUpdating != updating()) {
        Q_EMIT updatingChanged();
    }
    return std::nullopt;
}

std::optional<ConfigError> AttentionCellModel::computeInline(const CellChange& change) {
    RecomputeJob job = jobFor(change);
    RecomputeOutcome outcome = computer_->run(job, memory_.freeBuffer());
    if (outcome.error) {
        return outcome.error;
    }
    memory_.replaceLatest(std::move(job.state), live_.weightsVersion(), live_);
    queue_.shownInline();
    show(std::move(outcome));
    return std::nullopt;
}

RecomputeJob AttentionCellModel::jobFor(const CellChange& change) {
    RecomputeJob job;
    job.state = memory_.snapshot(live_); // the worker's own copy
    job.authored = live_.authored();
    job.base = queue_.base(result_);
    job.change = change;
    job.gradients = needsGradients_;
    job.json = quotedJson_;
    job.quoted = quoted_;
    job.id = id_.toStdString();
    return job;
}

void AttentionCellModel::startJob(const CellChange& change) {
    if (change.kind == CellChange::Kind::Nothing) {
        showUnchangedNumbers();
        return;
    }
    RecomputeJob job = jobFor(change);
    queue_.started(job.state, live_.weightsVersion());
    watcher_.setFuture(QtConcurrent::run(
        [computer = computer_, job = std::move(job), buffer = memory_.freeBuffer()]() mutable {
            return computer->run(job, std::move(buffer));
        }));
}

void AttentionCellModel::jobFinished() {
    AttentionRecomputeQueue::Next next = queue_.finished(watcher_.result());
    if (next.refusal) {
        // Refused: back to the last state that computed, without the edits made since.
        live_.restore(memory_.latestState());
        next.show ? show(std::move(*next.show)) : showUnchangedNumbers();
        Q_EMIT updatingChanged();
        Q_EMIT refused(QString::fromStdString(next.refusal->message));
        return;
    }
    memory_.replaceLatest(std::move(next.computed), next.computedVersion, live_);
    if (next.start) {
        startJob(*next.start); // the outcome was stale: the newest edit is computed from it
        return;
    }
    show(std::move(*next.show));
    Q_EMIT updatingChanged();
}

void AttentionCellModel::show(RecomputeOutcome outcome) {
    if (outcome.allowedHeads) {
        allowedHeads_ = std::move(*outcome.allowedHeads);
    }
    rowCheck_ = std::move(outcome.rows);
    editedBesidesFocus_ = outcome.editedBesidesFocus;
    json_ = std::move(outcome.json);
    lastComputeMs_ = outcome.milliseconds;
    // The result it replaces is reused once nothing holds it.
    std::shared_ptr<const AttentionResult> replaced = std::exchange(result_, outcome.result);
    if (replaced != authoredResult_) {
        memory_.recycle(std::move(replaced));
    }
    ++revision_;
    Q_EMIT recomputed();
}

void AttentionCellModel::showUnchangedNumbers() {
    ++revision_;
    Q_EMIT recomputed();
}

void AttentionCellModel::setNeedsGradients(bool needed) {
    needed = needed || views_.contains(QStringLiteral("gradients"));
    if (needed != needsGradients_) {
        needsGradients_ = needed;
        recomputeAfter(CellChange::everything()); // the same state computed before: it computes
    }
}

void AttentionCellModel::setQuoted(std::shared_ptr<const JsonSelection> paths) {
    quotedJson_ = paths != nullptr;
    quoted_ = std::move(paths);
}

QString AttentionCellModel::setHeads(int heads) {
    return land(live_.setHeads(heads));
}

QString AttentionCellModel::setMask(const QString& mask) {
    const std::optional<MaskKind> kind = maskNamed(mask.toStdString());
    return kind ? land(live_.setMask(*kind)) : QStringLiteral("the mask is none or causal");
}

QString AttentionCellModel::setPadding(int key, bool padded) {
    return land(live_.setPadding(key, padded));
}

QString AttentionCellModel::setPositional(const QString& kind) {
    const std::optional<PositionalKind> value = positionalNamed(kind.toStdString());
    return value ? land(live_.setPositional(*value))
                 : QStringLiteral("positional encoding is none or sinusoidal");
}

QString AttentionCellModel::setScale(const QString& mode, const QString& divisorText) {
    const std::optional<ScaleKind> kind = scaleNamed(mode.toStdString());
    if (!kind) {
        return QStringLiteral("scaling is on (1/√d_k), off, or a divisor");
    }
    if (*kind != ScaleKind::Divisor) {
        return land(live_.setScale(*kind, 1.0));
    }
    QString reason;
    const std::optional<double> divisor = parseTypedNumber(divisorText, reason);
    if (!divisor) {
        return reason;
    }
    return land(live_.setScale(ScaleKind::Divisor, *divisor));
}

QString AttentionCellModel::setFocus(int row) {
    return land(live_.setFocus(row));
}

QString AttentionCellModel::addToken(const QString& label) {
    return land(live_.addToken(label.trimmed().toStdString()));
}

QString AttentionCellModel::removeToken(int index) {
    return land(live_.removeToken(index));
}

QString AttentionCellModel::renameToken(int index, const QString& label) {
    return land(live_.renameToken(index, label.trimmed().toStdString()));
}

QString AttentionCellModel::moveToken(int from, int to) {
    return land(live_.moveToken(from, to));
}

bool AttentionCellModel::isEditable(const QString& matrix) const {
    return live_.isEditable(matrix.toStdString());
}

QString AttentionCellModel::setMatrixEntry(const QString& matrix, int row, int column,
                                           const QString& text) {
    if (const std::string fixed = live_.fixedReason(matrix.toStdString()); !fixed.empty()) {
        return QString::fromStdString(fixed); // said before a typing mistake would be
    }
    QString reason;
    const std::optional<double> value = parseTypedNumber(text, reason);
    if (!value) {
        return reason;
    }
    return land(live_.setMatrixEntry(matrix.toStdString(), row, column, *value));
}

QString AttentionCellModel::setIdentity(const QString& matrix) {
    return land(live_.setIdentity(matrix.toStdString()));
}

QString AttentionCellModel::setZero(const QString& matrix) {
    return land(live_.setZero(matrix.toStdString()));
}

void AttentionCellModel::reset() {
    recomputeAfter(live_.reset());
}

QString AttentionCellModel::keep() {
    const auto changes = live_.changedKeys();
    if (changes.empty()) {
        return {};
    }
    if (!keeper_) {
        return QStringLiteral("this window cannot change the document");
    }
    if (updating()) {
        return QStringLiteral("the numbers are still updating: keep them once they show");
    }
    if (const std::string tooLarge = AttentionLiveCell::tooLargeToKeep(changes);
        !tooLarge.empty()) {
        return QString::fromStdString(tooLarge);
    }
    if (const auto error = keeper_(id_.toStdString(), changes)) {
        return QString::fromStdString(*error);
    }
    live_.kept(); // the kept values are the lesson's now: Undo is the document's
    authoredResult_ = result_;
    editedBesidesFocus_ = false;
    ++revision_;
    Q_EMIT recomputed();
    return {};
}

arma::mat AttentionCellModel::inputMatrix(const std::string& name) const {
    return editableMatrix(state(), name);
}

QVariantList AttentionCellModel::arithmetic(int head, int digits) const {
    return arithmeticSections(*result_, head, focus(), digits);
}

QVariantList AttentionCellModel::trace(int head, int digits) const {
    return traceSections(*result_, head, focus(), digits);
}

QVariantList AttentionCellModel::shownKeys() const {
    return toVariantList(sharesShown(*result_, focus()));
}

QVariantList AttentionCellModel::focusShares(int head) const {
    return focusRowShares(*result_, head, focus());
}

double AttentionCellModel::weight(int head, int row, int column) const {
    return weightAt(*result_, head, row, column);
}

double AttentionCellModel::outputAt(int row, int column) const {
    return outputEntry(*result_, row, column);
}

QString AttentionCellModel::gradientCheckText() const {
    return needsGradients_ ? gradientCheckLine(result_->gradcheck) : QString();
}

} // namespace attnbook
