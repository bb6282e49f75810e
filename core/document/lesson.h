#pragma once
// A lesson: its document, each cell read into its spec, and every problem
// found on the way. The steps are separate, as in nbformat: parse (Document),
// read (cell specs), compute (LessonResults), check (bindings and lint).

#include "core/document/bindings.h"
#include "core/document/cell_cost.h"
#include "core/document/cell_reader.h"
#include "core/document/chart_series.h"
#include "core/document/document.h"
#include "core/document/json.h"
#include "core/math/attention_engine.h"
#include "core/math/transformer_result.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>

namespace attnbook {

struct LessonCell {
    std::string id;
    CellKind kind = CellKind::Attention;
    int openLine = 0;

    // What the body read: its spec (empty when the cell has errors), positions and files.
    const ReadCell& read() const { return *read_; }
    void setRead(ReadCell read) { read_ = std::make_shared<ReadCell>(std::move(read)); }
    // The read to change in place: this cell's own, copied first while another cell shares it.
    ReadCell& readToChange();

    const AttentionCellSpec* attention() const {
        return std::get_if<AttentionCellSpec>(&read_->spec);
    }
    const QuizCellSpec* quiz() const { return std::get_if<QuizCellSpec>(&read_->spec); }
    const ChartCellSpec* chart() const { return std::get_if<ChartCellSpec>(&read_->spec); }
    const TransformerCellSpec* transformer() const {
        return std::get_if<TransformerCellSpec>(&read_->spec);
    }

  private:
    // Shared by the copies of a cell: a what-if copies the lesson and reads only the cells it
    // edits again, and a model's weights are most of a cell (copy on write: readToChange).
    // Changed only through readToChange, while no other cell shares it.
    std::shared_ptr<ReadCell> read_ = std::make_shared<ReadCell>();
};

struct Lesson {
    Document document;
    std::vector<LessonCell> cells;
    std::vector<Diagnostic> diagnostics; // reading problems; compute adds its own
    // Where the cells' {file: PATH} values were read from: the lesson's
    // folder, or the bundle it was opened from (data_files.h).
    std::shared_ptr<const DataFiles> files;

    const LessonCell* cell(const std::string& id) const;
    std::string title() const { return document.title(); }
};

// Reads a lesson from its bytes. Always returns a lesson; problems are in
// its diagnostics (a file that is not text has no cells). {file: PATH}
// values are read from `files`; null: the files beside `path` on disk
// (dataFilesBeside), right for a file just read from there. A re-read of a
// lesson already open passes that lesson's `files` (its folder, its bundle,
// none for a new one): a path alone cannot say where they came from.
Lesson parseLesson(std::string bytes, const std::string& path,
                   std::shared_ptr<const DataFiles> files = nullptr);

// Every file the lesson's cells read (PATH as written, once each, in the
// order the cells read them): what a bundle carries as data/files/PATH.
std::vector<std::string> lessonDataFiles(const Lesson& lesson);
// Reads a lesson file; a file that cannot be read gives one diagnostic at line 0.
Lesson loadLesson(const std::string& path);

struct ComputedCell {
    std::string id;
    CellKind kind = CellKind::Attention;
    bool ok = false;
    Json json;
    std::shared_ptr<const AttentionResult> attention;
    std::vector<ChartSeries> series;
    std::shared_ptr<const TransformerResult> transformer;
    // What computing the cell was charged (cell_cost.h): a what-if that takes the cell as it
    // was charges it again without working it out.
    std::optional<CellCost> cost = std::nullopt;
};

struct LessonResults {
    std::vector<ComputedCell> cells; // the lesson's valid cells, in order
    std::vector<Diagnostic> diagnostics;

    const ComputedCell* cell(const std::string& id) const;
    // The bound value as prose shows it, or nullopt when it does not resolve.
    std::optional<std::string> boundText(const Binding& binding) const;
    BindingValue value(const Binding& binding) const;
    const Json* bound(const BindingPath& path, std::string& error) const;
    PathLookup lookup() const;
};

// A quiz's answer as `compute` prints it: the choice index, the number, the
// text, or the full double a binding answer resolves to (an error in
// `results.diagnostics` when it does not resolve).
Json resolveQuizAnswer(const LessonCell& cell, const QuizCellSpec& quiz, LessonResults& results);

class JsonSelection; // result_json.h

// How much of each cell's result computeLesson writes out as JSON (what bindings, `compute` and
// the bundle read). The command line wants all of it; the window only what prose and quizzes
// quote, since a 512-token cell's JSON costs more than computing it.
struct JsonRequest {
    bool wanted = true;
    const JsonSelection* only = nullptr; // the paths to build; nullptr: the whole JSON
};
struct ComputePolicy {
    // The JSON a cell needs; unset: every cell's whole JSON.
    std::function<JsonRequest(const LessonCell&, const AttentionResult&)> json;
    // The same for a transformer cell (a GPT-2-sized one's whole JSON, its gradients
    // included, is hundreds of megabytes).
    std::function<JsonRequest(const LessonCell&)> transformerJson;
    // An attention, transformer or chart cell computed before, to take as it is instead of
    // computing it again (the what-if sweep changes one cell at a time; a chart's formulas read
    // no cell); unset or nullptr: compute.
    std::function<const ComputedCell*(const LessonCell&)> reuse;
    // Whether an attention or transformer cell's gradient check runs (attention.md,
    // transformer.md: most of a small cell's time); unset: always. The live web page runs it
    // only where its prose quotes the check (docs/web-page.md).
    std::function<bool(const LessonCell&)> gradientCheck;
    // Whether a transformer cell computes the knock-outs it asks for (transformer.md: L·h + 2L
    // forward passes more); unset: always. The live web page's first answer to a what-if
    // leaves them, with the gradient check, for its second (docs/web-page.md).
    std::function<bool(const LessonCell&)> knockouts;
    // A training cell's training done before, to take instead of training again, for a cell
    // that differs from the one trained only in its prompt (withPromptOf,
    // transformer_training.h): unset or nullptr: train.
    std::function<std::shared_ptr<const TrainingResult>(const LessonCell&)> training;
};

// Computes every cell that read without errors: the one implementation the command line, the
// window and every export share, so all of them show the same numbers and the same problems.
LessonResults computeLesson(const Lesson& lesson, AttentionEngine& engine,
                            const ComputePolicy& policy = {});

// The bindings in prose and quiz text: errors for those that do not resolve
// and for claims that are false, warnings for `{{` left unclosed and for
// hand-typed numbers that equal a cell's value (they go stale when the cell changes).
// With `FalseClaims::AreListed`, a false claim is not an error: `compute` after
// --set what-ifs lists it in its "claims" instead (docs/lesson-format.md). With
// `FalseClaims::AreListedWithBrokenBindings` (a reader's what-if, which never makes a lesson
// unusable) neither is a binding, in prose, quiz text or a quiz's answer, that no
// longer resolves: "claims" lists it as not holding, with why (lessonBrokenBindings).
enum class FalseClaims { AreErrors, AreListed, AreListedWithBrokenBindings };
std::vector<Diagnostic> checkLesson(const Lesson& lesson, const LessonResults& results,
                                    FalseClaims falseClaims = FalseClaims::AreErrors);

// The cell a quiz is about: its `cell:`, else the first cell its question, answer or
// explanation binds; empty when there is none.
std::string quizSubject(const LessonCell& quiz);

// Every problem of a lesson in file order: reading, computing, bindings, claims
// and the lint. `check`, `compute`, every export and the window list these.
std::vector<Diagnostic> lessonProblems(const Lesson& lesson, const LessonResults& results,
                                       FalseClaims falseClaims = FalseClaims::AreErrors);

// One `{{? EXPR}}` of the document and whether it holds for the computed numbers.
struct LessonClaim {
    int line = 0;
    int column = 0;
    std::string cellId; // the quiz that holds it; empty in prose
    std::string expression;
    ClaimVerdict verdict;
};

// Every claim in prose and quiz text, in file order.
std::vector<LessonClaim> lessonClaims(const Lesson& lesson, const LessonResults& results);

// Every binding that is not a claim (in prose, quiz text and a quiz's answer) and does not
// resolve, in file order, each with `verdict.error` saying why and `verdict.holds` false. A
// binding into a cell that has an error of its own is not listed: that error says why.
std::vector<LessonClaim> lessonBrokenBindings(const Lesson& lesson, const LessonResults& results);

// The `compute` JSON of the whole lesson, or of one cell when `onlyCell` is set. Its "claims"
// lists every claim, and every binding that does not resolve, by line: {"line", "expr",
// "holds"}, with "unresolved": WHY when it cannot be evaluated. `fileLine`
// maps a line of `lesson` to the file's (a --set what-if may move lines); unset: the same.
Json lessonJson(const Lesson& lesson, const LessonResults& results,
                const std::string& onlyCell = {}, const std::function<int(int)>& fileLine = {});

} // namespace attnbook
