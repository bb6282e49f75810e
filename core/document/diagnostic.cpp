#include "core/document/diagnostic.h"

#include <algorithm>
#include <cstdio>

namespace attnbook {

std::string printableText(const std::string& text, size_t maxBytes) {
    std::string out;
    size_t i = 0;
    for (; i < text.size() && out.size() < maxBytes; ++i) {
        const auto byte = static_cast<unsigned char>(text[i]);
        // C1 controls (U+0080–U+009F) are C2 80–C2 9F in UTF-8: terminals obey them too.
        const bool c1 = byte == 0xc2 && i + 1 < text.size() &&
                        static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
                        static_cast<unsigned char>(text[i + 1]) <= 0x9f;
        if (byte < 0x20 || byte == 0x7f || c1) {
            const unsigned code = c1 ? static_cast<unsigned char>(text[++i]) : byte;
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\x%02x", code);
            out += escaped;
            continue;
        }
        // Never end inside a UTF-8 sequence: stop before a lead byte whose sequence would pass
        // the limit.
        if (byte >= 0xc0) {
            const size_t length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
            if (out.size() + length > maxBytes) {
                break;
            }
            out.append(text, i, std::min(length, text.size() - i));
            i += std::min(length, text.size() - i) - 1;
            continue;
        }
        out += text[i];
    }
    if (i < text.size()) {
        out += "… (" + std::to_string(text.size() - i) + " bytes more)";
    }
    return out;
}

std::string formatDiagnostic(const std::string& file, const Diagnostic& d) {
    std::string out = printableText(file, kMaxPrintedBytes);
    if (d.line > 0) {
        out += ":" + std::to_string(d.line) + ":" + std::to_string(std::max(d.column, 1));
    }
    out += d.severity == Severity::Error ? ": error: " : ": warning: ";
    out += printableText(d.message, kMaxPrintedBytes);
    return out;
}

bool hasErrors(const std::vector<Diagnostic>& diagnostics) {
    return std::any_of(diagnostics.begin(), diagnostics.end(),
                       [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

} // namespace attnbook
