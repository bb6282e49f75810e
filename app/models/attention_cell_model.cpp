// One Q_INVOKABLE per control of an attention cell, each
// turning QML's strings into its edit of the live cell (attention_live_cell.h, which applies it,
// keeps its undo step and says what it changed; its runner computes it), and what the views
// read from the live result, as QVariants.
#include "app/models/attention_cell_model.h"

#include "app/models/cell_variants.h"
#include "app/models/number_text.h"
#include "core/document/cell_specs.h"
#include "core/document/matrix_names.h"
#include "core/document/setting_words.h"
#include "core/math/shares_shown.h"
#include "exports/paint/pdf_figures.h"

#include <algorithm>

namespace attnbook {
AttentionCellModel::AttentionCellModel(const std::string& id, const AttentionCellSpec& spec,
                                       QObject* parent)
    : QObject(parent), id_(QString::fromStdString(id)), views_(toQStringList(spec.views)),
      controls_(toQStringList(spec.controls)),
      hasLearned_(spec.config.positional == PositionalKind::Learned), live_(spec),
      result_(std::make_shared<AttentionResult>()), authoredResult_(result_),
      runner_(id, live_,
              {[this] { return result_; },
               [this](RecomputeOutcome outcome) { show(std::move(outcome)); },
               [this] { showUnchangedNumbers(); }}) {
    connect(&runner_, &AttentionRecomputeRunner::updatingChanged, this,
            &AttentionCellModel::updatingChanged);
    connect(&runner_, &AttentionRecomputeRunner::refused, this, &AttentionCellModel::refused);
    // New numbers are new worked steps.
    connect(this, &AttentionCellModel::recomputed, this, &AttentionCellModel::arithmeticChanged);
    connect(this, &AttentionCellModel::recomputed, this, &AttentionCellModel::traceChanged);
}

AttentionCellModel* AttentionCellModel::create(const std::string& id, const AttentionCellSpec& spec,
                                               bool needsGradients, ConfigError& error,
                                               QObject* parent) {
    std::unique_ptr<AttentionCellModel> model(new AttentionCellModel(id, spec, parent));
    model->runner_.setGradients(needsGradients ||
                                model->views_.contains(QStringLiteral("gradients")));
    if (const std::optional<ConfigError> failure =
            model->runner_.computeInline(CellChange::everything())) {
        error = *failure;
        return nullptr;
    }
    model->authoredResult_ = model->result_;
    model->runner_.prepareWorkerMemory();
    model->changes_.remember(*model);
    return model.release();
}

AttentionCellModel*
AttentionCellModel::fromComputed(const std::string& id, const AttentionCellSpec& spec,
                                 std::shared_ptr<const AttentionResult> computed,
                                 bool needsGradients, QObject* parent) {
    auto* model = new AttentionCellModel(id, spec, parent);
    model->runner_.setGradients(needsGradients ||
                                model->views_.contains(QStringLiteral("gradients")));
    model->result_ = computed;
    model->authoredResult_ = std::move(computed);
    model->rowCheck_ = checkRows(*model->result_);
    model->allowedHeads_ = attnbook::allowedHeads(model->state());
    ++model->revision_;
    model->runner_.prepareWorkerMemory();
    model->changes_.remember(*model);
    return model;
}

AttentionCellModel::~AttentionCellModel() = default;

QStringList AttentionCellModel::vocabWords() const {
    if (vocabWordsRevision_ != revision_) {
        vocabWordsShown_ = toQStringList(state().vocabOrder);
        vocabWordsRevision_ = revision_;
    }
    return vocabWordsShown_;
}

QStringList AttentionCellModel::tokens() const {
    return toQStringList(state().config.tokens);
}

QStringList AttentionCellModel::keyLabels() const {
    return attnbook::keyLabels(*result_); // exports/paint/pdf_figures.h
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
    return toVariantList(paddedKeys(state().config, result_->m));
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
    return shareChangeRange(*authoredResult_, *result_);
}

QStringList AttentionCellModel::warnings() const {
    return warningLines(*result_);
}

QStringList AttentionCellModel::gradientNames() const {
    return toQStringList(parameterGradientNames(state().config));
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
        runner_.recycle(std::move(replaced));
    }
    announce();
}

void AttentionCellModel::showUnchangedNumbers() {
    announce();
}

void AttentionCellModel::announce() {
    ++revision_;
    changes_.announce(*this);
    Q_EMIT recomputed();
}

void AttentionCellModel::setNeedsGradients(bool needed) {
    needed = needed || views_.contains(QStringLiteral("gradients"));
    if (needed != runner_.gradients()) {
        runner_.setGradients(needed);
        recomputeAfter(CellChange::everything()); // the same state computed before: it computes
    }
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
    announce();
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

int AttentionCellModel::arithmeticHead() const {
    return std::clamp(arithmeticHead_, 0, std::max(heads() - 1, 0));
}

void AttentionCellModel::setArithmeticHead(int head) {
    if (head != arithmeticHead_) {
        arithmeticHead_ = head;
        Q_EMIT arithmeticChanged();
    }
}

int AttentionCellModel::traceHead() const {
    return std::clamp(traceHead_, 0, std::max(heads() - 1, 0));
}

void AttentionCellModel::setTraceHead(int head) {
    if (head != traceHead_) {
        traceHead_ = head;
        Q_EMIT traceChanged();
    }
}

int AttentionCellModel::traceStep() const {
    return std::clamp(traceStep_, 0, std::max(int(traceSteps().size()) - 1, 0));
}

void AttentionCellModel::setTraceStep(int step) {
    if (step != traceStep_) {
        traceStep_ = step;
        Q_EMIT traceChanged();
    }
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
    return runner_.gradients() ? gradientCheckLine(result_->gradcheck) : QString();
}

} // namespace attnbook
