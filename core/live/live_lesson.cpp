#include "core/live/live_lesson.h"

#include "core/document/cell_cost.h"
#include "core/document/cell_editor.h"
#include "core/document/data_files.h"
#include "core/document/result_json.h"
#include "core/math/attention_engine.h"

#include <algorithm>
#include <filesystem>

namespace attnbook {
namespace {

// The lesson file's absolute path, or `path` itself when it has no folder of its own.
std::string absoluteLessonPath(const std::string& path) {
    if (path.empty() || path.front() == ':') {
        return path; // a Qt resource (":/documents/…"): nothing on disk beside it
    }
    std::error_code error;
    const std::filesystem::path absolute = std::filesystem::absolute(path, error);
    return error ? path : absolute.lexically_normal().string();
}

int closingLine(const CellBlock& block) {
    return block.bodyFirstLine + lineCount(block.body) - (block.closed ? 0 : 1);
}

// Takes `result` as cell `id`'s (and `json`, when built, as its JSON). False when the cell
// holds this result already: the same numbers, nothing to write again.
template <class Result>
bool takeResult(LessonResults& results, const std::string& id,
                std::shared_ptr<const Result> ComputedCell::*slot,
                const std::shared_ptr<const Result>& result,
                const std::shared_ptr<const Json>& json) {
    for (ComputedCell& computed : results.cells) {
        if (computed.id != id) {
            continue;
        }
        if (computed.*slot == result) {
            return false;
        }
        if (json) {
            computed.json = *json; // built with the result (on the worker, for a large cell)
        }
        computed.*slot = result;
    }
    return true;
}

// The texts of a quiz that may quote cells: its choices, question, explanation and a bound
// answer.
std::vector<std::string> quizTexts(const QuizCellSpec& quiz) {
    std::vector<std::string> texts = quiz.choices;
    texts.push_back(quiz.question);
    texts.push_back(quiz.explain);
    if (quiz.answerKind == QuizCellSpec::AnswerKind::Binding) {
        texts.push_back("{{" + quiz.text + "}}");
    }
    return texts;
}

} // namespace

std::shared_ptr<const DataFiles> filesBesideLesson(const std::string& path) {
    return dataFilesBeside(absoluteLessonPath(path)); // cached already
}

std::string lessonFolder(const std::string& path) {
    if (!path.empty() && path.front() == ':') {
        return {};
    }
    return std::filesystem::path(absoluteLessonPath(path)).parent_path().string();
}

LiveLesson::LiveLesson() : binder_(results_, statuses_) {}

void LiveLesson::openBeside(std::string bytes, const std::string& path) {
    path_ = path;
    dataFolder_ = lessonFolder(path);
    take(parseLesson(std::move(bytes), path, filesBesideLesson(path)));
}

void LiveLesson::open(Lesson lesson, const std::string& path) {
    path_ = path;
    dataFolder_.clear(); // a bundle's or the executable's own files, or none
    if (!lesson.files) {
        lesson.files = noDataFiles(); // nothing beside it to read (not the working directory)
    }
    take(std::move(lesson));
}

void LiveLesson::reread(const std::string& bytes) {
    // The same source of data files as the lesson being replaced (its folder, its bundle, none
    // for a new lesson), and the bytes it has read already (cachedDataFiles).
    take(parseLesson(bytes, path_, lesson_.files));
}

void LiveLesson::forgetReadFiles() {
    if (!dataFolder_.empty()) {
        lesson_.files = filesBesideLesson(path_);
    }
}

bool LiveLesson::rereadsAt(const std::string& path) const {
    return lessonFolder(path) != dataFolder_ &&
           (!lessonDataFiles(lesson_).empty() || errorCount() > 0);
}

bool LiveLesson::moveTo(const std::string& path) {
    const std::string folder = lessonFolder(path);
    const bool rereads = rereadsAt(path);
    path_ = path;
    if (folder == dataFolder_) {
        return false;
    }
    dataFolder_ = folder;
    if (!rereads) {
        lesson_.files = filesBesideLesson(path); // nothing it reads can change
        return false;
    }
    take(parseLesson(working_.serialize(), path, filesBesideLesson(path)));
    return true;
}

std::size_t LiveLesson::errorCount() const {
    return std::size_t(std::count_if(problems_.begin(), problems_.end(), [](const Diagnostic& d) {
        return d.severity == Severity::Error;
    }));
}

RowPlace LiveLesson::rowPlace(int row) const {
    return row >= 0 && row < int(rows_.size()) ? rows_[std::size_t(row)].place : RowPlace{};
}

int LiveLesson::rowOfProblem(const Diagnostic& problem) const {
    const auto first = [&](auto&& matches) {
        const auto found = std::find_if(rows_.begin(), rows_.end(), matches);
        return found == rows_.end() ? -1 : int(found - rows_.begin());
    };
    if (!problem.cellId.empty()) {
        if (const int row = first([&](const LessonRow& r) { return r.cellId == problem.cellId; });
            row >= 0) {
            return row;
        }
    }
    if (problem.line <= 0) {
        return -1;
    }
    if (const int row = first([&](const LessonRow& r) {
            return problem.line >= r.firstLine && problem.line <= r.lastLine;
        });
        row >= 0) {
        return row;
    }
    const int after = first([&](const LessonRow& r) { return r.firstLine > problem.line; });
    return after >= 0 ? std::max(0, after - 1) : int(rows_.size()) - 1;
}

std::vector<const Diagnostic*> LiveLesson::errorsOf(const LessonRow& row) const {
    std::vector<const Diagnostic*> errors;
    for (const Diagnostic& d : problems_) {
        if (d.severity == Severity::Error &&
            (d.cellId == row.cellId || (d.line >= row.firstLine && d.line <= row.lastLine))) {
            errors.push_back(&d);
        }
    }
    return errors;
}

std::string LiveLesson::proseMarkdown(std::size_t piece) const {
    const ProsePieceRow& row = prose_.at(piece);
    return binder_.bound(row.text, row.pieces);
}

std::string LiveLesson::bound(const std::string& text) const {
    return binder_.bound(text);
}

std::optional<double> LiveLesson::quizAnswer(const std::string& id) const {
    const LessonCell* cell = lesson_.cell(id);
    const QuizCellSpec* quiz = cell ? cell->quiz() : nullptr;
    if (!quiz) {
        return std::nullopt;
    }
    if (quiz->answerKind != QuizCellSpec::AnswerKind::Binding) {
        return quiz->number;
    }
    std::string error;
    const std::optional<Binding> parsed = parseBinding(quiz->text, error);
    const BindingValue value = parsed ? results_.value(*parsed) : BindingValue{};
    return value.value && value.value->isNumber() ? std::optional(value.value->number())
                                                  : std::nullopt;
}

void LiveLesson::watch(const std::string& id, LiveCellStatus status) {
    statuses_[id] = std::move(status);
}

Rebound LiveLesson::recomputed(const std::string& id, std::shared_ptr<const AttentionResult> result,
                               std::shared_ptr<const Json> json) {
    if (!quoted_.quoted(id)) {
        return {}; // nothing quotes this cell: its views redraw on their own
    }
    return takeResult(results_, id, &ComputedCell::attention, result, json) ? rebind(id)
                                                                            : Rebound{};
}

Rebound LiveLesson::recomputed(const std::string& id,
                               std::shared_ptr<const TransformerResult> result,
                               std::shared_ptr<const Json> json) {
    if (!quoted_.quoted(id)) {
        return {};
    }
    return takeResult(results_, id, &ComputedCell::transformer, result, json) ? rebind(id)
                                                                              : Rebound{};
}

KeptEdit LiveLesson::keep(const std::string& id,
                          const std::vector<std::pair<std::string, std::string>>& keys) {
    KeptEdit out;
    Document edited = working_;
    for (const auto& [key, value] : keys) {
        if (const auto error = setCellKey(edited, id, key, value)) {
            out.refused = "cannot keep " + key + ": " + *error;
            return out;
        }
    }
    out.before = working_.serialize();
    working_ = std::move(edited);
    out.after = working_.serialize();
    out.name = keys.size() == 1 ? "Set " + id + "." + keys[0].first : "Keep " + id;
    return out;
}

void LiveLesson::take(Lesson lesson) {
    lesson_ = std::move(lesson);
    working_ = lesson_.document;
    statuses_.clear(); // the window watches the new lesson's cells
    findQuotes();
    compute();
    layOutRows();
}

void LiveLesson::findQuotes() {
    quoted_ = QuotedCells{};
    prose_.clear();
    quizQuotes_.clear();
    const Document& doc = lesson_.document;
    for (const Segment& segment : doc.segments) {
        if (!segment.isCell()) {
            for (ProsePieceRow& row : splitProse(segment.prose(), doc.codeBlocks)) {
                quoted_.add(row.pieces);
                prose_.push_back(std::move(row));
            }
        }
    }
    for (const LessonCell& cell : lesson_.cells) {
        if (const QuizCellSpec* quiz = cell.quiz()) {
            std::set<std::string> read;
            for (const std::string& text : quizTexts(*quiz)) {
                read.merge(quoted_.add(scanProse(text, 1)));
            }
            quizQuotes_.emplace_back(cell.id, std::move(read));
        }
    }
}

// The window computes the lesson as the command line does (computeLesson: the same numbers,
// the same gradient check, the same problems at the same lines).
void LiveLesson::compute() {
    ComputePolicy policy;
    // A large cell's JSON is built, at open as after each edit on the worker, for the paths
    // that quote it: its whole JSON would cost more than computing it (and tens of
    // milliseconds to free on the first edit's result).
    policy.json = [this](const LessonCell& cell, const AttentionResult& r) -> JsonRequest {
        if (buildsWholeJson(r)) {
            return {};
        }
        const auto paths = quoted_.paths(cell.id);
        return paths ? JsonRequest{true, paths.get()} : JsonRequest{false};
    };
    // A transformer cell's JSON, likewise, only where prose and quizzes quote it: its model
    // builds the same paths after each what-if.
    policy.transformerJson = [this](const LessonCell& cell) -> JsonRequest {
        // A small cell's whole JSON (as the command line writes it) costs next to nothing:
        // 65536 numbers, about a millisecond, as for attention cells (buildsWholeJson).
        constexpr double kWholeJsonBytes = 65536 * kJsonTextPerNumber;
        if (const TransformerCellSpec* spec = cell.transformer();
            spec && transformerCost(spec->config).jsonBytes <= kWholeJsonBytes) {
            return {};
        }
        const auto paths = quoted_.paths(cell.id);
        return paths ? JsonRequest{true, paths.get()} : JsonRequest{false};
    };
    AttentionEngine engine;
    results_ = computeLesson(lesson_, engine, policy);
    problems_ = lessonProblems(lesson_, results_);
}

void LiveLesson::layOutRows() {
    rows_.clear();
    proseRow_.clear();
    const Document& doc = lesson_.document;
    std::size_t next = 0;
    for (std::size_t segmentIndex = 0; segmentIndex < doc.segments.size(); ++segmentIndex) {
        const Segment& segment = doc.segments[segmentIndex];
        if (segment.isCell()) {
            const CellBlock& block = segment.cell();
            rows_.push_back({{int(segmentIndex), 0, {}, true},
                             -1,
                             block.id,
                             block.openLine,
                             closingLine(block)});
            continue;
        }
        const ProseBlock& block = segment.prose();
        const int last = block.firstLine + lineCount(block.text) - 1;
        for (; next < prose_.size() && prose_[next].firstLine <= last; ++next) {
            const ProsePieceRow& piece = prose_[next];
            const bool lastPiece = next + 1 >= prose_.size() || prose_[next + 1].firstLine > last;
            proseRow_.push_back(int(rows_.size()));
            rows_.push_back(
                {{int(segmentIndex), piece.firstLine - block.firstLine, piece.text, lastPiece},
                 int(next),
                 {},
                 piece.firstLine,
                 piece.lastLine});
        }
    }
}

Rebound LiveLesson::rebind(const std::string& id) const {
    Rebound out;
    for (std::size_t i = 0; i < prose_.size(); ++i) {
        if (prose_[i].boundCells.count(id) && i < proseRow_.size()) {
            out.prose.push_back({i, proseRow_[i], proseMarkdown(i)});
        }
    }
    for (const auto& [quiz, cells] : quizQuotes_) {
        if (cells.count(id)) {
            out.quizzes.push_back(quiz);
        }
    }
    return out;
}

} // namespace attnbook
