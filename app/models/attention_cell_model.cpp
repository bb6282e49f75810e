#include "app/models/attention_cell_model.h"

#include "app/models/number_text.h"
#include "core/document/cell_specs.h"
#include "core/math/worked_steps.h"

#include <QElapsedTimer>

#include <cmath>

namespace attnbook {
namespace {

// What-ifs kept for Undo per cell; each is a copy of the cell's inputs.
constexpr size_t kUndoSteps = 200;
// Counts what-ifs in every cell of the window (main thread only).
qint64 whatIfClock = 0;

QStringList toQStringList(const std::vector<std::string>& items) {
    QStringList out;
    out.reserve(qsizetype(items.size()));
    for (const std::string& item : items) {
        out << QString::fromStdString(item);
    }
    return out;
}

QString refusalText(const EditRefusal& refusal) {
    return refusal ? QString::fromStdString(*refusal) : QString();
}

} // namespace

AttentionCellModel::AttentionCellModel(const std::string& id, const AttentionCellSpec& spec,
                                       QObject* parent)
    : QObject(parent), id_(QString::fromStdString(id)), views_(toQStringList(spec.views)),
      controls_(toQStringList(spec.controls)),
      hasLearned_(spec.config.positional == PositionalKind::Learned),
      authored_(EditableAttention::fromSpec(spec)), state_(authored_),
      result_(std::make_shared<AttentionResult>()),
      authoredResult_(std::make_unique<AttentionResult>()) {}

AttentionCellModel* AttentionCellModel::create(const std::string& id, const AttentionCellSpec& spec,
                                               bool needsGradients, ConfigError& error,
                                               QObject* parent) {
    std::unique_ptr<AttentionCellModel> model(new AttentionCellModel(id, spec, parent));
    model->needsGradients_ = needsGradients || model->views_.contains(QStringLiteral("gradients"));
    if (const std::optional<ConfigError> failure = model->recompute()) {
        error = *failure;
        return nullptr;
    }
    *model->authoredResult_ = *model->result_;
    return model.release();
}

AttentionCellModel* AttentionCellModel::fromComputed(const std::string& id,
                                                     const AttentionCellSpec& spec,
                                                     const AttentionResult& computed,
                                                     bool needsGradients, QObject* parent) {
    auto* model = new AttentionCellModel(id, spec, parent);
    model->needsGradients_ = needsGradients || model->views_.contains(QStringLiteral("gradients"));
    *model->result_ = computed;
    *model->authoredResult_ = computed;
    model->checkRows();
    ++model->revision_;
    return model;
}

AttentionCellModel::~AttentionCellModel() = default;

QStringList AttentionCellModel::vocabWords() const {
    return toQStringList(state_.vocabOrder);
}

QStringList AttentionCellModel::tokens() const {
    return toQStringList(state_.config.tokens);
}

QStringList AttentionCellModel::keyLabels() const {
    QStringList out;
    for (int c = 0; c < result_->m; ++c) {
        out << QString::fromStdString(keyLabel(*result_, c));
    }
    return out;
}

QStringList AttentionCellModel::queryLabels() const {
    QStringList out;
    for (int r = 0; r < result_->n; ++r) {
        out << QString::fromStdString(queryLabel(*result_, r));
    }
    return out;
}

QVariantList AttentionCellModel::allowedHeads() const {
    QVariantList out;
    for (int h : attnbook::allowedHeads(state_)) {
        out << h;
    }
    return out;
}

QString AttentionCellModel::mask() const {
    return state_.config.mask == MaskKind::Causal ? QStringLiteral("causal")
                                                  : QStringLiteral("none");
}

QVariantList AttentionCellModel::padding() const {
    QVariantList out;
    const std::vector<bool>& flags = state_.config.padding;
    for (int c = 0; c < result_->m; ++c) {
        out << (size_t(c) < flags.size() && flags[size_t(c)]);
    }
    return out;
}

QString AttentionCellModel::positional() const {
    switch (state_.config.positional) {
    case PositionalKind::Sinusoidal:
        return QStringLiteral("sinusoidal");
    case PositionalKind::Learned:
        return QStringLiteral("learned");
    case PositionalKind::None:
        break;
    }
    return QStringLiteral("none");
}

QString AttentionCellModel::scaleMode() const {
    switch (state_.config.scaleKind) {
    case ScaleKind::Off:
        return QStringLiteral("off");
    case ScaleKind::Divisor:
        return QStringLiteral("divisor");
    case ScaleKind::InverseSqrtDk:
        break;
    }
    return QStringLiteral("sqrt");
}

bool AttentionCellModel::edited() const {
    return hasChanges(authored_, state_);
}

bool AttentionCellModel::compareAvailable() const {
    const AttentionResult& a = *authoredResult_;
    const AttentionResult& b = *result_;
    return a.n == b.n && a.m == b.m && a.h == b.h;
}

QString AttentionCellModel::compareNote() const {
    if (compareAvailable()) {
        return {};
    }
    const AttentionResult& a = *authoredResult_;
    const AttentionResult& b = *result_;
    if (a.h != b.h) {
        return QStringLiteral("Compare needs the lesson's %1 head(s); the cell now has %2.")
            .arg(a.h)
            .arg(b.h);
    }
    return QStringLiteral("Compare needs the lesson's %1 tokens; the cell now has %2.")
        .arg(a.m)
        .arg(b.m);
}

double AttentionCellModel::changeRange() const {
    if (!compareAvailable()) {
        return 0.0;
    }
    double range = 0.0;
    for (size_t h = 0; h < result_->head.size(); ++h) {
        range = std::max(
            range, arma::abs(result_->head[h].weightsT - authoredResult_->head[h].weightsT).max());
    }
    return range;
}

QStringList AttentionCellModel::warnings() const {
    QStringList out;
    for (const AttentionWarning& w : result_->warnings) {
        out << QString::fromStdString(w.message);
    }
    return out;
}

QStringList AttentionCellModel::gradientNames() const {
    if (state_.config.direct) {
        return {QStringLiteral("queries"), QStringLiteral("keys"), QStringLiteral("values")};
    }
    return {QStringLiteral("W_Q"), QStringLiteral("W_K"), QStringLiteral("W_V"),
            QStringLiteral("W_O"), QStringLiteral("b_Q"), QStringLiteral("b_K"),
            QStringLiteral("b_V"), QStringLiteral("b_O")};
}

QString AttentionCellModel::applyEdit(const std::function<EditRefusal(EditableAttention&)>& edit) {
    EditableAttention candidate = state_;
    if (EditRefusal refusal = edit(candidate)) {
        return refusalText(refusal);
    }
    // The shapes were checked; the numbers can still be refused by the
    // core (a product that overflows). Then the previous state, which
    // computed before, is computed again and the edit is refused.
    std::swap(state_, candidate);
    // Recorded before the recompute announces it, so the views see Undo at once.
    undo_.push_back({candidate, ++whatIfClock});
    if (undo_.size() > kUndoSteps) {
        undo_.erase(undo_.begin());
    }
    if (const std::optional<ConfigError> failure = recompute()) {
        undo_.pop_back();
        std::swap(state_, candidate);
        recompute();
        return QString::fromStdString(failure->message);
    }
    return {};
}

bool AttentionCellModel::undoWhatIf() {
    if (undo_.empty()) {
        return false;
    }
    state_ = std::move(undo_.back().before);
    undo_.pop_back();
    recompute(); // a state that computed before
    return true;
}

std::optional<ConfigError> AttentionCellModel::recompute() {
    QElapsedTimer timer;
    timer.start();
    try {
        if (needsGradients_) {
            engine_.compute(state_.config, *result_, GradientCheck::Run);
        } else {
            engine_.forward(state_.config, *result_);
            result_->gradcheck = {};
        }
    } catch (const InvalidConfig& e) {
        return e.error();
    } catch (const std::bad_alloc&) {
        return ConfigError{"", "not enough memory to compute this cell"};
    }
    checkRows();
    lastComputeMs_ = double(timer.nsecsElapsed()) / 1e6;
    ++revision_;
    Q_EMIT recomputed();
    return std::nullopt;
}

void AttentionCellModel::setNeedsGradients(bool needed) {
    needed = needed || views_.contains(QStringLiteral("gradients"));
    if (needed != needsGradients_) {
        needsGradients_ = needed;
        recompute(); // the same state computed before: it computes again
    }
}

// The one-line check under the weights: what a learner should be able to
// trust about every row, verified on the numbers shown rather than assumed.
void AttentionCellModel::checkRows() {
    const AttentionResult& r = *result_;
    double worstSum = 0.0;
    double largest = 0.0;
    long long blockedEntries = 0;
    bool blockedLeak = false;
    QStringList fullyBlocked;
    for (int h = 0; h < int(r.head.size()); ++h) {
        const HeadResult& head = r.head[size_t(h)];
        for (int row = 0; row < r.n; ++row) {
            // One query's column of the key-major tables: (m × 1)
            const double* weights = head.weightsT.colptr(arma::uword(row));
            const double* scores = head.scoresT.colptr(arma::uword(row));
            double sum = 0.0;
            int blocked = 0;
            for (int c = 0; c < r.m; ++c) {
                if (scores[c] == -arma::datum::inf) {
                    ++blocked;
                    blockedLeak = blockedLeak || weights[c] != 0.0;
                }
                sum += weights[c];
                largest = std::max(largest, weights[c]);
            }
            blockedEntries += blocked;
            if (blocked == r.m) {
                if (fullyBlocked.size() < 4) {
                    fullyBlocked << (r.h > 1
                                         ? QStringLiteral("row %1 “%2” in head %3")
                                               .arg(row + 1)
                                               .arg(QString::fromStdString(queryLabel(r, row)))
                                               .arg(h + 1)
                                         : QStringLiteral("row %1 “%2”")
                                               .arg(row + 1)
                                               .arg(QString::fromStdString(queryLabel(r, row))));
                } else if (fullyBlocked.size() == 4) {
                    fullyBlocked << QStringLiteral("…");
                }
                blockedLeak = blockedLeak || sum != 0.0;
            } else {
                worstSum = std::max(worstSum, std::abs(sum - 1.0));
            }
        }
    }
    largestShare_ = largest;
    constexpr double kTolerance = 1e-12;
    rowCheckPassed_ = worstSum <= kTolerance && !blockedLeak;
    QStringList parts;
    if (worstSum <= kTolerance) {
        parts << (fullyBlocked.isEmpty() ? QStringLiteral("every row totals 1")
                                         : QStringLiteral("every other row totals 1"));
    } else {
        parts << QStringLiteral("rows total 1 only to within %1").arg(worstSum, 0, 'g', 2);
    }
    if (blockedLeak) {
        parts << QStringLiteral("a blocked entry is not 0");
    } else if (blockedEntries == 0) {
        parts << QStringLiteral("no entry is blocked");
    } else {
        parts << QStringLiteral("%1 blocked %2 exactly 0")
                     .arg(blockedEntries)
                     .arg(blockedEntries == 1 ? QStringLiteral("entry is")
                                              : QStringLiteral("entries are"));
    }
    parts << (fullyBlocked.isEmpty() ? QStringLiteral("no row is fully blocked")
                                     : QStringLiteral("fully blocked, all shares 0: ") +
                                           fullyBlocked.join(QStringLiteral(", ")));
    QString line = parts.join(QStringLiteral(" · "));
    line[0] = line[0].toUpper();
    rowCheck_ = (rowCheckPassed_ ? QStringLiteral("✓ ") : QStringLiteral("✗ ")) + line;
}

QString AttentionCellModel::setHeads(int heads) {
    return applyEdit([&](EditableAttention& s) { return attnbook::setHeads(s, heads); });
}

QString AttentionCellModel::setMask(const QString& mask) {
    if (mask != QLatin1String("none") && mask != QLatin1String("causal")) {
        return QStringLiteral("the mask is none or causal");
    }
    const MaskKind kind = mask == QLatin1String("causal") ? MaskKind::Causal : MaskKind::None;
    return applyEdit([&](EditableAttention& s) { return attnbook::setMask(s, kind); });
}

QString AttentionCellModel::setPadding(int key, bool padded) {
    return applyEdit([&](EditableAttention& s) { return attnbook::setPadding(s, key, padded); });
}

QString AttentionCellModel::setPositional(const QString& kind) {
    PositionalKind value = PositionalKind::None;
    if (kind == QLatin1String("sinusoidal")) {
        value = PositionalKind::Sinusoidal;
    } else if (kind == QLatin1String("learned")) {
        value = PositionalKind::Learned;
    } else if (kind != QLatin1String("none")) {
        return QStringLiteral("positional encoding is none or sinusoidal");
    }
    return applyEdit([&](EditableAttention& s) { return attnbook::setPositional(s, value); });
}

QString AttentionCellModel::setScale(const QString& mode, const QString& divisorText) {
    if (mode == QLatin1String("sqrt")) {
        return applyEdit([](EditableAttention& s) {
            return attnbook::setScale(s, ScaleKind::InverseSqrtDk, 1.0);
        });
    }
    if (mode == QLatin1String("off")) {
        return applyEdit(
            [](EditableAttention& s) { return attnbook::setScale(s, ScaleKind::Off, 1.0); });
    }
    if (mode != QLatin1String("divisor")) {
        return QStringLiteral("scaling is on (1/√d_k), off, or a divisor");
    }
    QString reason;
    const std::optional<double> divisor = parseTypedNumber(divisorText, reason);
    if (!divisor) {
        return reason;
    }
    return applyEdit(
        [&](EditableAttention& s) { return attnbook::setScale(s, ScaleKind::Divisor, *divisor); });
}

QString AttentionCellModel::setFocus(int row) {
    return applyEdit([&](EditableAttention& s) { return attnbook::setFocus(s, row); });
}

QString AttentionCellModel::addToken(const QString& label) {
    const std::string text = label.trimmed().toStdString();
    return applyEdit([&](EditableAttention& s) { return attnbook::addToken(s, text); });
}

QString AttentionCellModel::removeToken(int index) {
    return applyEdit([&](EditableAttention& s) { return attnbook::removeToken(s, index); });
}

QString AttentionCellModel::renameToken(int index, const QString& label) {
    const std::string text = label.trimmed().toStdString();
    return applyEdit([&](EditableAttention& s) { return attnbook::renameToken(s, index, text); });
}

QString AttentionCellModel::moveToken(int from, int to) {
    return applyEdit([&](EditableAttention& s) { return attnbook::moveToken(s, from, to); });
}

bool AttentionCellModel::isEditable(const QString& matrix) const {
    const std::string name = matrix.toStdString();
    if (!isEditableMatrix(state_, name)) {
        return false;
    }
    const bool input = name == "X0" || name == "queries" || name == "keys" || name == "values";
    return allows(input ? QStringLiteral("vectors") : QStringLiteral("projections"));
}

QString AttentionCellModel::setMatrixEntry(const QString& matrix, int row, int column,
                                           const QString& text) {
    if (!isEditable(matrix)) {
        return QStringLiteral("this lesson keeps %1 fixed in this cell").arg(matrix);
    }
    QString reason;
    const std::optional<double> value = parseTypedNumber(text, reason);
    if (!value) {
        return reason;
    }
    const std::string name = matrix.toStdString();
    return applyEdit([&](EditableAttention& s) {
        return attnbook::setMatrixEntry(s, name, row, column, *value);
    });
}

QString AttentionCellModel::setIdentity(const QString& matrix) {
    if (!allows(QStringLiteral("projections"))) {
        return QStringLiteral("this lesson keeps the projections fixed in this cell");
    }
    const std::string name = matrix.toStdString();
    return applyEdit([&](EditableAttention& s) { return attnbook::setIdentity(s, name); });
}

QString AttentionCellModel::setZero(const QString& matrix) {
    if (!allows(QStringLiteral("projections"))) {
        return QStringLiteral("this lesson keeps the projections fixed in this cell");
    }
    const std::string name = matrix.toStdString();
    return applyEdit([&](EditableAttention& s) { return attnbook::setZero(s, name); });
}

void AttentionCellModel::reset() {
    undo_.clear();
    state_ = authored_;
    recompute();
}

QString AttentionCellModel::keep() {
    const auto changes = changedKeys(authored_, state_);
    if (changes.empty()) {
        return {};
    }
    if (!keeper_) {
        return QStringLiteral("this window cannot change the document");
    }
    // Keep writes every changed value as typed YAML; a value read from a
    // file ({file: PATH}) is never written back into its file. A loaded
    // matrix too big to type out (a GPT-2 projection is 589824 numbers)
    // stays a what-if: the lesson must stay a file one can read and diff.
    constexpr size_t kMaxKeptYaml = 256 * 1024;
    for (const auto& [key, yaml] : changes) {
        if (yaml.size() > kMaxKeptYaml) {
            return QStringLiteral("%1 is too large to write into the lesson as typed numbers "
                                  "(%2 KB of YAML); your edit stays a what-if. To keep it, "
                                  "change the file it was read from.")
                .arg(QString::fromStdString(key))
                .arg(yaml.size() / 1024);
        }
    }
    if (const auto error = keeper_(id_.toStdString(), changes)) {
        return QString::fromStdString(*error);
    }
    authored_ = state_;
    *authoredResult_ = *result_;
    undo_.clear(); // the kept values are the lesson's now: Undo is the document's
    ++revision_;
    Q_EMIT recomputed();
    return {};
}

arma::mat AttentionCellModel::inputMatrix(const std::string& name) const {
    return editableMatrix(state_, name);
}

namespace {

QVariantList sectionsToVariant(const std::vector<std::string>& titles,
                               const std::vector<std::vector<std::string>>& lines) {
    QVariantList out;
    for (size_t i = 0; i < titles.size(); ++i) {
        QVariantMap section;
        section[QStringLiteral("title")] = QString::fromStdString(titles[i]);
        section[QStringLiteral("lines")] = toQStringList(lines[i]);
        out << section;
    }
    return out;
}

} // namespace

QVariantList AttentionCellModel::arithmetic(int head, int digits) const {
    if (head < 0 || head >= result_->h) {
        return {};
    }
    std::vector<std::string> titles;
    std::vector<std::vector<std::string>> lines;
    for (const WorkedSection& s : workedArithmetic(*result_, head, focus(), digits)) {
        titles.push_back(s.title);
        lines.push_back(s.lines);
    }
    return sectionsToVariant(titles, lines);
}

QVariantList AttentionCellModel::trace(int head, int digits) const {
    if (head < 0 || head >= result_->h) {
        return {};
    }
    std::vector<std::string> titles;
    std::vector<std::vector<std::string>> lines;
    for (const TraceStep& s : traceSteps(*result_, head, focus(), digits)) {
        titles.push_back(s.title);
        lines.push_back(s.lines);
    }
    return sectionsToVariant(titles, lines);
}

QVariantList AttentionCellModel::focusShares(int head) const {
    QVariantList out;
    if (head < 0 || head >= result_->h) {
        return out;
    }
    const HeadResult& h = result_->head[size_t(head)];
    for (int c = 0; c < result_->m; ++c) {
        out << h.weight(arma::uword(focus()), arma::uword(c));
    }
    return out;
}

double AttentionCellModel::weight(int head, int row, int column) const {
    if (head < 0 || head >= result_->h || row < 0 || row >= result_->n || column < 0 ||
        column >= result_->m) {
        return 0.0;
    }
    return result_->head[size_t(head)].weight(arma::uword(row), arma::uword(column));
}

double AttentionCellModel::outputAt(int row, int column) const {
    if (row < 0 || column < 0 || arma::uword(row) >= result_->output.n_rows ||
        arma::uword(column) >= result_->output.n_cols) {
        return 0.0;
    }
    return result_->output(arma::uword(row), arma::uword(column));
}

} // namespace attnbook

namespace attnbook {

QString AttentionCellModel::gradientCheckText() const {
    const GradientCheckReport& check = result_->gradcheck;
    if (!needsGradients_) {
        return {};
    }
    if (!check.ran) {
        return tr("Gradient check skipped: %1.").arg(QString::fromStdString(check.skipped));
    }
    const GradientCheckEntry& worst = check.worst;
    const QString entry =
        worst.gradient.rfind("b_", 0) == 0
            ? QStringLiteral("%1[%2]").arg(QString::fromStdString(worst.gradient)).arg(worst.col)
            : QStringLiteral("%1[%2][%3]")
                  .arg(QString::fromStdString(worst.gradient))
                  .arg(worst.row)
                  .arg(worst.col);
    return tr("Gradient check against central differences: relative error %1 %2 (below 1e-6 "
              "passes). Largest difference at ∂L/∂%3: analytic %4, numeric %5. %6 of %7 entries "
              "checked.")
        .arg(QString::number(check.maxRelError, 'e', 1))
        .arg(check.passed() ? QStringLiteral("✓") : QStringLiteral("✗"))
        .arg(entry)
        .arg(QString::number(worst.analytic, 'g', 10))
        .arg(QString::number(worst.numeric, 'g', 10))
        .arg(check.checked)
        .arg(check.total);
}

} // namespace attnbook
