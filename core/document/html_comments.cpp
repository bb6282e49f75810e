#include "core/document/html_comments.h"

namespace attnbook {
namespace {

// The fence that opens a fenced code block on the line starting at `at` (``` or ~~~, up to
// three spaces in), or empty.
std::string_view fenceAt(std::string_view text, size_t at) {
    size_t i = at;
    while (i < text.size() && i - at < 3 && text[i] == ' ') {
        ++i;
    }
    if (i >= text.size() || (text[i] != '`' && text[i] != '~')) {
        return {};
    }
    size_t end = i;
    while (end < text.size() && text[end] == text[i]) {
        ++end;
    }
    return end - i >= 3 ? text.substr(i, end - i) : std::string_view();
}

bool blankFrom(std::string_view text, size_t from, size_t to) {
    for (size_t i = from; i < to; ++i) {
        if (text[i] != ' ' && text[i] != '\t' && text[i] != '\r') {
            return false;
        }
    }
    return true;
}

} // namespace

std::string withoutHtmlComments(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    std::string_view openFence; // inside a fenced block: the fence that closes it
    size_t lineStart = 0;
    size_t i = 0;
    while (i < text.size()) {
        if (i == lineStart) {
            const std::string_view fence = fenceAt(text, i);
            if (!openFence.empty() || !fence.empty()) {
                // A code line: copied whole. A fence of the same character, at least as long,
                // closes the block.
                if (openFence.empty()) {
                    openFence = fence;
                } else if (!fence.empty() && fence[0] == openFence[0] &&
                           fence.size() >= openFence.size()) {
                    openFence = {};
                }
                const size_t end = text.find('\n', i);
                const size_t next = end == std::string_view::npos ? text.size() : end + 1;
                out.append(text.substr(i, next - i));
                i = lineStart = next;
                continue;
            }
        }
        const char c = text[i];
        if (c == '\n') {
            out += c;
            lineStart = ++i;
            continue;
        }
        if (c == '`') { // a code span: from this run of backticks to the next run as long
            size_t run = i;
            while (run < text.size() && text[run] == '`') {
                ++run;
            }
            const std::string_view ticks = text.substr(i, run - i);
            size_t close = text.find(ticks, run);
            while (close != std::string_view::npos && close + ticks.size() < text.size() &&
                   text[close + ticks.size()] == '`') {
                close = text.find(ticks, close + ticks.size() + 1);
            }
            const size_t end = close == std::string_view::npos ? run : close + ticks.size();
            out.append(text.substr(i, end - i));
            for (size_t k = i; k < end; ++k) {
                lineStart = text[k] == '\n' ? k + 1 : lineStart;
            }
            i = end;
            continue;
        }
        if (text.compare(i, 4, "<!--") != 0) {
            out += c;
            ++i;
            continue;
        }
        const size_t close = text.find("-->", i + 4);
        size_t end = close == std::string_view::npos ? text.size() : close + 3;
        // Alone on its lines: the line break after it goes too, and the indent before it.
        const size_t lineEnd = text.find('\n', end);
        const size_t afterLine = lineEnd == std::string_view::npos ? text.size() : lineEnd;
        if (blankFrom(text, lineStart, i) && blankFrom(text, end, afterLine)) {
            out.resize(out.size() - (i - lineStart));
            end = lineEnd == std::string_view::npos ? text.size() : lineEnd + 1;
            lineStart = end;
        } else {
            for (size_t k = i; k < end; ++k) {
                lineStart = text[k] == '\n' ? k + 1 : lineStart;
            }
        }
        i = end;
    }
    return out;
}

} // namespace attnbook
