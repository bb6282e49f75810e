#pragma once
// The worksheet part on one step of training by hand (docs/worksheets.md, "One step of
// training"): from the vector the model ends with and each word's output row, the chances,
// the loss, the gradient on each score and the right word's row after one SGD step. The numbers
// are core/present's TrainingStepExercise; this only lays them out.

#include "core/present/training_step_exercise.h"
#include "exports/paint/pdf_cells.h"

namespace attnbook {

PdfBoxPtr trainingStepPart(const TrainingStepExercise& exercise, const QString& label, bool key,
                           const CellPrintArea& area);

} // namespace attnbook
