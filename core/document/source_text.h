#pragma once
// The bytes of a lesson file, checked and indexed by line, so that every
// later step can turn a byte offset into the file's line and column.

#include "core/document/diagnostic.h"

#include <cstdint>
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

// How much of what a bounded read (readFileBytes) may read, and how its messages name it.
struct FileRead {
    std::uint64_t maxBytes = 16ull << 20;
    // The file's kind, in "is a folder, not a lesson file" and "is N bytes, over the
    // limit of M bytes for a lesson file"; "" says "not a file" and no "for a ...".
    std::string kind = "lesson file";
    // false: the last part of the path may not be a link (O_NOFOLLOW), for a caller that
    // resolved every link itself and must not follow one put there since.
    bool followLink = true;
};

// Reads a regular file with a clear message for each way that fails (missing, a
// directory, a device or pipe, unreadable, too large), never waiting on a FIFO and
// never reading past the limit. The message names no path: the caller prints it after
// the path. The one bounded read of a file on disk: lessons, rosters, data files.
std::optional<std::string> readFileBytes(const std::string& path, std::string& error,
                                         const FileRead& how = {});

// "is N bytes, over the limit of M bytes[ for a KIND]", as readFileBytes says it, for
// sources that hold a file's bytes elsewhere (a bundle in memory, a cache).
std::string overTheLimit(std::uint64_t size, std::uint64_t maxBytes, const std::string& kind);

} // namespace attnbook
