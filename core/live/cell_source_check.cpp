#include "core/live/cell_source_check.h"

#include "core/document/data_files.h"
#include "core/document/document_edits.h"
#include "core/document/lesson.h"
#include "core/live/live_lesson.h"
#include "core/math/attention_engine.h"

#include <algorithm>
#include <set>

namespace attnbook {
namespace {

// `all` split into the problems of the cell (its id, or its lines first..last) and the errors
// elsewhere that are not among `now` (the lesson has those already: not this edit's doing).
void sortOut(const std::vector<Diagnostic>& all, const std::vector<Diagnostic>& now,
             const std::string& id, int first, int last, std::vector<Diagnostic>& own,
             std::vector<Diagnostic>& elsewhere) {
    std::multiset<std::string> errorsNow;
    for (const Diagnostic& d : now) {
        if (d.severity == Severity::Error) {
            errorsNow.insert(d.message);
        }
    }
    for (const Diagnostic& d : all) {
        if (d.cellId == id || (d.line >= first && d.line <= last)) {
            own.push_back(d);
        } else if (d.severity == Severity::Error) {
            const auto known = errorsNow.find(d.message);
            if (known != errorsNow.end()) {
                errorsNow.erase(known);
            } else {
                elsewhere.push_back(d);
            }
        }
    }
}

} // namespace

std::vector<Diagnostic> cellSourceProblems(const CellCheckLesson& in, const std::string& id,
                                           const std::string& body) {
    Document edited = in.working;
    if (!edited.findCell(id)) {
        return {{Severity::Error, 0, 0, "there is no cell '" + id + "'", id}};
    }
    const std::string text = typedCellBody(body, edited.lineEnding);
    edited.setCellBody(id, text);
    // No source of files reads none (never the files beside the process).
    const Lesson lesson =
        parseLesson(edited.serialize(), in.path, in.files ? in.files : noDataFiles());
    AttentionEngine engine;
    const LessonResults results = computeLesson(lesson, engine);

    const CellBlock* cell = lesson.document.findCell(id);
    const int first = cell ? cell->openLine : 0;
    const int last =
        cell ? cell->bodyFirstLine + int(std::count(text.begin(), text.end(), '\n')) : 0;
    std::vector<Diagnostic> own, elsewhere;
    sortOut(lessonProblems(lesson, results), in.now, id, first, last, own, elsewhere);
    std::stable_sort(own.begin(), own.end(), [](const Diagnostic& a, const Diagnostic& b) {
        return (a.severity == Severity::Error) > (b.severity == Severity::Error);
    });
    // An error the edit causes elsewhere outranks the cell's own warnings.
    const bool ownError = !own.empty() && own.front().severity == Severity::Error;
    own.insert(ownError ? own.end() : own.begin(), elsewhere.begin(), elsewhere.end());
    return own;
}

std::vector<Diagnostic> cellSourceProblems(const LiveLesson& live, const std::string& id,
                                           const std::string& body) {
    return cellSourceProblems({live.working(), live.path(), live.lesson().files, live.problems()},
                              id, body);
}

int lineInCellBody(const Document& working, const std::string& id, const std::string& body,
                   const Diagnostic& problem) {
    const CellBlock* cell = working.findCell(id);
    if (!cell || problem.line == 0) {
        return -1;
    }
    const int line = problem.line - cell->bodyFirstLine;
    return line >= 0 && line <= int(std::count(body.begin(), body.end(), '\n')) ? line : -1;
}

} // namespace attnbook
