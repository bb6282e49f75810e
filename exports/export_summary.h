#pragma once
// What a rendered export holds, in one line for the window's preview and in a sentence for what
// a save wrote: "Lesson PDF · A4 · 1.2 MB", "Worksheet: 8 pages · answer key: 4 pages · …",
// "Saved a.pdf and a-answers.pdf in /home/ada".

#include "exports/export_request.h"

#include <QtCore/QString>
#include <QtCore/QStringList>

namespace attnbook {

// One line on what REQUEST rendered into RENDERED: its pages, variants, roster, files and size.
QString exportSummary(const ExportRequest& request, const RenderedExport& rendered);

// Said once when a roster has more names than some question has answers within the ranges of
// worksheet.vary: "30 names, but quiz blue_self_score has only 6 different answers (quiz
// causal_blue 13), so some students share them: every name still gets a sheet". "" otherwise.
QString sharedAnswersNote(const ExportRequest& request, const RenderedExport& rendered);

// "Saved a.pdf, a-answers.pdf and a-roster.csv in FOLDER": the files a save wrote, by name, and
// the folder of the first.
QString savedSentence(const QStringList& paths);

} // namespace attnbook
