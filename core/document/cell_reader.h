#pragma once
// Reads a cell's YAML tree into its spec, collecting every problem with its
// file position rather than stopping at the first (docs/lesson-format.md).

#include "core/document/cell_specs.h"
#include "core/document/data_files.h"
#include "core/document/diagnostic.h"
#include "core/document/document.h"
#include "core/document/shared_model.h"

namespace attnbook {

struct ReadCell {
    std::variant<std::monostate, AttentionCellSpec, QuizCellSpec, ChartCellSpec,
                 TransformerCellSpec>
        spec;
    ValuePositions positions;
    std::vector<std::string> dataFiles; // every {file: PATH} (and labels file) the cell read
    bool ok() const { return spec.index() != 0; }
};

// The cell's body as YAML: the fence's indentation taken off each line, as CommonMark
// does, so that parsed positions are the file's.
std::string cellYamlText(const CellBlock& cell);

// Parses the YAML of `cell` and reads it. Problems go to `diagnostics`; the
// spec is empty when an error makes the cell unusable. `{file: PATH}` values
// are read from `files` (none: they are errors). A transformer cell's `model: ID` is taken
// from `models` (the cells read before it), and the cell is added there for the next.
ReadCell readCell(const CellBlock& cell, std::vector<Diagnostic>& diagnostics,
                  const DataFiles* files = nullptr, ModelBodies* models = nullptr);

// readCell of a body parsed already, as readCell parses it (parsedBodyAfterSets).
ReadCell readParsedCell(const CellBlock& cell, const YamlNode& body,
                        std::vector<Diagnostic>& diagnostics, const DataFiles* files = nullptr,
                        ModelBodies* models = nullptr);

// Reads an already parsed body (used by --set to check one value in place).
ReadCell readCellBody(CellKind kind, const std::string& id, const YamlNode& body,
                      std::vector<Diagnostic>& diagnostics, const DataFiles* files = nullptr);

// "did you mean 'heads'?" for a misspelt key, or "" when nothing is close.
std::string closestName(const std::string& name, const std::vector<std::string>& candidates);

} // namespace attnbook
