#include "app/models/document_editor.h"

#include "app/models/lesson_session.h"
#include "core/document/cell_editor.h"
#include "core/document/cell_rename.h"
#include "core/document/data_files.h"
#include "core/document/document_edits.h"
#include "core/document/lesson.h"
#include "core/math/attention_engine.h"

#include <QFile>
#include <QFileInfo>

#include <set>

namespace attnbook {
namespace {

std::string withDocumentLineEnds(const QString& text, const std::string& lineEnding) {
    std::string out;
    const std::string in = text.toStdString();
    for (size_t i = 0; i < in.size(); ++i) {
        if (in[i] == '\r' && i + 1 < in.size() && in[i + 1] == '\n') {
            continue;
        }
        out += in[i] == '\n' ? lineEnding : std::string(1, in[i]);
    }
    return out;
}

QString forEditing(std::string text) {
    QString out =
        QString::fromStdString(text).replace(QStringLiteral("\r\n"), QStringLiteral("\n"));
    if (out.endsWith(u'\n')) {
        out.chop(1);
    }
    return out;
}

bool endsWith(const std::string& text, const std::string& end) {
    return text.size() >= end.size() &&
           text.compare(text.size() - end.size(), end.size(), end) == 0;
}

size_t offsetOfLine(const std::string& text, int line) {
    size_t at = 0;
    for (int i = 0; i < line && at < text.size(); ++i) {
        const size_t end = text.find('\n', at);
        at = end == std::string::npos ? text.size() : end + 1;
    }
    return at;
}

void collectPaths(const Json& json, const std::string& path, const QString& filter, int limit,
                  QStringList& out) {
    if (int(out.size()) >= limit) {
        return;
    }
    if (json.isObject()) {
        for (const auto& [key, value] : json.object_()) {
            collectPaths(value, path + "." + key, filter, limit, out);
        }
    } else if (json.isArray()) {
        const auto& items = json.array();
        for (size_t i = 0; i < items.size(); ++i) {
            collectPaths(items[i], path + "[" + std::to_string(i) + "]", filter, limit, out);
        }
    } else if (json.isNumber() || json.isString()) {
        const QString text = QString::fromStdString(path);
        if (filter.isEmpty() || text.contains(filter, Qt::CaseInsensitive)) {
            out << text;
        }
    }
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

QString DocumentEditor::commit(const QString& name, const Document& result,
                               const QString& showCellId) {
    std::string before = session_->working().serialize();
    std::string after = result.serialize();
    if (before == after) {
        return {};
    }
    history_.record(name, std::move(before), after);
    session_->applyBytes(after);
    lastEditedRow_ = showCellId.isEmpty() ? -1 : session_->cells()->rowOfCell(showCellId);
    Q_EMIT this->edited(lastEditedRow_);
    return {};
}

QString DocumentEditor::proseSource(int row) const {
    return forEditing(session_->rowPlace(row).text);
}

QString DocumentEditor::previewMarkdown(const QString& markdown) const {
    return session_->withBindings(markdown);
}

QString DocumentEditor::setProse(int row, const QString& markdown) {
    const LessonSession::RowPlace place = session_->rowPlace(row);
    Document edited = session_->working();
    if (place.segment < 0 || place.segment >= int(edited.segments.size()) ||
        edited.segments[size_t(place.segment)].isCell()) {
        return tr("There is no prose at row %1.").arg(row);
    }
    const std::string& le = edited.lineEnding;
    const std::string text = edited.segments[size_t(place.segment)].prose().text;
    const size_t start = offsetOfLine(text, place.lineOffset);
    if (text.compare(start, place.text.size(), place.text) != 0) {
        return tr("The prose changed under the editor; open it again.");
    }
    std::string replacement = withDocumentLineEnds(markdown, le);
    // proseSource() took off the row's final line end: put it back.
    if (!replacement.empty() && endsWith(place.text, le)) {
        replacement += le;
    }
    const std::string whole =
        text.substr(0, start) + replacement + text.substr(start + place.text.size());
    if (const auto error = setProseText(edited, place.segment, whole)) {
        return QString::fromStdString(*error);
    }
    return commit(tr("Edit prose"), edited);
}

QString DocumentEditor::cellSource(const QString& id) const {
    const CellBlock* cell = session_->working().findCell(id.toStdString());
    return cell ? forEditing(cell->body) : QString();
}

namespace {

// The diagnostics of the lesson with cell `id`'s body replaced, that fall in the cell.
// The problems the lesson would have with `body` as cell `id`: the whole-lesson check that
// `attnbook check` runs (reading, computing, bindings, claims), so that an error only the
// computation finds (heads: 3 at width 4) or one it causes elsewhere (a binding to a head
// that is gone) shows before Apply. The cell's own problems come first, errors before
// warnings; then errors elsewhere that the lesson does not have now (`current`).
// `files`: where the open lesson reads its {file: PATH} values from (its folder, or its bundle),
// so the check finds them wherever attnbook was started (issue 24: it looked beside the
// process's working directory, and real-head.md opened from elsewhere had "no such file").
std::vector<Diagnostic> cellProblems(const Document& working, const QString& name,
                                     std::shared_ptr<const DataFiles> files, const QString& id,
                                     const QString& body, const ProblemListModel& current) {
    Document edited = working;
    const std::string cellId = id.toStdString();
    if (!edited.findCell(cellId)) {
        return {{Severity::Error, 0, 0, "there is no cell '" + cellId + "'", cellId}};
    }
    std::string text = withDocumentLineEnds(body, edited.lineEnding);
    if (!text.empty()) {
        text += edited.lineEnding; // cellSource() took off the final line end
    }
    edited.setCellBody(cellId, text);
    const Lesson lesson = parseLesson(edited.serialize(), name.toStdString(), std::move(files));
    AttentionEngine engine;
    const LessonResults results = computeLesson(lesson, engine);
    const std::vector<Diagnostic> all = lessonProblems(lesson, results);

    const CellBlock* cell = lesson.document.findCell(cellId);
    const int first = cell ? cell->openLine : 0;
    const int last =
        cell ? cell->bodyFirstLine + int(std::count(text.begin(), text.end(), '\n')) : 0;
    std::multiset<std::string> errorsNow;
    for (int row = 0; row < current.count(); ++row) {
        if (current.problem(row).error) {
            errorsNow.insert(current.problem(row).message.toStdString());
        }
    }
    std::vector<Diagnostic> own, elsewhere;
    for (const Diagnostic& d : all) {
        if (d.cellId == cellId || (d.line >= first && d.line <= last)) {
            own.push_back(d);
        } else if (d.severity == Severity::Error) {
            const auto known = errorsNow.find(d.message);
            if (known != errorsNow.end()) {
                errorsNow.erase(known); // the lesson has it already: not this edit's doing
            } else {
                elsewhere.push_back(d);
            }
        }
    }
    std::stable_sort(own.begin(), own.end(), [](const Diagnostic& a, const Diagnostic& b) {
        return (a.severity == Severity::Error) > (b.severity == Severity::Error);
    });
    if (own.empty() || own.front().severity != Severity::Error) {
        own.insert(own.begin(), elsewhere.begin(), elsewhere.end());
    } else {
        own.insert(own.end(), elsewhere.begin(), elsewhere.end());
    }
    return own;
}

} // namespace

QString DocumentEditor::checkCellSource(const QString& id, const QString& body) const {
    const auto problems = cellProblems(session_->working(), session_->fileName(),
                                       session_->lesson().files, id, body, *session_->problems());
    if (problems.empty()) {
        return {};
    }
    const Diagnostic& d = problems.front();
    return QStringLiteral("%1:%2:%3: %4")
        .arg(session_->fileName())
        .arg(d.line)
        .arg(d.column)
        .arg(QString::fromStdString(d.message));
}

int DocumentEditor::checkCellSourceLine(const QString& id, const QString& body) const {
    const auto problems = cellProblems(session_->working(), session_->fileName(),
                                       session_->lesson().files, id, body, *session_->problems());
    const CellBlock* cell = session_->working().findCell(id.toStdString());
    if (problems.empty() || !cell || problems.front().line == 0) {
        return -1;
    }
    // The line within the body (0 = the first line of the YAML); -1 for a problem elsewhere.
    const int line = problems.front().line - cell->bodyFirstLine;
    return line >= 0 && line <= int(body.count(u'\n')) ? line : -1;
}

QString DocumentEditor::setCellSource(const QString& id, const QString& body) {
    Document edited = session_->working();
    const std::string cellId = id.toStdString();
    if (!edited.findCell(cellId)) {
        return tr("There is no cell %1.").arg(id);
    }
    std::string text = withDocumentLineEnds(body, edited.lineEnding);
    if (!text.empty()) {
        text += edited.lineEnding; // cellSource() took off the final line end
    }
    edited.setCellBody(cellId, text);
    return commit(tr("Edit %1").arg(id), edited, id);
}

std::string DocumentEditor::templateBody(const std::string& kind,
                                         const std::string& attentionId) const {
    QFile file(QStringLiteral(":/documents/template.md"));
    file.open(QIODevice::ReadOnly);
    const Lesson lesson = parseLesson(file.readAll().toStdString(), "template.md", noDataFiles());
    for (const CellBlock* cell : lesson.document.cells()) {
        if (cellKindName(cell->kind) != kind) {
            continue;
        }
        std::string body = cell->body;
        if (kind == "quiz") {
            if (attentionId.empty()) {
                // Nothing to bind to: a number for the author to replace.
                const size_t at = body.find("answer:");
                const size_t end = body.find('\n', at);
                if (at != std::string::npos && end != std::string::npos) {
                    body.replace(at, end - at, "answer: 0.5");
                }
            } else {
                for (size_t at = 0; (at = body.find("{{example.", at)) != std::string::npos;) {
                    body.replace(at + 2, 7, attentionId);
                    at += 2 + attentionId.size();
                }
            }
        }
        return body;
    }
    if (kind == "chart") { // the template shows no chart: a first one to change
        return "title: Comparisons in one attention step\n"
               "x: {label: tokens n, var: n, from: 1, to: 1024, points: 50, scale: log}\n"
               "y: {label: comparisons, scale: log}\n"
               "series:\n"
               "  - {label: every token with every token, y: \"n^2\"}\n"
               "  - {label: one new token, y: \"n\"}\n";
    }
    return {};
}

QString DocumentEditor::insertBelow(int row, const QString& kind) {
    Document edited = session_->working();
    int after = -1;
    std::string nearestAttention;
    if (row >= 0) {
        const LessonSession::RowPlace place = session_->rowPlace(row);
        if (place.segment < 0 || place.segment >= int(edited.segments.size())) {
            return tr("There is no row %1.").arg(row);
        }
        after = place.segment;
        if (!place.lastInSegment) {
            // Below a piece in the middle of a prose block: split the block there.
            ProseBlock& prose = std::get<ProseBlock>(edited.segments[size_t(after)].block);
            const size_t cut = offsetOfLine(prose.text, place.lineOffset) + place.text.size();
            ProseBlock rest{0, prose.text.substr(cut)};
            prose.text.resize(cut);
            edited.segments.insert(edited.segments.begin() + after + 1, Segment{rest});
        }
    }
    for (int i = 0; i < int(edited.segments.size()); ++i) {
        const Segment& s = edited.segments[size_t(i)];
        if (s.isCell() && s.cell().kind == CellKind::Attention &&
            (i <= after || nearestAttention.empty())) {
            nearestAttention = s.cell().id;
        }
    }
    const std::string k = kind.toStdString();
    if (k == "prose") {
        if (const auto error = insertProse(edited, after, "New paragraph.\n")) {
            return QString::fromStdString(*error);
        }
        return commit(tr("Insert prose"), edited);
    }
    const CellKind cellKind = k == "quiz"    ? CellKind::Quiz
                              : k == "chart" ? CellKind::Chart
                                             : CellKind::Attention;
    if (k != "quiz" && k != "attention" && k != "chart") {
        return tr("Cannot insert a %1 cell.").arg(kind);
    }
    const std::string id = unusedCellId(edited, k);
    if (const auto error =
            insertCell(edited, after, cellKind, id, templateBody(k, nearestAttention))) {
        return QString::fromStdString(*error);
    }
    return commit(tr("Insert %1").arg(QString::fromStdString(id)), edited,
                  QString::fromStdString(id));
}

QString DocumentEditor::duplicate(const QString& id) {
    Document edited = session_->working();
    const CellBlock* cell = edited.findCell(id.toStdString());
    if (!cell) {
        return tr("There is no cell %1.").arg(id);
    }
    std::string stem = id.toStdString();
    while (!stem.empty() && std::isdigit(static_cast<unsigned char>(stem.back()))) {
        stem.pop_back();
    }
    const std::string newId = unusedCellId(edited, stem.empty() ? "cell" : stem);
    if (const auto error = duplicateCell(edited, id.toStdString(), newId)) {
        return QString::fromStdString(*error);
    }
    return commit(tr("Duplicate %1").arg(id), edited, QString::fromStdString(newId));
}

QString DocumentEditor::remove(const QString& id) {
    Document edited = session_->working();
    if (const auto error = deleteCell(edited, id.toStdString())) {
        return QString::fromStdString(*error);
    }
    return commit(tr("Delete %1").arg(id), edited);
}

QString DocumentEditor::move(const QString& id, int direction) {
    Document edited = session_->working();
    if (const auto error = moveCell(edited, id.toStdString(), direction < 0 ? -1 : 1)) {
        return QString::fromStdString(*error);
    }
    return commit(direction < 0 ? tr("Move %1 up").arg(id) : tr("Move %1 down").arg(id), edited,
                  id);
}

QString DocumentEditor::rename(const QString& id, const QString& newId) {
    Document edited = session_->working();
    if (const auto error = renameCell(edited, id.toStdString(), newId.trimmed().toStdString())) {
        return QString::fromStdString(*error);
    }
    return commit(tr("Rename %1 to %2").arg(id, newId.trimmed()), edited, newId.trimmed());
}

QStringList DocumentEditor::bindingPaths(const QString& filter, int limit) const {
    QStringList out;
    for (const ComputedCell& cell : session_->results().cells) {
        collectPaths(cell.json, cell.id, filter, limit, out);
    }
    return out;
}

} // namespace attnbook
