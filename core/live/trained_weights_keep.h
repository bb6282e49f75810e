#pragma once
// Keep on a cell that trains (docs/training.md, "Keep"): the weights of the step on show go
// into `<cell>.safetensors` beside the lesson, and the cell is rewritten to read every weight
// from that file, its `train` key removed, so that the lesson opens with the trained model and
// trains no more. No Qt: the window writes the bytes (through QSaveFile) and records the edit
// for Undo; a test reads the kept lesson back and computes exactly the shown numbers.

#include "core/document/document.h"
#include "core/math/transformer_config.h"

#include <string>
#include <variant>

namespace attnbook {

struct TrainedWeightsKeep {
    std::string fileName;  // "learner.safetensors": beside the lesson, named after the cell
    std::string fileBytes; // the file to write before the document is taken
    Document document;     // the lesson with the cell reading its weights from the file
};

// The keep of cell `cellId` of `working`, whose weights on show are `shown`, or why it cannot
// be kept (no such cell, it does not train, it takes its model from another cell).
std::variant<TrainedWeightsKeep, std::string> keepTrainedWeights(const Document& working,
                                                                 const std::string& cellId,
                                                                 const TransformerConfig& shown);

} // namespace attnbook
