#include "app/models/lesson_session.h"

#include "app/models/file_url.h"

#include "exports/lesson_source.h"
#include "app/models/attention_cell_model.h"
#include "app/models/chart_cell_model.h"
#include "app/models/document_editor.h"
#include "app/models/document_saver.h"
#include "app/models/quiz_cell_model.h"
#include "app/models/transformer_cell_model.h"
#include "core/document/cell_cost.h"
#include "core/document/cell_editor.h"
#include "core/document/chart_series.h"
#include "core/document/data_files.h"
#include "core/document/html_comments.h"
#include "core/document/result_json.h"

#include <QFile>
#include <QFileInfo>
#include <QUrl>

#include <algorithm>
#include <new>

namespace attnbook {
namespace {

// The files beside the lesson file at `path` (its folder, made absolute now: a later change of
// the working directory does not move it), keeping what they read for the re-reads after edits.
std::shared_ptr<const DataFiles> filesBeside(const QString& path) {
    return cachedDataFiles(dataFilesBeside(QFileInfo(path).absoluteFilePath().toStdString()));
}

int closingLine(const CellBlock& block) {
    return block.bodyFirstLine + lineCount(block.body) - (block.closed ? 0 : 1);
}

} // namespace

LessonSession::LessonSession(QObject* parent)
    : QObject(parent), cells_(new CellListModel(this)), problems_(new ProblemListModel(this)),
      outline_(new OutlineModel(this)), editor_(new DocumentEditor(this)),
      saver_(new DocumentSaver(this)) {
    connect(editor_, &DocumentEditor::dirtyChanged, this, &LessonSession::unsavedChangesChanged);
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
        dataFolder_ = QFileInfo(path).absolutePath();
        present(
            parseLesson(saver_->savedBytes().toStdString(), path.toStdString(), filesBeside(path)),
            path);
    } else {
        Lesson lesson;
        dataFolder_.clear(); // a bundle's or the executable's own files, or none
        try {
            lesson = openLessonSource(path.toStdString());
        } catch (const std::bad_alloc&) {
            lesson = Lesson{};
            lesson.document.path = path.toStdString();
            lesson.diagnostics.push_back(
                {Severity::Error, 0, 0, "not enough memory to open it", ""});
        }
        if (!lesson.files) {
            lesson.files = noDataFiles(); // it could not be opened: nothing to read beside it
        }
        present(std::move(lesson), path);
        // A bundle or the bundled lesson has no file to save to: Save asks where.
        saver_->adopt(fileName_, QByteArray::fromStdString(working_.serialize()));
    }
    editor_->reset();
    saver_->checkRecovery();
    return problems_->errorCount() == 0;
}

bool LessonSession::openText(const QString& name, const std::string& bytes) {
    dataFolder_ = QFileInfo(name).absolutePath();
    present(parseLesson(bytes, name.toStdString(), filesBeside(name)), name);
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
    dataFolder_.clear();
    present(parseLesson(bytes.toStdString(), "untitled.md", noDataFiles()), QString());
    saver_->adopt(fileName_, bytes);
    editor_->reset();
}

LessonSession::RowPlace LessonSession::rowPlace(int row) const {
    return row >= 0 && row < int(rowPlaces_.size()) ? rowPlaces_[size_t(row)] : RowPlace{};
}

void LessonSession::applyBytes(const std::string& bytes) {
    Q_EMIT aboutToRebuild();
    rebuilding_ = true;
    const std::string path =
        filePath_.isEmpty() ? fileName_.toStdString() : filePath_.toStdString();
    // The same source of data files as the lesson being replaced (its folder, its bundle, none
    // for a new lesson), and the bytes it has read already (cachedDataFiles).
    present(parseLesson(bytes, path, lesson_.files), filePath_);
    rebuilding_ = false;
    Q_EMIT rebuilt();
    Q_EMIT edited();
}

void LessonSession::reloadFromBytes(const std::string& bytes) {
    applyBytes(bytes);
    editor_->reset();
}

void LessonSession::setPath(const QString& path) {
    const QString folder = QFileInfo(path).absolutePath();
    // Saved into another folder, or saved for the first time, or out of a bundle: the lesson's
    // {file: PATH} values now come from that folder, as they will when it is opened again.
    // Re-read it when that can change anything: it reads files, or has errors (a file it could
    // not read is one).
    if (folder != dataFolder_ &&
        (!lessonDataFiles(lesson_).empty() || problems_->errorCount() > 0)) {
        dataFolder_ = folder;
        Q_EMIT aboutToRebuild();
        rebuilding_ = true;
        present(parseLesson(working_.serialize(), path.toStdString(), filesBeside(path)), path);
        rebuilding_ = false;
        Q_EMIT rebuilt();
    } else if (folder != dataFolder_) {
        dataFolder_ = folder;
        lesson_.files = filesBeside(path);
    }
    filePath_ = path;
    fileName_ = QFileInfo(path).fileName();
    Q_EMIT opened();
}

QString LessonSession::withBindings(const QString& markdown) const {
    return textWithBindings(markdown.toStdString());
}

QObject* LessonSession::cell(const QString& id) const {
    const auto found = cellModels_.find(id.toStdString());
    return found == cellModels_.end() ? nullptr : found->second;
}

QString LessonSession::documentText() const {
    return QString::fromStdString(working_.serialize());
}

void LessonSession::clearCells() {
    // The views let go of the old cells before they are deleted.
    cells_->setRows({});
    outline_->setHeadings({});
    for (auto& [id, model] : cellModels_) {
        model->deleteLater();
    }
    for (auto& [id, model] : attention_) {
        model->deleteLater(); // also those of cells that never got a row
    }
    cellModels_.clear();
    attention_.clear();
    quizzes_.clear();
    transformers_.clear();
    prose_.clear();
    proseRow_.clear();
    quotedCells_.clear();
    gradientCells_.clear();
    quotedPaths_.clear();
    cellUpdatingChanged(); // the cells that were updating are gone
}

QString LessonSession::textWithBindings(const std::string& text) const {
    const std::vector<ProsePiece> pieces = scanProse(text, 1);
    // Authors' notes (<!-- -->) are not for students (html_comments.h).
    return QString::fromStdString(withoutHtmlComments(substituteBindings(
        text, pieces, [this](const Binding& binding) { return boundMarkdown(binding); },
        [this](const Binding& claim) { return claimMark(claim); })));
}

std::optional<std::string> LessonSession::boundMarkdown(const Binding& binding) const {
    if (awaitsRest(binding)) {
        return std::string("…"); // the gradients or the generation of this what-if are coming
    }
    const BindingValue value = results_.value(binding);
    if (value.value) {
        return escapeMarkdown(formatBoundValue(*value.value, binding.digits));
    }
    if (readsEditedCell(binding)) {
        // The reader's what-if took this value away (an index past the new tokens, a layer
        // switched off): a dash with the mark of a false claim, the reason on hover (issue 22).
        return "— " + whatIfMark(binding.expression + ": " + value.error);
    }
    // A binding that does not resolve as the author wrote it is listed as an error; in the
    // prose it stays visible as what the author wrote.
    return "`{{" + binding.expression + "}}`";
}

bool LessonSession::awaitsRest(const Binding& binding) const {
    for (const BindingPath& path : binding.paths) {
        for (const TransformerCellModel* cell : transformers_) {
            if (cell->cellId().toStdString() == path.cellId && cell->awaits(path)) {
                return true;
            }
        }
    }
    return false;
}

bool LessonSession::readsEditedCell(const Binding& binding) const {
    for (const BindingPath& path : binding.paths) {
        if (const auto cell = attention_.find(path.cellId);
            cell != attention_.end() && cell->second->edited()) {
            return true;
        }
        for (const TransformerCellModel* cell : transformers_) {
            if (cell->edited() && cell->cellId().toStdString() == path.cellId) {
                return true;
            }
        }
    }
    return false;
}

std::string LessonSession::whatIfMark(const std::string& detail) const {
    // A short mark in the sentence; the detail travels in the link, which the prose shows as a
    // tooltip on hover (ProseBlock.qml), not as eight lines of expression.
    const QByteArray encoded = QString::fromStdString(detail).toUtf8().toPercentEncoding();
    return "[**⚠ " + tr("not true for your edit").toStdString() +
           "**](#claim:" + encoded.toStdString() + ")";
}

// A claim shows nothing while it holds. When a what-if makes it false, the
// sentence it guards keeps its words and gets a visible mark (document-format.md).
std::string LessonSession::claimMark(const Binding& claim) const {
    if (awaitsRest(claim)) {
        return {}; // not decided yet: no mark flashes while the gradients are checked
    }
    const ClaimVerdict verdict = evaluateClaim(claim, results_.lookup());
    if (verdict.holds) {
        return {};
    }
    if (!verdict.error.empty()) {
        // A claim that cannot be decided for the reader's what-if does not hold for it; as the
        // author wrote it, its error is listed with the problems instead.
        return readsEditedCell(claim) ? " " + whatIfMark(claim.expression + ": " + verdict.error)
                                      : std::string();
    }
    return " " + whatIfMark(claim.expression + ": " + verdict.sides);
}

QString LessonSession::proseMarkdown(const ProsePieceRow& row) const {
    return QString::fromStdString(withoutHtmlComments(substituteBindings(
        row.text, row.pieces, [this](const Binding& binding) { return boundMarkdown(binding); },
        [this](const Binding& claim) { return claimMark(claim); })));
}

void LessonSession::present(Lesson lesson, const QString& path) {
    clearCells();
    rowPlaces_.clear();
    lesson_ = std::move(lesson);
    working_ = lesson_.document;
    results_ = LessonResults{};

    // Which cells prose and quizzes quote: only those keep their JSON
    // current, and only those quoted for a gradient run the backward pass.
    const auto quote = [this](const ProsePiece& p) {
        if (p.kind != ProsePiece::Kind::Binding) {
            return;
        }
        for (const BindingPath& path : p.binding.paths) {
            quotedCells_.insert(path.cellId);
            std::shared_ptr<JsonSelection>& paths = quotedPaths_[path.cellId];
            if (!paths) {
                paths = std::make_shared<JsonSelection>();
            }
            paths->add(path);
            const auto* first =
                path.steps.empty() ? nullptr : std::get_if<std::string>(&path.steps[0]);
            if (first && (*first == "grad" || *first == "gradcheck")) {
                gradientCells_.insert(path.cellId);
            }
        }
    };
    const Document& doc = lesson_.document;
    for (const Segment& segment : doc.segments) {
        if (!segment.isCell()) {
            for (ProsePieceRow& row : splitProse(segment.prose(), doc.codeBlocks)) {
                std::for_each(row.pieces.begin(), row.pieces.end(), quote);
                prose_.push_back(std::move(row));
            }
        }
    }
    for (const LessonCell& cell : lesson_.cells) {
        if (const QuizCellSpec* quiz = cell.quiz()) {
            std::vector<std::string> texts = quiz->choices;
            texts.push_back(quiz->question);
            texts.push_back(quiz->explain);
            if (quiz->answerKind == QuizCellSpec::AnswerKind::Binding) {
                texts.push_back("{{" + quiz->text + "}}");
            }
            for (const std::string& text : texts) {
                for (const ProsePiece& p : scanProse(text, 1)) {
                    quote(p);
                }
            }
        }
    }

    computeCells();
    const std::vector<Diagnostic> diagnostics = lessonProblems(lesson_, results_);

    std::vector<CellListModel::Row> rows;
    std::vector<OutlineModel::Heading> headings;
    size_t nextProse = 0;
    for (size_t segmentIndex = 0; segmentIndex < doc.segments.size(); ++segmentIndex) {
        const Segment& segment = doc.segments[segmentIndex];
        if (!segment.isCell()) {
            const int last = segment.prose().firstLine + lineCount(segment.prose().text) - 1;
            while (nextProse < prose_.size() && prose_[nextProse].firstLine <= last) {
                const ProsePieceRow& piece = prose_[nextProse];
                const bool lastPiece =
                    nextProse + 1 >= prose_.size() || prose_[nextProse + 1].firstLine > last;
                rowPlaces_.push_back({int(segmentIndex),
                                      piece.firstLine - segment.prose().firstLine, piece.text,
                                      lastPiece});
                if (piece.headingLevel > 0) {
                    headings.push_back({QString::fromStdString(piece.headingTitle),
                                        piece.headingLevel, int(rows.size())});
                }
                proseRow_.push_back(int(rows.size()));
                rows.push_back({QStringLiteral("prose"),
                                QString(),
                                piece.firstLine,
                                piece.lastLine,
                                proseMarkdown(piece),
                                {},
                                nullptr,
                                piece.sampleAnswer});
                ++nextProse;
            }
            continue;
        }
        const CellBlock& block = segment.cell();
        const std::string& id = block.id;
        rowPlaces_.push_back({int(segmentIndex), 0, {}, true});
        CellListModel::Row row{QString::fromLatin1(cellKindName(block.kind)),
                               QString::fromStdString(id),
                               block.openLine,
                               closingLine(block),
                               {},
                               {},
                               nullptr};
        const LessonCell* cell = lesson_.cell(id);
        const ComputedCell* computed = results_.cell(id);
        const bool firstWithId = cellModels_.find(id) == cellModels_.end();
        QObject* model = nullptr;
        if (cell && firstWithId && cell->openLine == block.openLine) {
            if (cell->attention()) {
                model = attention_.count(id) ? attention_.at(id) : nullptr;
            } else if (const QuizCellSpec* quiz = cell->quiz()) {
                QuizCellModel::NumberSource answer;
                if (quiz->answerKind == QuizCellSpec::AnswerKind::Binding) {
                    answer = [this, binding = quiz->text]() -> std::optional<double> {
                        std::string error;
                        const std::optional<Binding> parsed = parseBinding(binding, error);
                        const BindingValue value =
                            parsed ? results_.value(*parsed) : BindingValue{};
                        return value.value && value.value->isNumber()
                                   ? std::optional(value.value->number())
                                   : std::nullopt;
                    };
                } else {
                    answer = [number = quiz->number] { return std::optional(number); };
                }
                auto* quizModel = new QuizCellModel(
                    id, *quiz, [this](const std::string& text) { return textWithBindings(text); },
                    std::move(answer), this);
                quizzes_.push_back(quizModel);
                model = quizModel;
            } else if (const ChartCellSpec* chart = cell->chart();
                       chart && computed && computed->ok) {
                model = new ChartCellModel(id, *chart, computed->series, this);
            } else if (const TransformerCellSpec* transformer = cell->transformer();
                       transformer && computed && computed->ok && computed->transformer) {
                auto* transformerModel =
                    new TransformerCellModel(id, *transformer, computed->transformer, this);
                transformerModel->setKeeper([this](const std::string& cellId, const auto& keys) {
                    return keep(cellId, keys);
                });
                connect(transformerModel, &TransformerCellModel::recomputed, this,
                        [this, id] { transformerRecomputed(id); });
                connect(transformerModel, &TransformerCellModel::updatingChanged, this,
                        &LessonSession::cellUpdatingChanged);
                if (quotedCells_.count(id)) {
                    const auto quoted = quotedPaths_.find(id);
                    transformerModel->setQuoted(quoted != quotedPaths_.end()
                                                    ? quoted->second
                                                    : std::make_shared<const JsonSelection>());
                }
                transformers_.push_back(transformerModel);
                model = transformerModel;
            }
        }
        if (model) {
            cellModels_[id] = model;
            row.cell = model;
        } else {
            // A cell that cannot be shown live shows its source and why.
            row.kind = QStringLiteral("broken");
            row.markdown = QString::fromStdString(block.openFence + block.body + block.closeFence);
            for (const Diagnostic& d : diagnostics) {
                if (d.severity == Severity::Error &&
                    (d.cellId == id || (d.line >= row.firstLine && d.line <= row.lastLine))) {
                    row.problems << QStringLiteral("line %1: %2")
                                        .arg(d.line)
                                        .arg(QString::fromStdString(d.message));
                }
            }
        }
        rows.push_back(std::move(row));
    }

    filePath_ = path;
    fileName_ = path == bundledLessonPath() ? QStringLiteral("attention.md")
                : path.isEmpty()            ? QStringLiteral("untitled.md")
                                            : QFileInfo(path).fileName();
    title_ = QString::fromStdString(lesson_.title());
    subtitle_ = QString::fromStdString(doc.frontMatterValue("subtitle"));
    author_ = QString::fromStdString(doc.frontMatterValue("author"));
    cells_->setRows(std::move(rows));
    outline_->setHeadings(std::move(headings));

    std::vector<ProblemListModel::Problem> problems;
    for (const Diagnostic& d : diagnostics) {
        ProblemListModel::Problem p;
        p.error = d.severity == Severity::Error;
        p.line = d.line;
        p.column = d.column;
        p.message = QString::fromStdString(d.message);
        p.cellId = QString::fromStdString(d.cellId);
        p.location = d.line > 0
                         ? QStringLiteral("%1:%2:%3").arg(fileName_).arg(d.line).arg(d.column)
                         : fileName_;
        p.targetRow = cells_->rowOfCell(p.cellId);
        if (p.targetRow < 0 && d.line > 0) {
            p.targetRow = cells_->rowOfLine(d.line);
            // A blank line between rows: the row just before it.
            for (int i = 0; p.targetRow < 0 && i < cells_->count(); ++i) {
                if (cells_->row(i).firstLine > d.line) {
                    p.targetRow = std::max(0, i - 1);
                }
            }
            if (p.targetRow < 0) {
                p.targetRow = cells_->count() - 1;
            }
        }
        problems.push_back(std::move(p));
    }
    problems_->setProblems(std::move(problems));

    loaded_ = true;
    Q_EMIT opened();
}

// The window computes the lesson as the command line does (computeLesson: the same numbers,
// the same gradient check, the same problems at the same lines), then gives each attention
// cell a model that starts from its computed result and recomputes it after an edit.
void LessonSession::computeCells() {
    attention_.clear();
    ComputePolicy policy;
    // A large cell's JSON is built, at open as after each edit on the worker, for the paths
    // that quote it: its whole JSON would cost more than computing it (and tens of
    // milliseconds to free on the first edit's result).
    policy.json = [this](const LessonCell& cell, const AttentionResult& r) -> JsonRequest {
        if (buildsWholeJson(r)) {
            return {};
        }
        const auto quoted = quotedPaths_.find(cell.id);
        return quoted == quotedPaths_.end() ? JsonRequest{false}
                                            : JsonRequest{true, quoted->second.get()};
    };
    // A transformer cell's JSON, likewise, only where prose and quizzes quote it: its
    // model builds the same paths after each what-if.
    policy.transformerJson = [this](const LessonCell& cell) -> JsonRequest {
        // A small cell's whole JSON (as the command line writes it) costs next to nothing:
        // 65536 numbers, about a millisecond, as for attention cells (buildsWholeJson).
        constexpr double kWholeJsonBytes = 65536 * kJsonTextPerNumber;
        if (const TransformerCellSpec* spec = cell.transformer();
            spec && transformerCost(spec->config).jsonBytes <= kWholeJsonBytes) {
            return {};
        }
        const auto quoted = quotedPaths_.find(cell.id);
        return quoted == quotedPaths_.end() ? JsonRequest{false}
                                            : JsonRequest{true, quoted->second.get()};
    };
    AttentionEngine engine;
    results_ = computeLesson(lesson_, engine, policy);
    for (const LessonCell& cell : lesson_.cells) {
        const AttentionCellSpec* spec = cell.attention();
        const ComputedCell* computed = results_.cell(cell.id);
        if (!spec || lesson_.cell(cell.id) != &cell || !computed || !computed->ok ||
            !computed->attention) {
            continue; // a duplicate id or a cell that does not compute: its error says why
        }
        AttentionCellModel* model = AttentionCellModel::fromComputed(
            cell.id, *spec, computed->attention, gradientCells_.count(cell.id) > 0, this);
        if (const auto quoted = quotedPaths_.find(cell.id); quoted != quotedPaths_.end()) {
            model->setQuoted(quoted->second); // each recompute builds the JSON prose reads
        }
        model->setKeeper(
            [this](const std::string& cellId, const auto& keys) { return keep(cellId, keys); });
        const std::string id = cell.id;
        connect(model, &AttentionCellModel::recomputed, this,
                [this, id] { attentionRecomputed(id); });
        connect(model, &AttentionCellModel::updatingChanged, this,
                &LessonSession::cellUpdatingChanged);
        attention_[cell.id] = model;
    }
}

void LessonSession::attentionRecomputed(const std::string& id) {
    if (quotedCells_.count(id) == 0) {
        return; // nothing quotes this cell: its views redraw on their own
    }
    const AttentionCellModel* model = attention_.at(id);
    for (ComputedCell& computed : results_.cells) {
        if (computed.id == id && computed.attention == model->sharedResult()) {
            return; // the same numbers (a focus moved, an edit kept): the prose stays
        }
        if (computed.id == id) {
            // Built with the result (on the worker for a large cell): only the part the
            // quoting paths read, for a large one.
            if (const std::shared_ptr<const Json> json = model->resultJson()) {
                computed.json = *json;
            }
            computed.attention = model->sharedResult();
        }
    }
    rebindQuotes(id);
}

void LessonSession::transformerRecomputed(const std::string& id) {
    if (quotedCells_.count(id) == 0) {
        return;
    }
    const auto model = std::find_if(
        transformers_.begin(), transformers_.end(),
        [&](const TransformerCellModel* m) { return m->cellId().toStdString() == id; });
    if (model == transformers_.end()) {
        return;
    }
    for (ComputedCell& computed : results_.cells) {
        if (computed.id == id) {
            if (computed.transformer == (*model)->sharedResult()) {
                return; // the same numbers
            }
            computed.transformer = (*model)->sharedResult();
            if (const std::shared_ptr<const Json> json = (*model)->resultJson()) {
                computed.json = *json; // built with the result (on the worker, when large)
            }
        }
    }
    rebindQuotes(id);
}

void LessonSession::rebindQuotes(const std::string& id) {
    for (size_t i = 0; i < prose_.size(); ++i) {
        if (prose_[i].boundCells.count(id)) {
            cells_->setMarkdown(proseRow_[i], proseMarkdown(prose_[i]));
        }
    }
    for (QuizCellModel* quiz : quizzes_) {
        quiz->refresh();
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
    Document edited = working_;
    for (const auto& [key, value] : keys) {
        if (const auto error = setCellKey(edited, id, key, value)) {
            return "cannot keep " + key + ": " + *error;
        }
    }
    std::string before = working_.serialize();
    working_ = std::move(edited);
    // The cell already shows what was kept: the history only records it.
    const QString name =
        keys.size() == 1
            ? QStringLiteral("Set %1.%2")
                  .arg(QString::fromStdString(id), QString::fromStdString(keys[0].first))
            : QStringLiteral("Keep %1").arg(QString::fromStdString(id));
    editor_->recordKept(name, std::move(before), working_.serialize());
    Q_EMIT this->edited();
    return std::nullopt;
}

} // namespace attnbook
