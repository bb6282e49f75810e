#pragma once
// A problem found in a document, at the file's line and column (both from 1),
// printed as `FILE:LINE:COLUMN: error: MESSAGE` (docs/lesson-format.md).

#include <cstddef>
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

// The longest message (and file name) a diagnostic prints: one that echoes its input (a
// 200 KB key) is cut there, with how much was left out.
constexpr size_t kMaxPrintedBytes = 600;

// `text` as a terminal may show it: control characters (C0, DEL, C1: a terminal escape from a
// data file) written as \xNN, and at most `maxBytes` of it, cut between UTF-8 characters with
// "… (N bytes more)".
std::string printableText(const std::string& text, size_t maxBytes);

// FILE:LINE:COLUMN: error: MESSAGE, printable (printableText).
std::string formatDiagnostic(const std::string& file, const Diagnostic& diagnostic);

bool hasErrors(const std::vector<Diagnostic>& diagnostics);

} // namespace attnbook
