#pragma once
// A problem found in a document, at the file's line and column (both from 1),
// printed as `FILE:LINE:COLUMN: error: MESSAGE` (document-format.md).

#include <string>
#include <vector>

namespace attnbook {

enum class Severity { Error, Warning };

struct Diagnostic {
    Severity severity = Severity::Error;
    int line = 0;   // 0: the file as a whole
    int column = 0; // 0 with line 0
    std::string message;
    std::string cellId; // the cell it belongs to, when it does
};

std::string formatDiagnostic(const std::string& file, const Diagnostic& diagnostic);

bool hasErrors(const std::vector<Diagnostic>& diagnostics);

} // namespace attnbook
