#pragma once
// What File → Export asks, as the user chose it in the window: one kind of export and the
// options as typed, read by the command line's rules (export_request.h: readPaper, readSeed,
// readRoster). The rules for a name to offer, the files a save writes and the request are
// here, with no Qt Quick; app/models/export_controller only adapts them to QML.

#include "exports/export_request.h"

#include <QtCore/QString>
#include <QtCore/QStringList>

namespace attnbook {

// One export at a time, as the window offers them.
enum class ExportKind { LessonPdf, Worksheet, Bundle, Notebook, WebPage };

// The file suffix KIND's output takes: "pdf", "zip", "ipynb" or "html".
QString exportSuffix(ExportKind kind);
// PATH with KIND's suffix added when it has none: "notes" → "notes.pdf". "" stays "".
QString withExportSuffix(const QString& path, ExportKind kind);
// The name a save dialog offers for the lesson named LESSONFILE ("attention.md"):
// "attention.pdf", "attention-worksheet.pdf", "attention.zip" (never the name of the bundle
// the lesson was opened from: then "attention-bundle.zip"), "attention.ipynb",
// "attention.html"; "lesson…" for a lesson with no name yet.
QString suggestedExportName(ExportKind kind, const QString& lessonFile);

// The folder a save dialog starts in for the lesson at LESSONPATH: the lesson's own, or for a
// lesson with no file on disk (a new one, a Qt resource) the user's documents, else home.
QString exportFolderFor(const QString& lessonPath);

struct ExportChoice {
    ExportKind kind = ExportKind::LessonPdf;
    QString paper = QStringLiteral("a4"); // as typed: a size the command line refuses is a problem
    bool answers = true;                  // the worksheet's key
    int variants = 0;                     // 0: the lesson's own numbers
    QString seed = QStringLiteral("1");   // as typed
    QString rosterFile;                   // a local path; "" for none
    QStringList roster;                   // the names read from it
    QString rosterProblem;                // why it could not be read, or ""

    // Reads `rosterFile` (again: it may have changed since it was chosen) into `roster`, or
    // says why not in `rosterProblem`.
    void readRosterFile();
    // Variants draw numbers from the seed; so does a roster, one variant per name.
    bool seedUsed() const { return variants > 0 || !roster.isEmpty(); }
    // Why these options cannot be rendered, as a sentence ("The seed is a whole number…"),
    // or "": a paper size or seed the command line would refuse, an unreadable roster.
    QString problem() const;
    // The export these options ask for, as the command line would ask it.
    ExportRequest request() const;
    // Every file saving the export to PATH writes, in the order of its parts: PATH (with the
    // kind's suffix added when it has none), and for a worksheet its key and roster beside it.
    QStringList targetPaths(const QString& path) const;
};

} // namespace attnbook
