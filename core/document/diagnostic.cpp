#include "core/document/diagnostic.h"

#include <algorithm>

namespace attnbook {

std::string formatDiagnostic(const std::string& file, const Diagnostic& d) {
    std::string out = file;
    if (d.line > 0) {
        out += ":" + std::to_string(d.line) + ":" + std::to_string(std::max(d.column, 1));
    }
    out += d.severity == Severity::Error ? ": error: " : ": warning: ";
    out += d.message;
    return out;
}

bool hasErrors(const std::vector<Diagnostic>& diagnostics) {
    return std::any_of(diagnostics.begin(), diagnostics.end(),
                       [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

} // namespace attnbook
