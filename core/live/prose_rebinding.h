#pragma once
// Prose and quiz text with their bindings written in, as the window shows them while a reader
// changes cells: which cells the text quotes and by which JSON paths, and how a bound
// value or a claim reads under a what-if — its number, "…" while the rest of the what-if is
// still computed, a dash with a mark when the what-if took the value away, and the mark of a
// claim the what-if made false. No Qt: the live lesson (live_lesson.h) keeps one of each, and
// doctest checks them.

#include "core/document/bindings.h"
#include "core/document/lesson.h"
#include "core/document/result_json.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace attnbook {

// Which cells prose and quizzes quote, and by which JSON paths: only those keep their JSON
// current after a what-if, and only those quoted for a gradient run the backward pass.
class QuotedCells {
  public:
    // Records every binding among `pieces`; returns the cells they read.
    std::set<std::string> add(const std::vector<ProsePiece>& pieces);

    bool quoted(const std::string& id) const { return paths_.count(id) > 0; }
    // Some binding reads the cell's gradients or their check.
    bool quotedForGradients(const std::string& id) const { return gradients_.count(id) > 0; }
    // The paths that quote cell `id`, or nullptr when nothing does.
    std::shared_ptr<const JsonSelection> paths(const std::string& id) const;

  private:
    std::set<std::string> gradients_;
    std::map<std::string, std::shared_ptr<JsonSelection>> paths_;
};

// What the text asks of a cell a reader changes; the window answers from its cell models.
struct LiveCellStatus {
    // A reader's what-if changed the cell: a value it took away shows a mark, not the binding.
    std::function<bool()> edited;
    // Unset, or whether the value at a path is still being computed for the what-if (a
    // transformer cell's gradients, their check, its generation): the text shows "…" until then.
    std::function<bool(const BindingPath&)> awaits;
};
using LiveCellStatuses = std::map<std::string, LiveCellStatus>;

// Writes bindings in from `results`, under the what-ifs `statuses` report. Both are read at
// each call, so one binder serves a lesson for as long as it is open.
class ProseBinder {
  public:
    ProseBinder(const LessonResults& results, const LiveCellStatuses& statuses)
        : results_(results), statuses_(statuses) {}

    // `text` cut into `pieces` (scanProse), with every binding and claim written in and the
    // authors' notes (<!-- -->) left out: they are not for students.
    std::string bound(std::string_view text, const std::vector<ProsePiece>& pieces) const;
    // The same for text not yet scanned (a quiz's question, a preview in the editor).
    std::string bound(const std::string& text) const;

    // A bound value as prose shows it: its text, "…" while it is being computed, a dash with a
    // mark when a reader's what-if took it away, or the binding as written when the author's
    // own cell gives no value (then it is listed with the problems).
    std::optional<std::string> boundMarkdown(const Binding& binding) const;
    // Nothing while a claim holds; the mark of a false claim when a what-if makes it false.
    std::string claimMark(const Binding& claim) const;

  private:
    bool awaitsRest(const Binding& binding) const;
    bool readsEditedCell(const Binding& binding) const;

    const LessonResults& results_;
    const LiveCellStatuses& statuses_;
};

// The mark of a sentence a what-if made false: a short link whose target carries `detail`,
// which the prose shows as a tooltip on hover (ProseBlock.qml) rather than as the expression.
std::string whatIfMark(const std::string& detail);

// `text` with every byte but A–Z a–z 0–9 - . _ ~ written as %XX (RFC 3986, as a URL's
// fragment carries it, and as QML's decodeURIComponent reads it back).
std::string percentEncoded(std::string_view text);

} // namespace attnbook
