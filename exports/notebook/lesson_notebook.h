#pragma once
// `attnbook export FILE --notebook OUT.ipynb` (cli.md): the lesson's Jupyter twin. Its cells, in
// the lesson's order (notebook_cells.h):
//   a title cell (title, subtitle, author, and what the notebook is)
//   one code cell with the functions every cell calls (notebookFunctions(), and
//   transformerFunctions() when the lesson has a transformer cell)
//   then each part of the lesson: prose, attention, transformer, chart and quiz cells
// The same lesson gives the same bytes. No outputs are stored; run the notebook from the top.

#include "files/export_control.h"

#include "core/document/lesson.h"

#include <QtCore/QByteArray>

namespace attnbook {

// The lesson must have computed without errors.
ExportResult renderLessonNotebook(const Lesson& lesson, const LessonResults& results,
                                  QByteArray* notebook, const ExportControl& control = {});

} // namespace attnbook
