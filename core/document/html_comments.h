#pragma once
// HTML comments in a lesson's prose (`<!-- … -->`) are notes for its authors, as in the
// template of `attnbook new`: the window's reading mode, the PDF, worksheets and the notebook
// never show them. The lesson file keeps them, byte for byte.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace attnbook {

// `markdown` without its HTML comments: each `<!--` up to and including the next `-->` (to
// the end when none follows, as CommonMark reads an unclosed one). Code is left alone: fenced
// blocks (``` or ~~~) and code spans (`<!--` in backticks is text). A line that held only a
// comment is removed with its line break, so no blank gap is left.
std::string withoutHtmlComments(std::string_view markdown);

// Where the comments are: from each `<!--` up to and including its `-->` (or the end), by the
// same rules.
struct TextSpan {
    size_t begin = 0;
    size_t end = 0;
};
std::vector<TextSpan> htmlCommentSpans(std::string_view markdown);

// `markdown` with every character of its comments but line breaks written as a space: the
// same lines and columns, no note. The live web page carries its lesson so (web-page.md).
std::string blankedHtmlComments(std::string_view markdown);

} // namespace attnbook
