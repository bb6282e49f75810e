#pragma once
// Each kind of cell on the web page (lesson_html.h), with the numbers the lesson PDF prints:
// an attention cell's matrices as real tables and its other views (heatmap, shares,
// arithmetic, trace, gradients) as the PDF's own figures in SVG; a transformer cell's views as
// the PDF's figures; a chart as the PDF's chart; a quiz as its question and choices with the
// answer and its explanation folded (<details>) until the reader opens them.

#include "exports/html/html_prose.h"
#include "exports/paint/pdf_cells.h"

#include "core/document/json.h"
#include "core/document/lesson.h"
#include "core/present/presented_lesson.h"

#include <QtCore/QString>

namespace attnbook {

// The width the figures are drawn at: the lesson PDF's content width on A4, so the page's
// figures are the PDF's, point for point.
CellPrintArea htmlFigureArea();

QString attentionCellHtml(const std::string& id, const AttentionCellSpec& spec,
                          const AttentionResult& result);
QString transformerCellHtml(const LessonCell& cell, const TransformerCellSpec& spec,
                            const TransformerResult& result);
QString chartCellHtml(const std::string& id, const ChartCellSpec& chart,
                      const std::vector<ChartSeries>& series);
// `number` counts the lesson's questions from 1; `text` is its words as presented (their live
// marks kept); `answer` is the quiz's computed answer (its `compute` JSON), or null. `live`: the
// page is live, and the quiz gets its form (html_quiz_form.h), hidden until then.
QString quizCellHtml(const std::string& id, const QuizCellSpec& quiz, int number,
                     const PresentedQuizText& text, const Json* answer,
                     const LessonResults& results, bool live);

} // namespace attnbook
