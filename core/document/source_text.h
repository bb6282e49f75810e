#pragma once
// The bytes of a lesson file, checked and indexed by line, so that every
// later step can turn a byte offset into the file's line and column.

#include "core/document/diagnostic.h"

#include <optional>
#include <string>
#include <vector>

namespace attnbook {

class SourceText {
  public:
    // `bytes` without a leading byte-order mark; `hadBom` remembers it for saving.
    SourceText(std::string bytes, bool hadBom);

    const std::string& bytes() const { return bytes_; }
    bool hadByteOrderMark() const { return hadBom_; }
    bool usesCrLf() const { return crlf_; }
    const char* lineEnding() const { return crlf_ ? "\r\n" : "\n"; }

    int lineCount() const { return int(lineStarts_.size()); }
    // Byte range of line `line` (from 1), without its line end.
    size_t lineStart(int line) const { return lineStarts_[size_t(line - 1)]; }
    std::string_view lineText(int line) const;
    // Byte offset of the start of line `line`, or bytes().size() past the end.
    size_t offsetOfLine(int line) const;
    // Line and column (both from 1, column in characters) of a byte offset.
    std::pair<int, int> position(size_t offset) const;

  private:
    std::string bytes_;
    bool hadBom_;
    bool crlf_ = false;
    std::vector<size_t> lineStarts_;
};

// Checks raw file bytes: skips a BOM, refuses NUL bytes and invalid UTF-8
// with their line and column. Returns nullopt and fills `problems` otherwise.
std::optional<SourceText> decodeSource(std::string raw, std::vector<Diagnostic>& problems);

// Reads a file with a clear message for each way that fails (missing, a
// directory, unreadable, too large). The message names no path: the caller
// prints it after the path.
std::optional<std::string> readFileBytes(const std::string& path, std::string& error,
                                         long long maxBytes = 16LL << 20);

} // namespace attnbook
