// A lesson from its bytes to its results: parse, compute each cell under the cost limits, then
// the claims and bindings over the results. Checking its prose against the results is
// lesson_checks.cpp.
#include "core/document/lesson.h"

#include "core/document/bindings.h"
#include "core/document/cell_cost.h"
#include "core/document/data_files.h"
#include "core/document/matrix_names.h"
#include "core/document/result_json.h"
#include "core/math/transformer_engine.h"
#include "core/math/transformer_stages.h"

#include <algorithm>
#include <map>
#include <new>
#include <tuple>

namespace attnbook {

ReadCell& LessonCell::readToChange() {
    if (read_.use_count() != 1) {
        read_ = std::make_shared<ReadCell>(*read_); // this cell's own from now on
    }
    return *read_;
}

const LessonCell* Lesson::cell(const std::string& id) const {
    for (const LessonCell& c : cells) {
        if (c.id == id) {
            return &c;
        }
    }
    return nullptr;
}

namespace {

// One error per missing data file, not one per value that reads it: "KEY: PATH: no such file in
// the lesson's folder" for the 36 tensors of one model file gave 36 errors, and a new lesson
// with no folder one per value. The first stays, at its place and naming its key, and says how
// many values read the file.
void collapseMissingDataFiles(std::vector<Diagnostic>& diagnostics) {
    struct Seen {
        size_t first;
        int count;
    };
    std::map<std::string, Seen> seen; // by PATH and reason ("" for no folder at all)
    std::vector<Diagnostic> kept;
    for (Diagnostic& d : diagnostics) {
        std::string group;
        const std::string noFolder = std::string(": ") + kNoFolderYet;
        const std::string noFile = std::string(": ") + kNoSuchDataFile;
        const bool folderless =
            d.message.size() > noFolder.size() &&
            d.message.compare(d.message.size() - noFolder.size(), noFolder.size(), noFolder) == 0;
        const bool missing =
            d.message.size() > noFile.size() &&
            d.message.compare(d.message.size() - noFile.size(), noFile.size(), noFile) == 0;
        const size_t keyEnd = d.message.find(": ");
        if (d.severity == Severity::Error && (folderless || missing) &&
            keyEnd != std::string::npos) {
            // "KEY: PATH: reason": PATH alone names what is missing.
            group = folderless ? std::string(kNoFolderYet) : d.message.substr(keyEnd + 2);
        }
        if (group.empty()) {
            kept.push_back(std::move(d));
            continue;
        }
        auto [it, fresh] = seen.try_emplace(group, Seen{kept.size(), 0});
        ++it->second.count;
        if (fresh) {
            kept.push_back(std::move(d));
        }
    }
    for (const auto& [group, s] : seen) {
        if (s.count > 1) {
            kept[s.first].message +=
                " (" + std::to_string(s.count) + " values read it; the first is here)";
        }
    }
    diagnostics = std::move(kept);
}

// A transformer cell computes its knock-outs when it shows them (its reader decides) or when
// the lesson's text reads them: any "ID.knockout" in prose, a quiz or a chart. A mention that
// is not a binding costs only the passes.
void askForQuotedKnockouts(Lesson& lesson) {
    std::string text;
    for (LessonCell& cell : lesson.cells) {
        if (!cell.transformer()) {
            continue;
        }
        auto* spec = std::get_if<TransformerCellSpec>(&cell.readToChange().spec);
        if (text.empty()) {
            text = lesson.document.serialize();
        }
        spec->knockoutsQuoted = text.find(cell.id + ".knockout") != std::string::npos;
        spec->config.knockouts = spec->config.knockouts || spec->knockoutsQuoted;
    }
}

} // namespace

Lesson parseLesson(std::string bytes, const std::string& path,
                   std::shared_ptr<const DataFiles> files) {
    Lesson lesson;
    lesson.document.path = path;
    lesson.files = files ? std::move(files) : dataFilesBeside(path);
    if (bytes.empty()) {
        lesson.diagnostics.push_back(
            {Severity::Error, 1, 1, "the file is empty: a lesson needs at least a heading", ""});
        return lesson;
    }
    std::optional<SourceText> text = decodeSource(std::move(bytes), lesson.diagnostics);
    if (!text) {
        return lesson;
    }
    ParsedDocument parsed = parseDocument(*text, path);
    lesson.document = std::move(parsed.document);
    lesson.diagnostics = std::move(parsed.diagnostics);
    ModelBodies models; // the transformer cells read so far, for `model: ID`
    for (const CellBlock* block : lesson.document.cells()) {
        LessonCell cell;
        cell.id = block->id;
        cell.kind = block->kind;
        cell.openLine = block->openLine;
        cell.setRead(readCell(*block, lesson.diagnostics, lesson.files.get(), &models));
        lesson.cells.push_back(std::move(cell));
    }
    collapseMissingDataFiles(lesson.diagnostics);
    askForQuotedKnockouts(lesson);
    return lesson;
}

std::vector<std::string> lessonDataFiles(const Lesson& lesson) {
    std::vector<std::string> out;
    for (const LessonCell& cell : lesson.cells) {
        for (const std::string& file : cell.read().dataFiles) {
            if (std::find(out.begin(), out.end(), file) == out.end()) {
                out.push_back(file);
            }
        }
    }
    return out;
}

Lesson loadLesson(const std::string& path) {
    std::string error;
    std::optional<std::string> bytes = readFileBytes(path, error);
    if (!bytes) {
        Lesson lesson;
        lesson.document.path = path;
        lesson.diagnostics.push_back({Severity::Error, 0, 0, error, ""});
        return lesson;
    }
    return parseLesson(std::move(*bytes), path);
}

const ComputedCell* LessonResults::cell(const std::string& id) const {
    for (const ComputedCell& c : cells) {
        if (c.id == id) {
            return &c;
        }
    }
    return nullptr;
}

const Json* LessonResults::bound(const BindingPath& path, std::string& error) const {
    const ComputedCell* c = cell(path.cellId);
    if (!c) {
        std::vector<std::string> ids;
        for (const ComputedCell& other : cells) {
            ids.push_back(other.id);
        }
        error = "no cell '" + path.cellId + "' to bind to" + didYouMean(path.cellId, ids);
        return nullptr;
    }
    return resolveBindingPath(c->json, path, error);
}

PathLookup LessonResults::lookup() const {
    return [this](const BindingPath& path, std::string& error) { return bound(path, error); };
}

BindingValue LessonResults::value(const Binding& binding) const {
    return evaluateBinding(binding, lookup());
}

std::optional<std::string> LessonResults::boundText(const Binding& binding) const {
    const BindingValue result = value(binding);
    if (!result.value) {
        return std::nullopt;
    }
    return formatBoundValue(*result.value, binding.digits);
}

namespace {

GradientCheck gradientCheckOf(const LessonCell& cell, const ComputePolicy& policy) {
    return !policy.gradientCheck || policy.gradientCheck(cell) ? GradientCheck::Run
                                                               : GradientCheck::Skip;
}

void computeAttention(const LessonCell& cell, const AttentionCellSpec& spec,
                      AttentionEngine& engine, const ComputePolicy& policy,
                      LessonResults& results) {
    ComputedCell out{cell.id, cell.kind, false, {}, nullptr, {}, nullptr};
    auto result = std::make_shared<AttentionResult>();
    try {
        engine.compute(spec.config, *result, gradientCheckOf(cell, policy));
        const JsonRequest json = policy.json ? policy.json(cell, *result) : JsonRequest{};
        if (json.wanted) {
            out.json = attentionJson(cell.id, *result, json.only);
        }
        out.attention = result;
        out.ok = true;
        for (const AttentionWarning& w : result->warnings) {
            results.diagnostics.push_back(
                {Severity::Warning, cell.openLine, 1, cell.id + ": " + w.message, cell.id});
        }
    } catch (const InvalidConfig& e) {
        const ConfigError& error = e.error();
        FilePosition at = cell.read().positions.of(error.key, error.row, error.col);
        // A key the author left at its default (W_Q: identity) is decided by
        // the widths the author did write (the name table's decidedBy): point there.
        const InputMatrixName* named = inputMatrixOfKey(error.key);
        const std::vector<const char*> decidedBy = named ? named->decidedBy
                                                   : error.key == "heads"
                                                       ? std::vector<const char*>{"d_k", "d_v"}
                                                       : std::vector<const char*>{};
        if (at.line == 0) {
            for (const char* other : decidedBy) {
                at = cell.read().positions.of(other);
                if (at.line != 0) {
                    break;
                }
            }
        }
        if (at.line == 0) {
            at = {cell.openLine, 1};
        }
        std::string message = error.message;
        if (const auto from = spec.loadedFrom.find(error.key); from != spec.loadedFrom.end()) {
            message += " — read from " + from->second; // the shape came from a file
        }
        results.diagnostics.push_back({Severity::Error, at.line, at.column, message, cell.id});
    } catch (const std::bad_alloc&) {
        results.diagnostics.push_back(
            {Severity::Error, cell.openLine, 1, "not enough memory to compute this cell", cell.id});
    }
    results.cells.push_back(std::move(out));
}

// Where a configuration error of a transformer cell points: the value the math names
// ("layers[0].ffn.W_1", row, col), else the nearest written part of its path ("layers[0].ffn",
// "layers[0]", "layers"), else the cell's fence.
FilePosition transformerErrorPosition(const LessonCell& cell, const ConfigError& error) {
    std::string key = error.key;
    FilePosition at = cell.read().positions.of(key, error.row, error.col);
    while (at.line == 0 && !key.empty()) {
        const size_t cut = key.find_last_of(".[");
        key = cut == std::string::npos ? std::string() : key.substr(0, cut);
        at = cell.read().positions.of(key);
    }
    return at.line == 0 ? FilePosition{cell.openLine, 1} : at;
}

void computeTransformer(const LessonCell& cell, const TransformerCellSpec& spec,
                        const AttentionEngine& attention, const ComputePolicy& policy,
                        LessonResults& results) {
    ComputedCell out{cell.id, cell.kind, false, {}, nullptr, {}, nullptr};
    TransformerEngine engine(TransformerLimits{attention.limits()});
    try {
        // A cell that trains shows the weights of its shown step (docs/training.md).
        std::shared_ptr<const TrainingResult> training;
        const std::shared_ptr<const TrainingResult> trainedBefore =
            spec.training && policy.training ? policy.training(cell) : nullptr;
        if (trainedBefore) {
            auto retaken = std::make_shared<TrainingResult>(*trainedBefore);
            retaken->weights = withPromptOf(trainedBefore->weights, spec.config);
            training = std::move(retaken);
        } else if (spec.training && spec.beforeViews) {
            // Trained as written; the reader's views switch what the trained cell shows.
            TransformerConfig asWritten = transformer::sharedWeights(spec.config);
            asWritten.run = spec.beforeViews->run;
            for (size_t l = 0; l < asWritten.layers.size(); ++l) {
                asWritten.layers[l].attention.mask = spec.beforeViews->masks[l];
            }
            auto trained = std::make_shared<TrainingResult>(
                trainTransformer(asWritten, *spec.training, engine.limits()));
            trained->weights = withPromptOf(trained->weights, spec.config);
            training = std::move(trained);
        } else if (spec.training) {
            training = std::make_shared<const TrainingResult>(
                trainTransformer(spec.config, *spec.training, engine.limits()));
        }
        const Knockouts knockouts =
            !policy.knockouts || policy.knockouts(cell) ? Knockouts::AsAsked : Knockouts::Skip;
        auto result = std::make_shared<TransformerResult>(engine.compute(
            training ? training->weights : spec.config, gradientCheckOf(cell, policy), knockouts));
        result->training = training;
        if (training && !training->stopped.empty()) {
            const FilePosition at = transformerErrorPosition(cell, {"train", "", -1, -1});
            results.diagnostics.push_back({Severity::Warning, at.line, at.column,
                                           cell.id + ": " + training->stopped, cell.id});
        }
        const JsonRequest json =
            policy.transformerJson ? policy.transformerJson(cell) : JsonRequest{};
        if (json.wanted) {
            out.json = transformerJson(cell.id, *result, json.only);
        }
        if (!result->generation.refused.empty()) {
            const FilePosition at = transformerErrorPosition(cell, {"generate", "", -1, -1});
            results.diagnostics.push_back({Severity::Warning, at.line, at.column,
                                           cell.id + ": " + result->generation.refused, cell.id});
        }
        for (const TransformerLayerResult& layer : result->layers) {
            for (const AttentionWarning& w : layer.attention.warnings) {
                results.diagnostics.push_back(
                    {Severity::Warning, cell.openLine, 1, cell.id + ": " + w.message, cell.id});
            }
        }
        out.transformer = std::move(result);
        out.ok = true;
    } catch (const InvalidConfig& e) {
        const ConfigError& error = e.error();
        const FilePosition at = transformerErrorPosition(cell, error);
        std::string message = error.message;
        if (const auto from = spec.loadedFrom.find(error.key); from != spec.loadedFrom.end()) {
            message += " — read from " + from->second;
        }
        results.diagnostics.push_back({Severity::Error, at.line, at.column, message, cell.id});
    } catch (const std::bad_alloc&) {
        results.diagnostics.push_back(
            {Severity::Error, cell.openLine, 1, "not enough memory to compute this cell", cell.id});
    }
    results.cells.push_back(std::move(out));
}

// Adds the cell's estimated cost to `spent`; when that passes the limits, refuses the cell
// (an error naming it, its line and the estimate) before anything is allocated for it.
bool refuseCostlyCell(const LessonCell& cell, const CellCost& cost, CellCost& spent,
                      LessonResults& results) {
    CellCost total = spent;
    total += cost;
    const std::string why = costProblem(total, costLimits());
    if (why.empty()) {
        spent = total;
        return false;
    }
    const bool alone = costProblem(cost, costLimits()) == why;
    results.diagnostics.push_back({Severity::Error, cell.openLine, 1,
                                   "cell '" + cell.id + "' is too costly to compute" +
                                       (alone ? "" : " after the cells before it") + ": " + why,
                                   cell.id});
    results.cells.push_back({cell.id, cell.kind, false, {}, nullptr, {}, nullptr});
    return true;
}

} // namespace

Json resolveQuizAnswer(const LessonCell& cell, const QuizCellSpec& quiz, LessonResults& results) {
    switch (quiz.answerKind) {
    case QuizCellSpec::AnswerKind::Choice:
        return Json(quiz.choice);
    case QuizCellSpec::AnswerKind::Number:
        return Json(quiz.number);
    case QuizCellSpec::AnswerKind::Text:
        return Json(quiz.text);
    case QuizCellSpec::AnswerKind::Binding:
        break;
    }
    const FilePosition at = cell.read().positions.of("answer");
    const std::optional<Binding>& binding = quiz.answerBinding;
    const BindingValue value = binding && !binding->claim
                                   ? results.value(*binding)
                                   : BindingValue{std::nullopt, quiz.answerBindingError};
    if (!value.value || !value.value->isNumber()) {
        results.diagnostics.push_back(
            {Severity::Error, at.line, at.column,
             "the answer {{" + quiz.text + "}} " +
                 (value.value ? "is not a number" : "does not resolve: " + value.error),
             cell.id});
        return Json();
    }
    return *value.value;
}

namespace {

// A cell whose shared model (`model: ID`) did not compute fails as that cell did: its problem is
// said once, where the model is written, and here only at the `model:` value.
bool modelFailed(const LessonCell& cell, const TransformerCellSpec& spec, LessonResults& results) {
    if (!spec.sharedModel) {
        return false;
    }
    const ComputedCell* named = results.cell(spec.sharedModel->cell);
    if (named && named->ok) {
        return false;
    }
    const FilePosition at = cell.read().positions.of("model");
    results.diagnostics.push_back({Severity::Error, at.line, at.column,
                                   "model: the cell '" + spec.sharedModel->cell +
                                       "' does not compute; its model is used once it does",
                                   cell.id});
    return true;
}

} // namespace

LessonResults computeLesson(const Lesson& lesson, AttentionEngine& engine,
                            const ComputePolicy& policy) {
    LessonResults results;
    // Attention and chart cells first: quiz answers may bind to them.
    CellCost spent; // by the cells computed so far (cell_cost.h)
    for (const LessonCell& cell : lesson.cells) {
        const ComputedCell* before =
            policy.reuse && (cell.attention() || cell.transformer() || cell.chart())
                ? policy.reuse(cell)
                : nullptr;
        // A cell taken as it was costs what it cost then: its validation is most of the
        // cost's estimate, and a what-if takes most cells of a lesson as they were.
        const CellCost cost = before && before->cost ? *before->cost : cellCost(cell);
        if (refuseCostlyCell(cell, cost, spent, results)) {
            continue;
        }
        const size_t computedBefore = results.cells.size();
        if (before) {
            results.cells.push_back(*before);
        } else if (const AttentionCellSpec* spec = cell.attention()) {
            computeAttention(cell, *spec, engine, policy, results);
        } else if (const TransformerCellSpec* transformer = cell.transformer()) {
            if (modelFailed(cell, *transformer, results)) {
                continue;
            }
            computeTransformer(cell, *transformer, engine, policy, results);
        } else if (const ChartCellSpec* chart = cell.chart()) {
            ComputedCell out{cell.id, cell.kind, false, {}, nullptr, {}, nullptr};
            out.ok = computeChartSeries(*chart, cell.id, out.series, results.diagnostics);
            out.json = chartJson(cell.id, out.series);
            results.cells.push_back(std::move(out));
        }
        if (results.cells.size() > computedBefore) {
            results.cells.back().cost = cost;
        }
    }
    for (const LessonCell& cell : lesson.cells) {
        if (const QuizCellSpec* quiz = cell.quiz()) {
            ComputedCell out{cell.id, cell.kind, true, {}, nullptr, {}, nullptr};
            out.json = quizJson(cell.id, resolveQuizAnswer(cell, *quiz, results));
            results.cells.push_back(std::move(out));
        }
    }
    // Back into document order, in one pass (a lesson may have thousands of cells): each
    // lesson cell takes the first computed cell of its id not yet taken.
    std::map<std::string, std::vector<size_t>> computedAt; // by id, last first
    for (size_t i = results.cells.size(); i-- > 0;) {
        computedAt[results.cells[i].id].push_back(i);
    }
    std::vector<ComputedCell> ordered;
    for (const LessonCell& cell : lesson.cells) {
        const auto found = computedAt.find(cell.id);
        if (!cell.id.empty() && found != computedAt.end() && !found->second.empty()) {
            ordered.push_back(std::move(results.cells[found->second.back()]));
            found->second.pop_back();
        }
    }
    results.cells = std::move(ordered);
    return results;
}

std::string quizSubject(const LessonCell& cell) {
    const QuizCellSpec* quiz = cell.quiz();
    if (!quiz) {
        return {};
    }
    if (!quiz->cell.empty()) {
        return quiz->cell;
    }
    const std::string answer =
        quiz->answerKind == QuizCellSpec::AnswerKind::Binding ? "{{" + quiz->text + "}}" : "";
    for (const std::string* text : {&quiz->question, &answer, &quiz->explain}) {
        for (const ProsePiece& piece : scanProse(*text, 1)) {
            if (piece.kind == ProsePiece::Kind::Binding && !piece.binding.paths.empty()) {
                return piece.binding.paths.front().cellId;
            }
        }
    }
    return {};
}

namespace {

// Calls `visit(piece, cellId)` for every binding piece in prose and quiz text (cellId: the
// quiz's, else empty).
void visitBindings(const Lesson& lesson,
                   const std::function<void(const ProsePiece&, const std::string&)>& visit) {
    const auto scan = [&](std::string_view text, int line, int column,
                          const std::vector<LineRange>& code, const std::string& cellId) {
        for (const ProsePiece& piece : scanProse(text, line, column, code)) {
            if (piece.kind == ProsePiece::Kind::Binding) {
                visit(piece, cellId);
            }
        }
    };
    for (const Segment& segment : lesson.document.segments) {
        if (!segment.isCell()) {
            const ProseBlock& prose = segment.prose();
            scan(prose.text, prose.firstLine, 1, lesson.document.codeBlocks, "");
        }
    }
    for (const LessonCell& cell : lesson.cells) {
        if (const QuizCellSpec* quiz = cell.quiz()) {
            const auto fromKey = [&](const std::string& key, const std::string& text) {
                const FilePosition at = cell.read().positions.of(key);
                scan(text, at.line, at.column, {}, cell.id);
            };
            fromKey("question", quiz->question);
            for (const std::string& choice : quiz->choices) {
                fromKey("choices", choice);
            }
            fromKey("explain", quiz->explain);
        }
    }
}

void sortByPosition(std::vector<LessonClaim>& claims) {
    std::stable_sort(claims.begin(), claims.end(), [](const LessonClaim& a, const LessonClaim& b) {
        return std::tie(a.line, a.column) < std::tie(b.line, b.column);
    });
}

// Whether a path of `binding` reads a cell that exists but has no values (its own error says
// why), so that the binding's failure says nothing new.
bool readsAFailedCell(const Lesson& lesson, const LessonResults& results, const Binding& binding) {
    return std::any_of(binding.paths.begin(), binding.paths.end(), [&](const BindingPath& path) {
        const ComputedCell* computed = results.cell(path.cellId);
        return lesson.cell(path.cellId) && (!computed || !computed->ok);
    });
}

} // namespace

std::vector<LessonClaim> lessonClaims(const Lesson& lesson, const LessonResults& results) {
    std::vector<LessonClaim> claims;
    visitBindings(lesson, [&](const ProsePiece& piece, const std::string& cellId) {
        if (piece.binding.claim) {
            claims.push_back({piece.line, piece.column, cellId, piece.binding.expression,
                              evaluateClaim(piece.binding, results.lookup())});
        }
    });
    sortByPosition(claims);
    return claims;
}

std::vector<LessonClaim> lessonBrokenBindings(const Lesson& lesson, const LessonResults& results) {
    std::vector<LessonClaim> broken;
    const auto check = [&](const Binding& binding, int line, int column,
                           const std::string& cellId) {
        if (readsAFailedCell(lesson, results, binding)) {
            return;
        }
        const BindingValue value = results.value(binding);
        if (!value.value) {
            ClaimVerdict verdict;
            verdict.error = value.error;
            broken.push_back({line, column, cellId, binding.expression, verdict});
        }
    };
    visitBindings(lesson, [&](const ProsePiece& piece, const std::string& cellId) {
        if (!piece.binding.claim) {
            check(piece.binding, piece.line, piece.column, cellId);
        }
    });
    for (const LessonCell& cell : lesson.cells) {
        const QuizCellSpec* quiz = cell.quiz();
        if (quiz && quiz->answerKind == QuizCellSpec::AnswerKind::Binding) {
            std::string error;
            const std::optional<Binding> binding = parseBinding(quiz->text, error);
            const FilePosition at = cell.read().positions.of("answer");
            if (binding && !binding->claim) {
                check(*binding, at.line, at.column, cell.id);
            }
        }
    }
    sortByPosition(broken);
    return broken;
}

Json lessonJson(const Lesson& lesson, const LessonResults& results, const std::string& onlyCell,
                const std::function<int(int)>& fileLine) {
    Json out = Json::object();
    out.set("title", lesson.title());
    std::vector<LessonClaim> listed = lessonClaims(lesson, results);
    const std::vector<LessonClaim> broken = lessonBrokenBindings(lesson, results);
    listed.insert(listed.end(), broken.begin(), broken.end());
    sortByPosition(listed);
    Json::Array claims;
    for (const LessonClaim& claim : listed) {
        Json o = Json::object();
        o.set("line", fileLine ? fileLine(claim.line) : claim.line)
            .set("expr", claim.expression)
            .set("holds", claim.verdict.holds);
        if (!claim.verdict.error.empty()) {
            o.set("unresolved", claim.verdict.error);
        }
        claims.push_back(std::move(o));
    }
    out.set("claims", Json(std::move(claims)));
    Json::Array cells;
    for (const ComputedCell& cell : results.cells) {
        if (onlyCell.empty() || cell.id == onlyCell) {
            cells.push_back(cell.json);
        }
    }
    out.set("cells", Json(std::move(cells)));
    return out;
}

} // namespace attnbook
