#pragma once
// `attnbook export FILE --pdf OUT.pdf [--paper a4|letter]`: the lesson as a printable document
// (cli.md). A title block from the front matter, the prose with its bindings replaced by the
// live values, and every cell in its printed form; real text throughout, page numbers below.

#include "exports/paint/pdf_layout.h"
#include "files/export_control.h"

#include "core/document/lesson.h"

#include <QtCore/QByteArray>

namespace attnbook {

// The lesson's pages, laid out but not yet painted.
PdfSection lessonSection(const Lesson& lesson, const LessonResults& results,
                         const PageGeometry& geometry);

// The lesson as PDF bytes. The lesson must have computed without errors.
ExportResult renderLessonPdf(const Lesson& lesson, const LessonResults& results, Paper paper,
                             QByteArray* pdf, const ExportControl& control = {});

// Renders and writes PATH atomically: on failure or cancel, PATH is left as it was.
ExportResult exportLessonPdf(const QString& path, const Lesson& lesson,
                             const LessonResults& results, Paper paper,
                             const ExportControl& control = {});

} // namespace attnbook
