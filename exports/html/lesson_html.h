#pragma once
// `attnbook export FILE --html OUT.html` (cli.md): the lesson as one self-contained, offline web
// page for a course website or an LMS. One HTML5 file with nothing to fetch: its stylesheet is
// inside it (html_page_style.h), every figure is inline SVG drawn by the PDF's own painting
// code (html_figures.h), matrices are tables, quiz answers and coding challenges' sample
// answers are folded (<details>), and the outline of its headings is a <nav>. A
// Content-Security-Policy forbids every script and every fetch, so even text that slipped
// through could not run or call out. The same lesson gives the same bytes.

#include "files/export_control.h"

#include "core/document/lesson.h"

#include <QtCore/QByteArray>

namespace attnbook {

// The lesson must have computed without errors.
ExportResult renderLessonHtml(const Lesson& lesson, const LessonResults& results, QByteArray* html,
                              const ExportControl& control = {});

} // namespace attnbook
