#pragma once
// The live web page's one question to the core (docs/web-page.md): a lesson and a reader's
// what-ifs, in the words of `compute --set` (ID.KEY=YAML), give what the page shows that can
// change — each bound value of the prose as text and each claim's verdict, numbered as the page
// marks them (core/present/live_marks.h), and what became of each what-if. The WebAssembly
// module answers the page with it, and the native tests ask it the same questions, so no
// step runs only in a browser.

#include "core/document/json.h"
#include "core/document/lesson.h"
#include "core/live/reader_controls.h"
#include "core/present/live_marks.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace attnbook {

class AttentionEngine;
class CellRereader;
class JsonSelection;

// A what-if the page did not apply, and why (it is ignored, and the page says so).
struct RefusedWhatIf {
    std::string words; // as given
    std::string why;
};

// What a cell's views show after a what-if, for a cell the what-ifs changed: its one-line
// summary and the HTML of each view the core can write without Qt (an attention cell's
// `matrices` tables, a transformer cell's `next` chances: core/present/view_html.h). A view
// not listed keeps the lesson's picture.
struct LiveCellViews {
    std::string cellId;
    std::string summary = "";                      // "" when the page keeps the lesson's
    std::map<std::string, std::string> views = {}; // view name → its HTML
    // LiveChecks::Later: the views that wait for the second answer (the knock-outs); the page
    // leaves them as they are until it comes.
    std::vector<std::string> pending = {};
    // The views whose HTML is the lesson's own (a temperature leaves the stream as it was): not
    // in `views`; the page shows the lesson's nodes, which it keeps, and parses nothing.
    std::vector<std::string> asLesson = {};
};

// When a recomputed cell's gradient check and a transformer cell's knock-outs run
// (attention.md, transformer.md): with the rest (Now), or after the page has shown the rest
// (Later). They are most of a small transformer cell's time, and only the sentences and views
// that show them wait for them.
enum class LiveChecks { Now, Later };

struct LivePage {
    std::vector<std::string> applied; // the words applied, in order
    std::vector<RefusedWhatIf> refused;
    std::vector<std::string> editedCells; // the cells the applied what-ifs changed
    // Each bound value as a reader reads it (plain text, not Markdown): its value, or "—"
    // when the what-if took it away; `valueNotes` says why for those, "" for the others.
    std::vector<std::string> values;
    std::vector<std::string> valueNotes;
    // Each claim: "" while it holds, else why it does not ("a < b: 0.7 vs 0.5").
    std::vector<std::string> falseClaims;
    // For each cell the what-ifs computed again (edited, or taking an edited cell's model) that
    // has views to redraw.
    std::vector<LiveCellViews> cells;
    // LiveChecks::Later: the values ("…") and claims (unmarked) that read a gradient check or
    // knock-outs still to run; the page asks again with LiveChecks::Now for them (and for the
    // cells' pending views). Empty, with no view pending: complete.
    std::vector<int> pendingValues;
    std::vector<int> pendingClaims;
    bool complete() const;
    // Each edited cell's controls as the what-ifs leave it (reader_controls.h): what the
    // page's widgets show next, so that it need not read the cell again. Not for a cell that
    // takes its model from another edited cell: its controls read only its own what-ifs
    // (cellUnderWhatIfs), and the page asks for them.
    std::vector<ReaderControls> controls;
    // What the values were read from, for the page's quizzes (live_quiz.h); null when no
    // what-if was applied: the lesson's own results.
    std::shared_ptr<const LessonResults> results;
};

// What a caller that asks many times about one lesson keeps between answers; each may be null.
struct LivePageKept {
    const CellRereader* rereader = nullptr; // of the lesson: only the edited cells are read again
    const NumberedProse* prose = nullptr;   // numberedProsePieces(lesson): a what-if changes cells,
                                            // never prose
    // The answer to no what-if: a value or claim that reads no cell the what-ifs compute again
    // is the lesson's own, taken from it rather than worked out again.
    const LivePage* lessonsOwn = nullptr;
    // The lesson's own views of a cell (null: not known), to find the views a what-if leaves as
    // the lesson has them.
    std::function<const LiveCellViews*(const LessonCell&)> lessonViews = {};
    // Filled when not null: the edited cells with controls (those of LivePage::controls) as the
    // answer read them, for the next edit a reader makes of them (cellUnderWhatIfs).
    std::vector<LessonCell>* cellsRead = nullptr;
};

// Only what-ifs a reader may make (the cell's `controls:`, reader_what_ifs.h) are applied; any
// other, one that does not parse, and one the lesson refuses are listed in `refused`. The
// lesson must have computed without errors, to `lessonResults`: the cells the what-ifs leave
// as they were are taken from them, not computed again.
LivePage livePage(const Lesson& lesson, const LessonResults& lessonResults,
                  const std::vector<std::string>& setWords, AttentionEngine& engine,
                  const ComputePolicy& policy = {}, LiveChecks checks = LiveChecks::Now,
                  const LivePageKept& kept = {});

// A lesson open on the live page: its results computed once, each cell's JSON only where the
// prose quotes it (the page reads nothing else), and the last answers kept, so that Reset,
// Undo and a link back cost nothing.
class LivePageSession {
  public:
    // `lesson` must have read without errors; it is kept.
    explicit LivePageSession(Lesson lesson);
    ~LivePageSession();
    LivePageSession(const LivePageSession&) = delete;
    LivePageSession& operator=(const LivePageSession&) = delete;

    // Valid until the next call.
    const LivePage& answer(const std::vector<std::string>& setWords,
                           LiveChecks checks = LiveChecks::Now);

    // Cell `cellId` with the what-ifs `words` of it in force (cellUnderWhatIfs, whose
    // words of other cells it passes over): the last answer's read of the cell when that answer
    // applied exactly these words to it, as a reader's next edit asks; else read again.
    std::optional<LessonCell> cellUnderWhatIfs(const std::vector<std::string>& words,
                                               const std::string& cellId) const;

    // The lesson, and the results of the last answer's what-ifs (the lesson's own before any):
    // what the page's quizzes are judged by (live_quiz.h).
    const Lesson& lesson() const { return lesson_; }
    const LessonResults& currentResults() const {
        return last_ && last_->results ? *last_->results : results_;
    }

  private:
    ComputePolicy quotedJsonOnly() const;
    const LiveCellViews* lessonViewsOf(const LessonCell& cell);

    Lesson lesson_;
    NumberedProse prose_;                                          // of lesson_, read once
    std::map<std::string, std::shared_ptr<JsonSelection>> quoted_; // cell → paths
    std::unique_ptr<AttentionEngine> engine_;
    std::unique_ptr<CellRereader> rereader_; // of lesson_: a what-if reads its cells alone
    LessonResults results_;
    LivePage lessonsOwn_; // the answer to no what-if
    // Each cell's own views, made the first time a what-if computes the cell again.
    std::map<std::string, std::optional<LiveCellViews>> lessonViews_;
    struct Kept {
        std::vector<std::string> words;
        LiveChecks checks;
        LivePage page;
    };
    std::vector<Kept> recent_; // newest last
    struct CellRead {
        std::vector<std::string> words; // the cell's own, in the order applied
        LessonCell cell;
    };
    std::map<std::string, CellRead> lastCellsRead_; // the last computed answer's, by cell
    const LivePage* last_ = nullptr;                // the last answer, in recent_
};

// The page's answer as JSON: {"applied", "refused": [{"words", "why"}], "edited", "values",
// "valueNotes", "falseClaims", "cells": {ID: {"summary", "views": {VIEW: HTML}, "pending",
// "asLesson"}},
// "complete", "pendingValues", "pendingClaims", "controls": {ID: readerControlsJson}}.
Json livePageJson(const LivePage& page);

} // namespace attnbook
