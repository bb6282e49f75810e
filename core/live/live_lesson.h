#pragma once
// An open lesson as a reader changes it: the lesson read from its bytes with its own
// source of data files (its folder, its bundle, or none), what was computed, the working
// document with kept edits, the prose cut into pieces and where each row of the window's column
// sits in the document, which cells the text quotes, and, after a cell's what-if, which prose
// pieces and quizzes quote it, written again. "Keep" writes a cell's what-if into the working
// document. No Qt: the window's LessonSession only adapts this (it owns one, makes the cell
// models and forwards), and doctest checks it.

#include "core/document/lesson.h"
#include "core/live/prose_rebinding.h"
#include "core/present/prose_rows.h"

#include <cstddef>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace attnbook {

class DataFiles;

// Where one row of the window's column sits in the working document.
struct RowPlace {
    int segment = -1;   // index in working().segments
    int lineOffset = 0; // prose: first line of the row within its segment
    std::string text;   // prose: the row's exact bytes
    bool lastInSegment = true;
};

// One row of the column, in document order: a prose piece, or the cell at place.segment.
struct LessonRow {
    RowPlace place;
    int prosePiece = -1; // index in prose(); -1: a cell
    std::string cellId;  // a cell's id
    int firstLine = 0;   // the file lines it shows, its fences included
    int lastLine = 0;
};

// What a cell's what-if wrote again: the prose pieces and quizzes that quote the cell.
struct Rebound {
    struct Prose {
        std::size_t piece = 0; // index in prose()
        int row = 0;           // its row in rows()
        std::string markdown;  // its text now (proseMarkdown)
    };
    std::vector<Prose> prose;
    std::vector<std::string> quizzes; // ids of the quizzes whose text or answer quotes it
    bool empty() const { return prose.empty() && quizzes.empty(); }
};

// What "Keep" wrote into the working document, or why it could not.
struct KeptEdit {
    std::string refused; // "" when kept
    std::string name;    // the edit history's name for it: "Set colour.heads", "Keep colour"
    std::string before;  // the document's bytes before …
    std::string after;   // … and after
    bool kept() const { return refused.empty(); }
};

class LiveLesson {
  public:
    LiveLesson();
    // Its binder reads its results and statuses where they are: one lesson, never copied.
    LiveLesson(const LiveLesson&) = delete;
    LiveLesson& operator=(const LiveLesson&) = delete;

    // Reads the lesson at `path` from `bytes`, its {file: PATH} values from the files beside
    // it (its folder, made absolute now: a later change of the working directory does not
    // move it, and re-reads after edits reuse what it read), and computes it.
    void openBeside(std::string bytes, const std::string& path);
    // A lesson read already (a bundle, the bundled lesson, a new one): computes it. `path` is
    // what later re-reads parse it under; its data files are its own `files` (none when unset).
    void open(Lesson lesson, const std::string& path);
    // The document's bytes changed (an edit, undo or redo, a reload): reads them again with
    // the same path and the same source of data files, which keeps the bytes it read.
    void reread(const std::string& bytes);
    // After Save As: the lesson is at `path` now, and its data files come from that folder, as
    // they will when it is opened again. Returns true when it was read and computed again:
    // rereadsAt(path) said it would.
    bool moveTo(const std::string& path);
    // Whether moveTo(path) reads the lesson again: the folder changes and it reads files, or
    // has errors (a file it could not read is one). Otherwise nothing it shows can change.
    bool rereadsAt(const std::string& path) const;

    const Lesson& lesson() const { return lesson_; }
    const std::string& path() const { return path_; }
    // The folder the lesson's data files come from; "" when they come from a bundle, from the
    // executable, or from nowhere (a new lesson).
    const std::string& dataFolder() const { return dataFolder_; }
    // The next read of the lesson reads its files from its folder again, not the bytes read
    // before: a file beside it was just written (Keep's weights).
    void forgetReadFiles();
    const Document& working() const { return working_; } // the document with kept edits
    const LessonResults& results() const { return results_; }
    // Every problem, in file order (lessonProblems), as last computed.
    const std::vector<Diagnostic>& problems() const { return problems_; }
    std::size_t errorCount() const;

    const std::vector<ProsePieceRow>& prose() const { return prose_; }
    const std::vector<LessonRow>& rows() const { return rows_; }
    RowPlace rowPlace(int row) const;
    // The row a problem points at: its cell's, else the row holding its line (the row before
    // a blank line between rows, the last row past the end); -1 when it names neither.
    int rowOfProblem(const Diagnostic& problem) const;
    // The errors of a cell's row: its own, and those at its lines (why it cannot be live).
    std::vector<const Diagnostic*> errorsOf(const LessonRow& row) const;
    const QuotedCells& quoted() const { return quoted_; }

    // Prose piece `piece` with its bindings written in, as the window shows it now.
    std::string proseMarkdown(std::size_t piece) const;
    // Any text (a quiz's, a preview) with its bindings written in.
    std::string bound(const std::string& text) const;
    // The answer of quiz `id` now: its number, or what its binding gives (nullopt when it
    // gives no number).
    std::optional<double> quizAnswer(const std::string& id) const;

    // The window tells how cell `id` stands under a reader's what-if (until the next open or
    // re-read): values it took away get a mark, values still computed show "…".
    void watch(const std::string& id, LiveCellStatus status);
    // A reader's what-if recomputed cell `id`: its result, and its JSON built with it (nullptr:
    // the JSON is not rebuilt). Returns what quotes the cell, written again; nothing when
    // nothing quotes it or the result is the one at hand (a focus moved, an edit kept).
    Rebound recomputed(const std::string& id, std::shared_ptr<const AttentionResult> result,
                       std::shared_ptr<const Json> json);
    Rebound recomputed(const std::string& id, std::shared_ptr<const TransformerResult> result,
                       std::shared_ptr<const Json> json);

    // "Keep": writes `keys` (YAML values) into cell `id` of the working document. The cell
    // already shows them; the lesson is read again only when the document's bytes are (an undo
    // of the Keep, a save and reopen).
    KeptEdit keep(const std::string& id,
                  const std::vector<std::pair<std::string, std::string>>& keys);

  private:
    // Takes `lesson` as the lesson: quotes, computes, lays out rows.
    void take(Lesson lesson);
    void findQuotes();
    void compute();
    void layOutRows();
    // The prose and quizzes that quote `id`, written again from results_.
    Rebound rebind(const std::string& id) const;

    Lesson lesson_;
    std::string path_;
    std::string dataFolder_;
    Document working_;
    LessonResults results_;
    std::vector<Diagnostic> problems_;
    std::vector<ProsePieceRow> prose_;
    std::vector<int> proseRow_; // the row of each prose piece
    std::vector<LessonRow> rows_;
    QuotedCells quoted_;
    std::vector<std::pair<std::string, std::set<std::string>>> quizQuotes_; // quiz → cells
    LiveCellStatuses statuses_;
    ProseBinder binder_;
};

// The files beside the lesson file at `path`: its folder, made absolute now (a later change of
// the working directory does not move it), keeping the bytes they read for re-reads. A path
// with no folder of its own (empty, a Qt resource ":/…") reads nothing.
std::shared_ptr<const DataFiles> filesBesideLesson(const std::string& path);
// The absolute folder of the lesson file at `path` ("" for a Qt resource).
std::string lessonFolder(const std::string& path);

} // namespace attnbook
