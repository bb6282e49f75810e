#include "app/models/document_editor.h"

#include "app/models/lesson_session.h"
#include "core/live/authoring_edits.h"
#include "core/live/cell_source_check.h"
#include "core/live/prose_check.h"

#include <QFile>

namespace attnbook {
namespace {

QString qt(const std::string& text) {
    return QString::fromStdString(text);
}

// The problems the session lists now, as the check compares them.
std::vector<Diagnostic> problemsNow(const ProblemListModel& list) {
    std::vector<Diagnostic> now;
    for (int row = 0; row < list.count(); ++row) {
        const ProblemListModel::Problem& p = list.problem(row);
        now.push_back({p.error ? Severity::Error : Severity::Warning, p.line, p.column,
                       p.message.toStdString(), p.cellId.toStdString()});
    }
    return now;
}

// The problems of the open lesson with `body` as cell `id` (cell_source_check.h).
std::vector<Diagnostic> cellProblems(const LessonSession& session, const QString& id,
                                     const QString& body) {
    const std::vector<Diagnostic> now = problemsNow(*session.problems());
    return cellSourceProblems(
        {session.working(), session.fileName().toStdString(), session.lesson().files, now},
        id.toStdString(), body.toStdString());
}

} // namespace

DocumentEditor::DocumentEditor(LessonSession* session)
    : QObject(session), session_(session),
      history_([session](const std::string& bytes) { session->applyBytes(bytes); }) {
    QUndoStack& stack = history_.stack();
    connect(&stack, &QUndoStack::cleanChanged, this, &DocumentEditor::dirtyChanged);
    connect(&stack, &QUndoStack::indexChanged, this, &DocumentEditor::historyChanged);
    connect(&stack, &QUndoStack::undoTextChanged, this, &DocumentEditor::historyChanged);
    connect(&stack, &QUndoStack::redoTextChanged, this, &DocumentEditor::historyChanged);
}

DocumentEditor::~DocumentEditor() {
    // The undo stack empties itself as it is destroyed and says so (indexChanged, cleanChanged).
    // By then this editor is being destroyed, and so is the session whose saver listens to
    // dirtyChanged (UBSan: a member call on a LessonSession already destroyed down to QObject).
    history_.stack().disconnect(this);
}

bool DocumentEditor::canUndo() const {
    return const_cast<EditHistory&>(history_).stack().canUndo();
}
bool DocumentEditor::canRedo() const {
    return const_cast<EditHistory&>(history_).stack().canRedo();
}
QString DocumentEditor::undoText() const {
    return const_cast<EditHistory&>(history_).stack().undoText();
}
QString DocumentEditor::redoText() const {
    return const_cast<EditHistory&>(history_).stack().redoText();
}

void DocumentEditor::reset() {
    const bool wasDirty = dirty();
    history_.clear();
    lastEditedRow_ = -1;
    if (wasDirty != dirty()) {
        Q_EMIT dirtyChanged();
    }
    Q_EMIT historyChanged();
}

void DocumentEditor::markSaved() {
    history_.markSaved();
}

void DocumentEditor::recordKept(const QString& name, std::string before, std::string after) {
    history_.record(name, std::move(before), std::move(after));
}

void DocumentEditor::replaceAll(const QString& name, const std::string& after) {
    const std::string before = session_->working().serialize();
    if (before == after) {
        return;
    }
    history_.record(name, before, after);
    session_->applyBytes(after);
    Q_EMIT edited(-1);
}

void DocumentEditor::undo() {
    if (canUndo()) {
        history_.stack().undo();
        Q_EMIT edited(-1);
    }
}

void DocumentEditor::redo() {
    if (canRedo()) {
        history_.stack().redo();
        Q_EMIT edited(-1);
    }
}

QString DocumentEditor::commit(const AuthoringEdit& edit) {
    if (!edit.made()) {
        return qt(edit.refused);
    }
    if (!edit.changes()) {
        return {};
    }
    history_.record(qt(edit.name), edit.before, edit.after);
    session_->applyBytes(edit.after);
    lastEditedRow_ =
        edit.showCellId.empty() ? -1 : session_->cells()->rowOfCell(qt(edit.showCellId));
    Q_EMIT edited(lastEditedRow_);
    return {};
}

QString DocumentEditor::proseSource(int row) const {
    return qt(textForEditing(session_->rowPlace(row).text));
}

QString DocumentEditor::previewMarkdown(const QString& markdown) const {
    return session_->withBindings(markdown);
}

QString DocumentEditor::proseProblem(const QString& markdown) const {
    return QString::fromStdString(proseBindingProblem(markdown.toStdString(), session_->results()));
}

QString DocumentEditor::setProse(int row, const QString& markdown) {
    return commit(AuthoringEdits(session_->working())
                      .setProse(row, session_->rowPlace(row), markdown.toStdString()));
}

QString DocumentEditor::cellSource(const QString& id) const {
    const CellBlock* cell = session_->working().findCell(id.toStdString());
    return cell ? qt(textForEditing(cell->body)) : QString();
}

QString DocumentEditor::checkCellSource(const QString& id, const QString& body) const {
    const std::vector<Diagnostic> problems = cellProblems(*session_, id, body);
    if (problems.empty()) {
        return {};
    }
    const Diagnostic& d = problems.front();
    return QStringLiteral("%1:%2:%3: %4")
        .arg(session_->fileName())
        .arg(d.line)
        .arg(d.column)
        .arg(qt(d.message));
}

int DocumentEditor::checkCellSourceLine(const QString& id, const QString& body) const {
    const std::vector<Diagnostic> problems = cellProblems(*session_, id, body);
    return problems.empty() ? -1
                            : lineInCellBody(session_->working(), id.toStdString(),
                                             body.toStdString(), problems.front());
}

int DocumentEditor::cellBodyFirstLine(const QString& id) const {
    const CellBlock* cell = session_->working().findCell(id.toStdString());
    return cell ? cell->openLine + 1 : 1;
}

QString DocumentEditor::setCellSource(const QString& id, const QString& body) {
    return commit(
        AuthoringEdits(session_->working()).setCellSource(id.toStdString(), body.toStdString()));
}

QString DocumentEditor::insertBelow(int row, const QString& kind) {
    // New cells are the bundled template's (a Qt resource).
    QFile file(QStringLiteral(":/documents/template.md"));
    file.open(QIODevice::ReadOnly);
    const RowPlace place = row >= 0 ? session_->rowPlace(row) : RowPlace{};
    return commit(AuthoringEdits(session_->working())
                      .insertBelow(row, place, kind.toStdString(), file.readAll().toStdString()));
}

QString DocumentEditor::duplicate(const QString& id) {
    return commit(AuthoringEdits(session_->working()).duplicate(id.toStdString()));
}

QString DocumentEditor::remove(const QString& id) {
    return commit(AuthoringEdits(session_->working()).remove(id.toStdString()));
}

QString DocumentEditor::move(const QString& id, int direction) {
    return commit(AuthoringEdits(session_->working()).move(id.toStdString(), direction));
}

QString DocumentEditor::rename(const QString& id, const QString& newId) {
    return commit(AuthoringEdits(session_->working())
                      .rename(id.toStdString(), newId.trimmed().toStdString()));
}

QStringList DocumentEditor::bindingPaths(const QString& filter, int limit) const {
    QStringList out;
    const auto wanted = [&filter](const std::string& path) {
        return filter.isEmpty() || qt(path).contains(filter, Qt::CaseInsensitive);
    };
    for (const std::string& path : attnbook::bindingPaths(session_->results(), wanted, limit)) {
        out << qt(path);
    }
    return out;
}

} // namespace attnbook
