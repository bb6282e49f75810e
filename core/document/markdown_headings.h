#pragma once
// The headings of Markdown text, found by the CommonMark parser (ATX `#` and setext headings
// alike; a `#` line inside a code block is no heading): the one rule by which the lesson's
// title, the outline and the worksheet's section names find headings.

#include <string>
#include <string_view>
#include <vector>

struct cmark_node;

namespace attnbook {

struct MarkdownHeading {
    int level = 1;    // 1 to 6
    std::string text; // as a reader sees it: its text and code, markup and links' targets out
    int line = 0;     // in the text given, from 1
};

std::vector<MarkdownHeading> markdownHeadings(std::string_view markdown);

// The text of one heading node of cmark's tree (see MarkdownHeading::text).
std::string cmarkHeadingText(cmark_node* heading);

} // namespace attnbook
