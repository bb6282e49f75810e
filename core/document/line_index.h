#pragma once
// Where each line of a file's bytes starts, so that LINE:COLUMN (columns in characters) and a
// byte offset convert both ways.

#include "core/document/yaml_tree.h" // FilePosition

#include <algorithm>
#include <optional>
#include <string_view>
#include <vector>

namespace attnbook {

// Line starts of a file's bytes, so that a diagnostic's LINE:COLUMN (columns in characters)
// and a byte offset convert both ways. A BOM is skipped; \n, \r\n and a lone \r end a line,
// as the reader counts them (source_text.h).
class LineIndex {
  public:
    explicit LineIndex(std::string_view bytes) : bytes_(bytes) {
        size_t i = bytes.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
        starts_.push_back(i);
        for (; i < bytes.size(); ++i) {
            if (bytes[i] == '\n' ||
                (bytes[i] == '\r' && (i + 1 == bytes.size() || bytes[i + 1] != '\n'))) {
                starts_.push_back(i + 1);
            }
        }
    }

    // The byte where LINE:COLUMN starts, or nullopt when the line has no such column.
    std::optional<size_t> offset(int line, int column) const {
        if (line < 1 || size_t(line) > starts_.size() || column < 1) {
            return std::nullopt;
        }
        size_t at = starts_[size_t(line) - 1];
        for (int c = 1; c < column; ++c) {
            if (at >= bytes_.size() || bytes_[at] == '\n' || bytes_[at] == '\r') {
                return std::nullopt;
            }
            ++at;
            while (at < bytes_.size() && (static_cast<unsigned char>(bytes_[at]) & 0xC0) == 0x80) {
                ++at;
            }
        }
        return at;
    }

    FilePosition position(size_t offset) const {
        offset = std::clamp(offset, starts_.front(), bytes_.size()); // not inside a BOM
        const auto next = std::upper_bound(starts_.begin(), starts_.end(), offset);
        const size_t line = size_t(next - starts_.begin());
        int column = 1;
        for (size_t i = starts_[line - 1]; i < offset; ++i) {
            if ((static_cast<unsigned char>(bytes_[i]) & 0xC0) != 0x80) {
                ++column;
            }
        }
        return {int(line), column};
    }

    // Where LINE starts; the end of the text for a line past it (never read beyond).
    size_t lineStart(int line) const {
        return line >= 1 && size_t(line) <= starts_.size() ? starts_[size_t(line) - 1]
                                                           : bytes_.size();
    }

  private:
    std::string_view bytes_;
    std::vector<size_t> starts_;
};

} // namespace attnbook
