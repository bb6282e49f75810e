#pragma once
// Every edit an author makes in the window, as the lesson's bytes after it (the
// window's DocumentEditor only records them in its undo history and re-reads the lesson):
// prose rewritten, a cell's YAML replaced, cells inserted, duplicated, deleted, moved and
// renamed. Text comes as the editor holds it ("\n" line ends, no final one, textForEditing)
// and is written with the document's own line ends; every byte the edit does not touch is
// written back as it was read (document_edits.h).

#include "core/document/document_edits.h"
#include "core/live/live_lesson.h"

#include <functional>
#include <string>
#include <vector>

namespace attnbook {

// One edit of the working document, or why it was refused.
struct AuthoringEdit {
    std::string refused;    // "" when made
    std::string name;       // the undo history's name for it: "Edit prose", "Insert quiz1"
    std::string before;     // the document's bytes before …
    std::string after;      // … and after
    std::string showCellId; // the cell to show after it; "": the view stays
    bool made() const { return refused.empty(); }
    // Made, and the bytes differ (rewriting prose as it was changes nothing to record).
    bool changes() const { return made() && before != after; }
};

// The edits of one working document (it must outlive this).
class AuthoringEdits {
  public:
    explicit AuthoringEdits(const Document& working) : working_(working) {}

    // Rewrites prose row `row` (at `place`) as `markdown`.
    AuthoringEdit setProse(int row, const RowPlace& place, const std::string& markdown) const;
    // Replaces the YAML body of cell `id`.
    AuthoringEdit setCellSource(const std::string& id, const std::string& body) const;
    // Inserts a `kind` (prose, attention, quiz or chart) below row `row` (at `place`; row −1:
    // at the top). A new cell's body is the one of its kind in `templateLesson` (the bytes of
    // the bundled template.md), a quiz's bindings pointed at the nearest attention cell above.
    AuthoringEdit insertBelow(int row, const RowPlace& place, const std::string& kind,
                              const std::string& templateLesson) const;
    AuthoringEdit duplicate(const std::string& id) const;
    AuthoringEdit remove(const std::string& id) const;
    // `direction` < 0: up; otherwise down.
    AuthoringEdit move(const std::string& id, int direction) const;
    AuthoringEdit rename(const std::string& id, const std::string& newId) const;

  private:
    AuthoringEdit made(std::string name, const Document& edited, std::string showCellId) const;

    const Document& working_;
};

// The body of a new `kind` cell, from the lesson `templateLesson` (template.md's bytes): its
// cell of that kind; a quiz's {{example.…}} bindings renamed to `attentionId`'s (with none, its
// answer a number to replace). A chart or a transformer, which the template does not show, gets a
// first one (a one-layer model of four colour words).
std::string newCellBody(const std::string& templateLesson, const std::string& kind,
                        const std::string& attentionId);

// Paths a binding may use, from the computed results ("colour.head[0].weights[0][1]"), those
// `wanted` keeps, at most `limit`. (The window matches what the author typed, case ignored, with
// Qt's Unicode folding.)
std::vector<std::string> bindingPaths(const LessonResults& results,
                                      const std::function<bool(const std::string&)>& wanted,
                                      int limit);

} // namespace attnbook
