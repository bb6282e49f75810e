#include "app/models/lesson_session.h"

#include "app/models/attention_cell_model.h"
#include "app/models/chart_cell_model.h"
#include "app/models/document_editor.h"
#include "app/models/document_saver.h"
#include "app/models/file_url.h"
#include "app/models/quiz_cell_model.h"
#include "app/models/transformer_cell_model.h"
#include "core/document/data_files.h"
#include "core/live/trained_weights_keep.h"
#include "core/live/undo_timeline.h"
#include "files/lesson_source.h"
#include "files/output_policy.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <new>
#include <type_traits>

namespace attnbook {
namespace {

// The rows (paragraphs, headings, cells) the window lays out. Each is an item of the lesson's
// column even before it is built, about half a millisecond apiece: a lesson of 80,000 rows
// (1 MB of short paragraphs) took a minute to open. Past this many the window shows the first
// ones and says so; `check`, `compute` and the exports read the whole lesson.
constexpr size_t kMaxWindowRows = 10000;
constexpr double kSecondsPerWindowRow = 0.0005;

// A bundle, the bundled lesson or one that cannot be opened: read by the source that knows
// where its data files are (its bundle, the executable), or the reason it could not be.
Lesson readLessonSource(const QString& path) {
    try {
        return openLessonSource(path.toStdString());
    } catch (const std::bad_alloc&) {
        Lesson lesson;
        lesson.document.path = path.toStdString();
        lesson.diagnostics.push_back({Severity::Error, 0, 0, "not enough memory to open it", ""});
        return lesson;
    }
}

} // namespace

LessonSession::LessonSession(QObject* parent)
    : QObject(parent), cells_(new CellListModel(this)), problems_(new ProblemListModel(this)),
      outline_(new OutlineModel(this)), editor_(new DocumentEditor(this)),
      saver_(new DocumentSaver(this)) {
    connect(editor_, &DocumentEditor::dirtyChanged, this, &LessonSession::unsavedChangesChanged);
    connect(editor_, &DocumentEditor::historyChanged, this, &LessonSession::undoChanged);
    connect(this, &LessonSession::opened, this, &LessonSession::undoChanged);
}

LessonSession::~LessonSession() = default;

bool LessonSession::unsavedChanges() const {
    return editor_->dirty();
}

bool LessonSession::hasFile() const {
    return saver_->hasFile();
}

bool LessonSession::open(const QString& pathOrUrl) {
    QString path = localFilePath(pathOrUrl);
    if (path.isEmpty()) {
        path = bundledLessonPath();
    }
    QString fileError;
    if (!path.startsWith(u':') && !isBundlePath(path.toStdString()) &&
        saver_->openFile(path, &fileError)) {
        // A lesson file: read once, through the file that saves it.
        live_.openBeside(saver_->savedBytes().toStdString(), path.toStdString());
        present(path);
    } else {
        live_.open(readLessonSource(path), path.toStdString());
        present(path);
        // A bundle or the bundled lesson has no file to save to: Save asks where.
        saver_->adopt(fileName_, QByteArray::fromStdString(live_.working().serialize()));
    }
    editor_->reset();
    saver_->checkRecovery();
    return problems_->errorCount() == 0;
}

bool LessonSession::openText(const QString& name, const std::string& bytes) {
    live_.openBeside(bytes, name.toStdString());
    present(name);
    saver_->adopt(fileName_, QByteArray::fromStdString(bytes));
    editor_->reset();
    return problems_->errorCount() == 0;
}

void LessonSession::newLesson() {
    QFile file(QStringLiteral(":/documents/template.md"));
    file.open(QIODevice::ReadOnly);
    const QByteArray bytes = file.readAll();
    // Not saved anywhere yet: its {file: PATH} values have no folder to come from (not the
    // folder attnbook was started in).
    live_.open(parseLesson(bytes.toStdString(), "untitled.md", noDataFiles()), "untitled.md");
    present(QString());
    saver_->adopt(fileName_, bytes);
    editor_->reset();
}

void LessonSession::rebuild(const std::function<void()>& read, const QString& path) {
    Q_EMIT aboutToRebuild();
    rebuilding_ = true;
    read();
    present(path);
    rebuilding_ = false;
    Q_EMIT rebuilt();
}

void LessonSession::applyBytes(const std::string& bytes) {
    rebuild([&] { live_.reread(bytes); }, filePath_);
    Q_EMIT edited();
}

void LessonSession::reloadFromBytes(const std::string& bytes) {
    applyBytes(bytes);
    editor_->reset();
}

void LessonSession::setPath(const QString& path) {
    // Saved into another folder, for the first time, or out of a bundle: the lesson's
    // {file: PATH} values now come from that folder. Only a lesson that reads again there is
    // shown again (its what-ifs go); any other keeps its cells as they are.
    const std::string moved = path.toStdString();
    if (live_.rereadsAt(moved)) {
        rebuild([&] { live_.moveTo(moved); }, path);
    } else {
        live_.moveTo(moved);
    }
    filePath_ = path;
    fileName_ = QFileInfo(path).fileName();
    Q_EMIT opened();
}

QString LessonSession::withBindings(const QString& markdown) const {
    return QString::fromStdString(live_.bound(markdown.toStdString()));
}

QObject* LessonSession::cell(const QString& id) const {
    const auto found = cellModels_.find(id.toStdString());
    return found == cellModels_.end() ? nullptr : found->second;
}

QString LessonSession::documentText() const {
    return QString::fromStdString(live_.working().serialize());
}

namespace {

UndoChoice undoChoice(const std::map<std::string, AttentionCellModel*>& attention,
                      const std::vector<TransformerCellModel*>& transformers,
                      const DocumentEditor& editor) {
    std::vector<WhatIfHead> whatIfs;
    for (const auto& [id, model] : attention) {
        if (model->canUndoWhatIf()) {
            whatIfs.push_back({id, model->whatIfStamp()});
        }
    }
    for (const TransformerCellModel* model : transformers) {
        if (model->canUndoWhatIf()) {
            whatIfs.push_back({model->cellId().toStdString(), model->whatIfStamp()});
        }
    }
    return chooseUndo(whatIfs, editor.canUndo());
}

} // namespace

bool LessonSession::canUndo() const {
    return undoChoice(attention_, transformers_, *editor_).target != UndoChoice::Target::Nothing;
}

QString LessonSession::undoCellId() const {
    return QString::fromStdString(undoChoice(attention_, transformers_, *editor_).cellId);
}

void LessonSession::undo() {
    const UndoChoice choice = undoChoice(attention_, transformers_, *editor_);
    if (choice.target == UndoChoice::Target::WhatIf) {
        const auto attention = attention_.find(choice.cellId);
        if (attention != attention_.end()) {
            attention->second->undoWhatIf();
            return;
        }
        for (TransformerCellModel* model : transformers_) {
            if (model->cellId().toStdString() == choice.cellId) {
                model->undoWhatIf();
                return;
            }
        }
    } else if (choice.target == UndoChoice::Target::DocumentEdit) {
        editor_->undo();
    }
}

void LessonSession::clearCells() {
    // The views let go of the old cells before they are deleted.
    cells_->setRows({});
    outline_->setHeadings({});
    // A result the worker delivers to an old cell before it is deleted is not the new lesson's.
    for (auto& [id, model] : cellModels_) {
        model->disconnect(this);
        model->deleteLater();
    }
    for (auto& [id, model] : attention_) {
        model->disconnect(this);
        model->deleteLater(); // also those of cells that never got a row
    }
    cellModels_.clear();
    attention_.clear();
    quizzes_.clear();
    transformers_.clear();
    cellUpdatingChanged(); // the cells that were updating are gone
}

void LessonSession::present(const QString& path) {
    clearCells();
    makeAttentionModels();
    std::vector<CellListModel::Row> rows;
    std::vector<OutlineModel::Heading> headings;
    const Document& doc = live_.lesson().document;
    for (const LessonRow& place : live_.rows()) {
        if (rows.size() == kMaxWindowRows) {
            break; // presentProblems says so
        }
        rows.push_back(place.prosePiece >= 0
                           ? proseRow(place, headings, int(rows.size()))
                           : cellRow(place, doc.segments[size_t(place.place.segment)].cell()));
    }
    setNames(path);
    cells_->setRows(std::move(rows));
    outline_->setHeadings(std::move(headings));
    presentProblems();
    loaded_ = true;
    Q_EMIT opened();
}

CellListModel::Row LessonSession::proseRow(const LessonRow& place,
                                           std::vector<OutlineModel::Heading>& headings,
                                           int row) const {
    const ProsePieceRow& piece = live_.prose()[size_t(place.prosePiece)];
    if (piece.headingLevel > 0) {
        headings.push_back({QString::fromStdString(piece.headingTitle), piece.headingLevel, row});
    }
    return {QStringLiteral("prose"),
            QString(),
            piece.firstLine,
            piece.lastLine,
            QString::fromStdString(live_.proseMarkdown(size_t(place.prosePiece))),
            {},
            nullptr,
            piece.sampleAnswer};
}

CellListModel::Row LessonSession::cellRow(const LessonRow& place, const CellBlock& block) {
    CellListModel::Row row{QString::fromLatin1(cellKindName(block.kind)),
                           QString::fromStdString(block.id),
                           place.firstLine,
                           place.lastLine,
                           {},
                           {},
                           nullptr};
    // Only the first cell of an id is live; a duplicate shows its source and its error.
    const LessonCell* cell = live_.lesson().cell(block.id);
    QObject* model = cell && cellModels_.count(block.id) == 0 && cell->openLine == block.openLine
                         ? makeCellModel(*cell)
                         : nullptr;
    if (model) {
        cellModels_[block.id] = model;
        row.cell = model;
        return row;
    }
    // A cell that cannot be shown live shows its source and why.
    row.kind = QStringLiteral("broken");
    row.markdown = QString::fromStdString(block.openFence + block.body + block.closeFence);
    for (const Diagnostic* error : live_.errorsOf(place)) {
        row.problems << QStringLiteral("line %1: %2")
                            .arg(error->line)
                            .arg(QString::fromStdString(error->message));
    }
    return row;
}

QObject* LessonSession::makeCellModel(const LessonCell& cell) {
    const ComputedCell* computed = live_.results().cell(cell.id);
    if (cell.attention()) {
        return attention_.count(cell.id) ? attention_.at(cell.id) : nullptr;
    }
    if (const QuizCellSpec* quiz = cell.quiz()) {
        return makeQuizModel(cell, *quiz);
    }
    if (const ChartCellSpec* chart = cell.chart(); chart && computed && computed->ok) {
        return new ChartCellModel(cell.id, *chart, computed->series, this);
    }
    if (const TransformerCellSpec* transformer = cell.transformer();
        transformer && computed && computed->ok && computed->transformer) {
        return makeTransformerModel(cell, *transformer, *computed);
    }
    return nullptr;
}

QObject* LessonSession::makeQuizModel(const LessonCell& cell, const QuizCellSpec& quiz) {
    auto* model = new QuizCellModel(
        cell.id, quiz,
        [this](const std::string& text) { return QString::fromStdString(live_.bound(text)); },
        [this, id = cell.id] { return live_.quizAnswer(id); }, this);
    quizzes_.emplace(cell.id, model);
    return model;
}

// A cell model that recomputes after a what-if: its Keep, the prose quoting it, its progress.
template <class Model> void LessonSession::wire(Model* model, const std::string& id) {
    model->setKeeper(
        [this](const std::string& cellId, const auto& keys) { return keep(cellId, keys); });
    if constexpr (std::is_same_v<Model, TransformerCellModel>) {
        model->setWeightsKeeping(
            {[this](const std::string& fileName) { return besideLesson(fileName); },
             [this](const std::string& cellId, const TransformerConfig& shown, bool replace) {
                 return keepTrainedWeights(cellId, shown, replace);
             }});
    }
    connect(model, &Model::recomputed, this, [this, id, model] {
        show(live_.recomputed(id, model->sharedResult(), model->resultJson()));
    });
    connect(model, &Model::updatingChanged, this, &LessonSession::cellUpdatingChanged);
    connect(model, &Model::recomputed, this, &LessonSession::undoChanged);
    if (const auto quoted = live_.quoted().paths(id)) {
        model->setQuoted(quoted); // each recompute builds the JSON prose reads
    }
}

QObject* LessonSession::makeTransformerModel(const LessonCell& cell,
                                             const TransformerCellSpec& spec,
                                             const ComputedCell& computed) {
    auto* model = new TransformerCellModel(cell.id, spec, computed.transformer, this);
    wire(model, cell.id);
    live_.watch(cell.id, {[model] { return model->edited(); },
                          [model](const BindingPath& path) { return model->awaits(path); }});
    transformers_.push_back(model);
    return model;
}

// Each attention cell that computed gets a model that starts from its computed result and
// recomputes it after an edit (also a cell that gets no row of its own).
void LessonSession::makeAttentionModels() {
    const Lesson& lesson = live_.lesson();
    for (const LessonCell& cell : lesson.cells) {
        const AttentionCellSpec* spec = cell.attention();
        const ComputedCell* computed = live_.results().cell(cell.id);
        if (!spec || lesson.cell(cell.id) != &cell || !computed || !computed->ok ||
            !computed->attention) {
            continue; // a duplicate id or a cell that does not compute: its error says why
        }
        AttentionCellModel* model = AttentionCellModel::fromComputed(
            cell.id, *spec, computed->attention, live_.quoted().quotedForGradients(cell.id), this);
        wire(model, cell.id);
        live_.watch(cell.id, {[model] { return model->edited(); }, {}});
        attention_[cell.id] = model;
    }
}

void LessonSession::setNames(const QString& path) {
    const Document& doc = live_.lesson().document;
    filePath_ = path;
    fileName_ = path == bundledLessonPath() ? QStringLiteral("attention.md")
                : path.isEmpty()            ? QStringLiteral("untitled.md")
                                            : QFileInfo(path).fileName();
    title_ = QString::fromStdString(live_.lesson().title());
    subtitle_ = QString::fromStdString(doc.frontMatterValue("subtitle"));
    author_ = QString::fromStdString(doc.frontMatterValue("author"));
}

void LessonSession::presentProblems() {
    std::vector<ProblemListModel::Problem> problems;
    for (const Diagnostic& d : live_.problems()) {
        ProblemListModel::Problem p;
        p.error = d.severity == Severity::Error;
        p.line = d.line;
        p.column = d.column;
        p.message = QString::fromStdString(d.message);
        p.cellId = QString::fromStdString(d.cellId);
        p.location = d.line > 0
                         ? QStringLiteral("%1:%2:%3").arg(fileName_).arg(d.line).arg(d.column)
                         : fileName_;
        p.targetRow = live_.rowOfProblem(d);
        problems.push_back(std::move(p));
    }
    if (const size_t all = live_.rows().size(); all > kMaxWindowRows) {
        ProblemListModel::Problem p;
        p.error = false;
        p.location = fileName_;
        p.message = QStringLiteral("the window shows the first %L1 of this lesson's %L2 rows "
                                   "(paragraphs, headings and cells): all of them would take "
                                   "about %3 s to lay out. check, compute and export read the "
                                   "whole lesson; a lesson this long reads better split in parts")
                        .arg(qulonglong(kMaxWindowRows))
                        .arg(qulonglong(all))
                        .arg(qRound(double(all) * kSecondsPerWindowRow));
        problems.push_back(std::move(p));
    }
    problems_->setProblems(std::move(problems));
}

void LessonSession::show(const Rebound& rebound) {
    for (const Rebound::Prose& prose : rebound.prose) {
        cells_->setMarkdown(prose.row, QString::fromStdString(prose.markdown));
    }
    for (const std::string& id : rebound.quizzes) {
        if (const auto quiz = quizzes_.find(id); quiz != quizzes_.end()) {
            quiz->second->refresh();
        }
    }
}

void LessonSession::cellUpdatingChanged() {
    const bool now = std::any_of(attention_.begin(), attention_.end(),
                                 [](const auto& cell) { return cell.second->updating(); }) ||
                     std::any_of(transformers_.begin(), transformers_.end(),
                                 [](const TransformerCellModel* cell) { return cell->updating(); });
    if (now != updating_) {
        updating_ = now;
        Q_EMIT updatingChanged();
    }
}

std::optional<std::string>
LessonSession::keep(const std::string& id,
                    const std::vector<std::pair<std::string, std::string>>& keys) {
    KeptEdit kept = live_.keep(id, keys);
    if (!kept.kept()) {
        return kept.refused;
    }
    // The cell already shows what was kept: the history only records it.
    editor_->recordKept(QString::fromStdString(kept.name), std::move(kept.before),
                        std::move(kept.after));
    Q_EMIT edited();
    return std::nullopt;
}

bool LessonSession::besideLesson(const std::string& fileName) const {
    const std::string& folder = live_.dataFolder();
    return !folder.empty() &&
           QFileInfo::exists(
               QDir(QString::fromStdString(folder)).filePath(QString::fromStdString(fileName)));
}

std::string LessonSession::keepTrainedWeights(const std::string& id, const TransformerConfig& shown,
                                              bool replace) {
    const std::string& folder = live_.dataFolder();
    if (folder.empty()) {
        return "save the lesson as a file first: the trained weights go in a file beside it";
    }
    auto planned = attnbook::keepTrainedWeights(live_.working(), id, shown);
    if (const std::string* refusal = std::get_if<std::string>(&planned)) {
        return *refusal;
    }
    TrainedWeightsKeep& kept = std::get<TrainedWeightsKeep>(planned);
    const QString path =
        QDir(QString::fromStdString(folder)).filePath(QString::fromStdString(kept.fileName));
    if (QFileInfo::exists(path) && !replace) {
        return kept.fileName + " is already beside the lesson";
    }
    // The one writer of users' files: links followed, no FIFO or device, atomic, the replaced
    // file's owner and mode kept (files/output_policy.h).
    QString error;
    if (!writeOutputFile(path, QByteArray::fromStdString(kept.fileBytes), &error)) {
        return error.toStdString();
    }
    // The file may have been read before (a Keep replaced): the cell reads it afresh.
    live_.forgetReadFiles();
    const QString news =
        tr("Wrote %1 beside the lesson; %2 now reads its weights from it and "
           "trains no more (Undo takes the train key back).")
            .arg(QString::fromStdString(kept.fileName), QString::fromStdString(id));
    editor_->replaceAll(tr("Keep %1's trained weights").arg(QString::fromStdString(id)),
                        kept.document.serialize());
    Q_EMIT notice(news);
    return {};
}

} // namespace attnbook
