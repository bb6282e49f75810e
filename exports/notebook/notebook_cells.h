#pragma once
// One lesson part as notebook cells (`attnbook export FILE --notebook`):
//   prose       Markdown with every binding replaced by its value; a fenced ```python block
//               becomes a code cell (a sample answer folded away, after an empty cell to try
//               it in)
//   attention   a Markdown cell naming the settings, and a code cell that types the inputs as
//               NumPy arrays and recomputes forward and backward with the shared functions
//               (notebookFunctions()), storing everything in attnbook_results[ID] by the
//               names `attnbook compute` uses, and printing the matrices the window shows
//   transformer notebook_transformer.h
//   chart       a code cell evaluating the same formulas at the same x in NumPy
//   quiz        Markdown: the question and choices, the answer behind a <details> fold
// Cell ids are left for the caller to make unique (lessonNotebook).

#include "exports/notebook/notebook_writer.h"

#include "core/document/lesson.h"

#include <vector>

namespace attnbook {

// `prose` is a block of `document` (its code block lines tell fences from text).
std::vector<NotebookCell> proseNotebookCells(const ProseBlock& prose, const Document& document,
                                             const LessonResults& results);

std::vector<NotebookCell> attentionNotebookCells(const std::string& id,
                                                 const AttentionCellSpec& spec,
                                                 const AttentionResult& result);

std::vector<NotebookCell> chartNotebookCells(const std::string& id, const ChartCellSpec& chart);

// `number` counts the lesson's questions from 1; `answer` is the quiz's computed answer.
std::vector<NotebookCell> quizNotebookCells(const std::string& id, const QuizCellSpec& quiz,
                                            int number, const Json* answer,
                                            const LessonResults& results);

// The Python source of an attention cell's code cell.
std::string attentionCode(const std::string& id, const AttentionCellSpec& spec,
                          const AttentionResult& result);

// Markdown that shows `text` literally (no emphasis, links or math from its characters).
std::string markdownLiteral(const std::string& text);
// `text` as a Markdown code span, on one line: a run of backquotes longer than any inside it.
std::string markdownCode(const std::string& text);

} // namespace attnbook
