#include "core/document/source_text.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace attnbook {

SourceText::SourceText(std::string bytes, bool hadBom) : bytes_(std::move(bytes)), hadBom_(hadBom) {
    // Line ends as CommonMark (and so cmark) counts them: "\n", "\r\n", and a lone "\r".
    // The line numbers cmark reports must name lines here.
    lineStarts_.push_back(0);
    for (size_t i = 0; i < bytes_.size(); ++i) {
        const bool crlf = bytes_[i] == '\r' && i + 1 < bytes_.size() && bytes_[i + 1] == '\n';
        if (crlf) {
            crlf_ = true;
            ++i;
        }
        if ((bytes_[i] == '\n' || bytes_[i] == '\r') && i + 1 < bytes_.size()) {
            lineStarts_.push_back(i + 1);
        }
    }
}

std::string_view SourceText::lineText(int line) const {
    if (line < 1 || line > lineCount()) {
        return {};
    }
    const size_t start = lineStart(line);
    size_t end = bytes_.find_first_of("\r\n", start);
    if (end == std::string::npos) {
        end = bytes_.size();
    }
    return std::string_view(bytes_).substr(start, end - start);
}

size_t SourceText::offsetOfLine(int line) const {
    if (line < 1) {
        return 0;
    }
    return line - 1 < int(lineStarts_.size()) ? lineStarts_[size_t(line - 1)] : bytes_.size();
}

std::pair<int, int> SourceText::position(size_t offset) const {
    const auto it = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), offset);
    const int line = int(it - lineStarts_.begin());
    int column = 1;
    for (size_t i = lineStarts_[size_t(line - 1)]; i < offset && i < bytes_.size(); ++i) {
        // Count characters, not bytes: skip UTF-8 continuation bytes.
        if ((static_cast<unsigned char>(bytes_[i]) & 0xC0) != 0x80) {
            ++column;
        }
    }
    return {line, column};
}

namespace {

// Length of the valid UTF-8 sequence at `i`, or 0 when it is invalid.
size_t utf8SequenceLength(const std::string& s, size_t i) {
    const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char lead = byte(i);
    size_t length = 0;
    unsigned int minimum = 0;
    unsigned int codePoint = 0;
    if (lead < 0x80) {
        return 1;
    } else if ((lead & 0xE0) == 0xC0) {
        length = 2, minimum = 0x80, codePoint = lead & 0x1F;
    } else if ((lead & 0xF0) == 0xE0) {
        length = 3, minimum = 0x800, codePoint = lead & 0x0F;
    } else if ((lead & 0xF8) == 0xF0) {
        length = 4, minimum = 0x10000, codePoint = lead & 0x07;
    } else {
        return 0;
    }
    if (i + length > s.size()) {
        return 0;
    }
    for (size_t k = 1; k < length; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80) {
            return 0;
        }
        codePoint = (codePoint << 6) | (byte(i + k) & 0x3F);
    }
    const bool surrogate = codePoint >= 0xD800 && codePoint <= 0xDFFF;
    return codePoint < minimum || codePoint > 0x10FFFF || surrogate ? 0 : length;
}

} // namespace

std::optional<SourceText> decodeSource(std::string raw, std::vector<Diagnostic>& problems) {
    bool bom = false;
    if (raw.size() >= 3 && raw.compare(0, 3, "\xEF\xBB\xBF") == 0) {
        raw.erase(0, 3);
        bom = true;
    }
    SourceText text(std::move(raw), bom);
    const std::string& s = text.bytes();
    const size_t before = problems.size();
    for (size_t i = 0; i < s.size();) {
        if (s[i] == '\0') {
            const auto [line, column] = text.position(i);
            problems.push_back({Severity::Error, line, column,
                                "the file holds a NUL byte: is it a text file?", ""});
            break;
        }
        const size_t length = utf8SequenceLength(s, i);
        if (length == 0) {
            const auto [line, column] = text.position(i);
            problems.push_back(
                {Severity::Error, line, column, "the file is not valid UTF-8 here", ""});
            break;
        }
        i += length;
    }
    if (problems.size() != before) {
        return std::nullopt;
    }
    return text;
}

namespace {

// " for a lesson file" after a limit, or nothing for a file of no kind.
std::string forKind(const std::string& kind) {
    return kind.empty() ? std::string() : " for a " + kind;
}

} // namespace

std::string overTheLimit(std::uint64_t size, std::uint64_t maxBytes, const std::string& kind) {
    return "is " + std::to_string(size) + " bytes, over the limit of " + std::to_string(maxBytes) +
           " bytes" + forKind(kind);
}

namespace {

std::string cannotBeRead(int errorNumber) {
    return std::string("cannot be read: ") + std::strerror(errorNumber);
}

// Why the open file `info` describes may not be read, or "" when it may.
std::string fileProblem(const struct stat& info, const FileRead& how) {
    if (S_ISDIR(info.st_mode)) {
        return "is a folder, not a " + (how.kind.empty() ? std::string("file") : how.kind);
    }
    if (!S_ISREG(info.st_mode)) {
        return "is not a regular file (a device, pipe or socket)";
    }
    if (std::uint64_t(info.st_size) > how.maxBytes) {
        return overTheLimit(std::uint64_t(info.st_size), how.maxBytes, how.kind);
    }
    return {};
}

// The rest of `fd`, or nullopt with `error` set. Reads one byte past the size fstat saw
// (`expected`), so a file that grows while being read is caught by the limit instead of
// being cut silently.
std::optional<std::string> readAllBounded(int fd, size_t expected, const FileRead& how,
                                          std::string& error) {
    std::string bytes(expected + 1, '\0');
    size_t filled = 0;
    while (filled < bytes.size()) {
        const ssize_t got = ::read(fd, bytes.data() + filled, bytes.size() - filled);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got < 0) {
            error = cannotBeRead(errno);
            return std::nullopt;
        }
        if (got == 0) {
            break;
        }
        filled += size_t(got);
        if (filled > how.maxBytes) {
            error = "is over the limit of " + std::to_string(how.maxBytes) + " bytes" +
                    forKind(how.kind);
            return std::nullopt;
        }
        if (filled == bytes.size()) {
            bytes.resize(bytes.size() + 65536);
        }
    }
    bytes.resize(filled);
    return bytes;
}

} // namespace

std::optional<std::string> readFileBytes(const std::string& path, std::string& error,
                                         const FileRead& how) {
    // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused
    // below, as is every file that is not a regular one (devices, folders).
    const int fd =
        ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | (how.followLink ? 0 : O_NOFOLLOW));
    if (fd < 0) {
        error = errno == ENOENT ? "no such file" : cannotBeRead(errno);
        return std::nullopt;
    }
    struct FdCloser {
        int fd;
        ~FdCloser() { ::close(fd); }
    } closer{fd};
    struct stat info {};
    if (::fstat(fd, &info) != 0) {
        error = cannotBeRead(errno);
        return std::nullopt;
    }
    if (std::string problem = fileProblem(info, how); !problem.empty()) {
        error = std::move(problem);
        return std::nullopt;
    }
    return readAllBounded(fd, size_t(info.st_size), how, error);
}

} // namespace attnbook
