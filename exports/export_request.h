#pragma once
// One export, asked the same way by the command line (`attnbook export`, cli.md) and by the
// window (File → Export): what to render, with which options, and where it goes.
//
// The work is in three steps, each with one implementation:
//   1. the options' text is read by one set of rules (readPaper, readVariants, readSeed,
//      readRoster): a bad paper size is refused everywhere, never silently A4;
//   2. renderExport() reads and computes the lesson's bytes, refuses a document with errors,
//      and renders every asked part into bytes (nothing is written);
//   3. writeExport() checks every target (none twice, none an input, each writable) and writes
//      them all atomically together (OutputBatch): on failure no target has changed.
// The command line runs the three in a row; the window renders on a worker thread for its
// preview, and writes when the user picks where.

#include "core/document/data_files.h"
#include "core/document/diagnostic.h"
#include "exports/paint/pdf_style.h"
#include "exports/worksheet/worksheet_pdf.h"
#include "files/export_control.h"

#include <QtCore/QByteArray>
#include <QtCore/QString>
#include <QtCore/QStringList>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace attnbook {

struct Lesson;

// What to render. More than one part may be asked at once (the command line allows it).
struct ExportRequest {
    bool lessonPdf = false;
    bool worksheet = false;
    bool answers = false; // the worksheet's key (only with worksheet)
    bool bundle = false;
    bool notebook = false; // the lesson as a Jupyter notebook (lesson_notebook.h)
    bool html = false;     // the lesson as one offline web page (lesson_html.h)
    Paper paper = Paper::A4;
    int variants = 0; // 0: the lesson's own numbers
    std::uint64_t seed = 1;
    QStringList roster; // student names, in order; empty: none

    bool empty() const { return !lessonPdf && !worksheet && !bundle && !notebook && !html; }
    // Why the request cannot be rendered whatever the lesson ("--answers goes with the
    // worksheet"), or "".
    QString problem() const;
    WorksheetOptions worksheetOptions() const;
};

// The options' text, read by one set of rules. nullopt with `error` (a sentence naming the
// option, e.g. "the paper is a4 or letter, not b5") when the text is not valid.
std::optional<Paper> readPaper(const QString& text, QString* error);
std::optional<int> readVariants(const QString& text, QString* error);
std::optional<std::uint64_t> readSeed(const QString& text, QString* error);

// One rendered file. `role` says what it is: "lesson", "worksheet", "answers", "roster",
// "bundle", "notebook", "html"; `preview` is a PDF to show for it when the file itself is not
// one (a bundle's lesson.pdf).
struct RenderedPart {
    QString role;
    QByteArray bytes;
};

struct RenderedExport {
    std::vector<RenderedPart> parts; // lesson, worksheet, answers, roster, bundle, notebook, html
    QByteArray bundlePreview;        // the bundle's lesson.pdf, for the window to show
    int worksheetPages = 0;
    int answerPages = 0;
    int bundleEntries = 0;          // manifest included
    std::vector<Diagnostic> errors; // InvalidDocument: every error, in document order
    // The worksheet's different answers per question, among its variants.
    std::vector<QuestionSpread> worksheetSpread;

    const RenderedPart* part(const QString& role) const;
};

// Reads and computes the lesson (`bytes` of the file at `path`, its {file: PATH} values read
// from `files`: the source the open lesson keeps, Lesson::files), then renders what `request`
// asks. InvalidDocument (with the first error's line and column) when the lesson has any error;
// Failed when a worksheet is asked of a lesson with nothing to put on one; Refused when its
// variants cannot differ (nothing varies, or a question has fewer answers than variants).
ExportResult renderExport(const std::string& bytes, const std::string& path,
                          std::shared_ptr<const DataFiles> files, const ExportRequest& request,
                          RenderedExport* out, const ExportControl& control = {});
// The same for a lesson already read (the command line reads bundles too).
ExportResult renderExport(const Lesson& lesson, const ExportRequest& request, RenderedExport* out,
                          const ExportControl& control = {});

// Where each rendered part goes.
struct ExportTargets {
    QString lessonPdf, worksheet, answers, bundle, notebook, html;
    // The roster CSV beside the worksheet: "sheets.pdf" → "sheets-roster.csv".
    QString roster() const;
    QString of(const QString& role) const;
    // The files REQUEST writes here, in the order of its parts (lesson, worksheet, answers,
    // roster, bundle, notebook, web page): what to check before a long render.
    QStringList paths(const ExportRequest& request) const;
    // Whatever is rendered, at PATH (the window saves one kind at a time), the worksheet's key
    // beside it (answersPathFor).
    static ExportTargets allAt(const QString& path);
};

// The answer key's path for a worksheet saved to PATH: "sheets.pdf" → "sheets-answers.pdf".
QString answersPathFor(const QString& worksheetPath);

// What no export of LESSON may replace, for the command line and the window alike: the lesson
// (or the bundle) at LESSONPATH, every data file its cells read, and the roster. A lesson with
// no file yet reads no data files.
QStringList exportInputs(const Lesson& lesson, const QString& lessonPath,
                         const QString& rosterPath);

// Two of `targets` (or a target and one of `inputs`) that are the same file, once links are
// followed: "out.pdf and lesson.md name the same file"; "" when none clash.
QString targetsClash(const QStringList& targets, const QStringList& inputs);

// Why the targets cannot be written: one named twice, one that is one of `inputs` (the lesson,
// the roster), or one not writable (outputProblem). "" when all look writable. Cheap: run it
// before a long render to fail early.
QString targetsProblem(const QStringList& targets, const QStringList& inputs);

// Checks every target (none named twice, none one of `inputs` — the lesson, the roster —
// each writable) and writes every part atomically, all together. `written` receives the paths
// in the order of the parts.
ExportResult writeExport(const RenderedExport& rendered, const ExportTargets& targets,
                         const QStringList& inputs, QStringList* written = nullptr);

} // namespace attnbook
