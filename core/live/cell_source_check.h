#pragma once
// The YAML editor's check of a cell before Apply (no Qt): the problems the lesson
// would have with a new body as one cell's, found by the whole-lesson check that
// `attnbook check` runs (reading, computing, bindings, claims), so that an error only the
// computation finds (heads: 3 at width 4) or one it causes elsewhere (a binding to a head that
// is gone) shows before Apply. The lesson is read with its own source of data files (its
// folder, or its bundle), so a {file: PATH} value is found wherever attnbook was started (it
// once looked beside the process's working directory, and real-head.md opened from elsewhere
// had "no such file").

#include "core/document/diagnostic.h"

#include <memory>
#include <string>
#include <vector>

namespace attnbook {

class DataFiles;
class LiveLesson;
class Document;

// The lesson a body is checked in.
struct CellCheckLesson {
    const Document& working;                // the working document, with kept edits
    std::string path;                       // the name the lesson is read under
    std::shared_ptr<const DataFiles> files; // where its {file: PATH} values come from
    const std::vector<Diagnostic>& now;     // its problems now
};

// The problems of the lesson with `body` (as the editor holds it: textForEditing) as cell
// `id`'s: the cell's own first, errors before warnings; then the errors elsewhere that the
// lesson does not have now (an error elsewhere comes first when the cell has only warnings).
// Empty when the body is fine.
std::vector<Diagnostic> cellSourceProblems(const CellCheckLesson& lesson, const std::string& id,
                                           const std::string& body);
// The same in the open lesson: its working document, path, data files and problems.
std::vector<Diagnostic> cellSourceProblems(const LiveLesson& live, const std::string& id,
                                           const std::string& body);

// The line of `problem` within `body` as cell `id` of `working` (0: the first line of the
// YAML); −1 for a problem elsewhere or of the whole file.
int lineInCellBody(const Document& working, const std::string& id, const std::string& body,
                   const Diagnostic& problem);

} // namespace attnbook
