#pragma once
// The what-if sweep of `check --what-ifs` (and of `check --strict`): every what-if a
// reader can make with a cell's controls (readerWhatIfs) is applied and recomputed, and each
// prose sentence that may have become false without a mark is reported:
//
//   - its bound numbers or tokens changed (the rendered sentence differs), and it has no claim
//     that the sweep ever sees fail: a claim that always holds guards nothing;
//   - or its words name what the what-if changed ("causal" when the mask changed, "√" or
//     "scale" when the scale did, "three tokens" when a token went, a token named by hand as
//     *cat*, `cat` or "cat" when the row now holds another word), and none of its claims
//     fails in any what-if of that setting: a claim about something else does not guard it;
//
// unless a claim in the sentence or its paragraph is false for that what-if (the window marks
// it for the reader), or the author marked the sentence `<!-- general -->`: its words hold
// whatever the numbers are. A sentence is about the cells it or its paragraph binds; one that
// binds nothing is about the cells of its section.

#include "core/document/diagnostic.h"
#include "core/document/lesson.h"

#include <functional>
#include <string>
#include <vector>

namespace attnbook {

struct SweepReport {
    std::vector<Diagnostic> warnings; // one per sentence, at the sentence
    size_t whatIfs = 0;               // how many what-ifs were tried
};

// One what-if of the sweep, as reports name it.
struct SweepWhatIf {
    std::string cellId;
    std::string key;     // the key it changes ("mask", "tokens"), or a view's control ("norm")
    std::string setting; // "playground.mask=causal (causal mask)", "tiny: norm off (a view)"
    std::string now;     // "mask: causal", "norm off"
};

// What sweeping `whatIfs` what-ifs of `cell` costs, in multiply-adds (cell_cost.h): each
// edits and reads again the cell's body (`cellBytes` long), computes the cell, and has every
// sentence of the lesson (`lessonBytes` long) read.
double sweepWork(const LessonCell& cell, size_t whatIfs, size_t cellBytes, size_t lessonBytes);

// Applies each what-if a reader can make (readerWhatIfs and readerViewWhatIfs of every cell
// that computes) and calls `visit` with the lesson's results under it. Only the changed cell
// is computed again; a what-if its cell cannot compute is skipped, as the window refuses it.
// The sweep is charged before each cell's what-ifs run: a cell whose what-ifs would take the
// whole sweep past the work limit (costLimits, --max-work) is skipped, and `skipped` (when
// given) gets a warning at the cell that says so with the estimate. Returns how many ran.
size_t
forEachReaderWhatIf(const Lesson& lesson, const LessonResults& results, AttentionEngine& engine,
                    const std::function<void(const SweepWhatIf&, const LessonResults&)>& visit,
                    std::vector<Diagnostic>* skipped = nullptr);

SweepReport sweepReaderWhatIfs(const Lesson& lesson, const LessonResults& results,
                               AttentionEngine& engine);

} // namespace attnbook
