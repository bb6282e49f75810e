#include "core/document/html_comments.h"

#include <algorithm>

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

std::vector<TextSpan> htmlCommentSpans(std::string_view text) {
    std::vector<TextSpan> spans;
    std::string_view openFence; // inside a fenced block: the fence that closes it
    size_t lineStart = 0;
    size_t i = 0;
    while (i < text.size()) {
        if (i == lineStart) {
            const std::string_view fence = fenceAt(text, i);
            if (!openFence.empty() || !fence.empty()) {
                // A code line: skipped whole. A fence of the same character, at least as long,
                // closes the block.
                if (openFence.empty()) {
                    openFence = fence;
                } else if (!fence.empty() && fence[0] == openFence[0] &&
                           fence.size() >= openFence.size()) {
                    openFence = {};
                }
                const size_t end = text.find('\n', i);
                i = lineStart = end == std::string_view::npos ? text.size() : end + 1;
                continue;
            }
        }
        const char c = text[i];
        if (c == '\n') {
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
            for (size_t k = i; k < end; ++k) {
                lineStart = text[k] == '\n' ? k + 1 : lineStart;
            }
            i = end;
            continue;
        }
        if (text.compare(i, 4, "<!--") != 0) {
            ++i;
            continue;
        }
        const size_t close = text.find("-->", i + 4);
        const size_t end = close == std::string_view::npos ? text.size() : close + 3;
        spans.push_back({i, end});
        for (size_t k = i; k < end; ++k) {
            lineStart = text[k] == '\n' ? k + 1 : lineStart;
        }
        i = end;
    }
    return spans;
}

std::string withoutHtmlComments(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    size_t copied = 0; // text before this is in `out`, or left out
    for (const TextSpan& comment : htmlCommentSpans(text)) {
        const size_t newlineBefore =
            comment.begin == 0 ? std::string_view::npos : text.rfind('\n', comment.begin - 1);
        const size_t lineStart = newlineBefore == std::string_view::npos ? 0 : newlineBefore + 1;
        const size_t lineEnd = text.find('\n', comment.end);
        const size_t afterLine = lineEnd == std::string_view::npos ? text.size() : lineEnd;
        // Alone on its lines: the line break after it goes too, and the indent before it.
        if (lineStart >= copied && blankFrom(text, lineStart, comment.begin) &&
            blankFrom(text, comment.end, afterLine)) {
            out.append(text.substr(copied, lineStart - copied));
            copied = lineEnd == std::string_view::npos ? text.size() : lineEnd + 1;
        } else {
            out.append(text.substr(copied, comment.begin - copied));
            copied = comment.end;
        }
    }
    out.append(text.substr(std::min(copied, text.size())));
    return out;
}

std::string blankedHtmlComments(std::string_view text) {
    std::string out(text);
    for (const TextSpan& comment : htmlCommentSpans(text)) {
        for (size_t k = comment.begin; k < comment.end; ++k) {
            if (out[k] != '\n' && out[k] != '\r') {
                out[k] = ' ';
            }
        }
    }
    return out;
}

} // namespace attnbook
