#pragma once
// One cell of a lesson read again after an edit of its body, alone. The what-if sweep tries
// thousands of edits of one cell each; reading the whole lesson again for each made it
// quadratic in the lesson's size (200 small cells: 44 s, nearly all of it in the YAML parser).
// The cells before the edited one are unchanged, so what a transformer cell's `model:` may name
// (docs/transformer.md, "A shared model") is read once, when the re-reader is made.

#include "core/document/cell_editor.h"
#include "core/document/lesson.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace attnbook {

class CellRereader {
  public:
    explicit CellRereader(const Lesson& lesson);

    // The cell `cellId` as parseLesson would read it from `edited`, a copy of the lesson's
    // document whose only change is in that cell's body. Its problems go to `diagnostics`.
    // nullopt when the lesson has no such cell.
    // `sets`: the keys setCellKey set in that cell, in order, when it knows them: then the
    // body is not parsed again where parsedBodyAfterSets can take it from the lesson's.
    std::optional<LessonCell> reread(const Document& edited, const std::string& cellId,
                                     std::vector<Diagnostic>& diagnostics,
                                     const std::vector<KeySet>& sets = {}) const;

  private:
    const Lesson& lesson_;
    // Each transformer cell's body with its shared model, in document order: what a cell below
    // it may name.
    std::vector<std::pair<std::string, std::optional<YamlNode>>> modelBodies_;
};

} // namespace attnbook
