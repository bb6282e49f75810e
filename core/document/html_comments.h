#pragma once
// HTML comments in a lesson's prose (`<!-- … -->`) are notes for its authors, as in the
// template of `attnbook new`: the window's reading mode, the PDF, worksheets and the notebook
// never show them. The lesson file keeps them, byte for byte.

#include <string>
#include <string_view>

namespace attnbook {

// `markdown` without its HTML comments: each `<!--` up to and including the next `-->` (to
// the end when none follows, as CommonMark reads an unclosed one). Code is left alone: fenced
// blocks (``` or ~~~) and code spans (`<!--` in backticks is text). A line that held only a
// comment is removed with its line break, so no blank gap is left.
std::string withoutHtmlComments(std::string_view markdown);

} // namespace attnbook
