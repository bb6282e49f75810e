#pragma once
// `--set ID.KEY=YAML`: a what-if edit of one top-level key of one cell,
// applied through the same cell editor the window and `edit` use.

#include "core/document/lesson.h"

#include <optional>
#include <string>
#include <vector>

namespace attnbook {

class CellRereader; // core/document/cell_reread.h

struct SetOption {
    std::string cellId;
    std::string key;
    std::string value;
    std::string label() const { return "--set " + cellId + "." + key; }
};

// Parses "ID.KEY=YAML"; nullopt with `error` when it has no '=' or no '.'.
std::optional<SetOption> parseSetOption(const std::string& text, std::string& error);

struct WhatIf {
    Lesson lesson;
    LessonResults results;
    // "--set colour.heads: error: ..." for each set the lesson refuses.
    std::vector<std::string> errors;
    Document original; // the document as the file has it
    // Every set changes a key its cell's controls let a reader change (readerMayChange): a
    // what-if the window allows, which never makes the lesson unusable.
    bool byReader = false;

    // The file's line for a line of the what-if document: an edited cell may grow or
    // shrink, moving everything after it. A line inside an edited cell maps to its fence.
    int originalLine(int line) const;
};

// Applies every set to `lesson`, re-reads and recomputes it. Errors that
// the sets introduce are attributed to them; the lesson's own errors are
// left in its diagnostics.
//
// `lessonResults`, when given, are `lesson`'s own results: they are not computed again, and a
// cell the sets leave as it was (its text unchanged, naming no set cell) is taken from them
// rather than computed again (the live web page asks after every what-if).
// `policy` says how much JSON each computed cell builds (its `reuse` is this function's).
// `rereader`, when given (made from `lesson`), reads only the set cells again rather than the
// whole lesson (cell_reread.h), unless a set changes a model another cell may take
// (shared_model.h): the rest of the lesson is the same text.
WhatIf applyWhatIf(const Lesson& lesson, const std::vector<SetOption>& sets,
                   AttentionEngine& engine, const LessonResults* lessonResults = nullptr,
                   ComputePolicy policy = {}, const CellRereader* rereader = nullptr);

} // namespace attnbook
