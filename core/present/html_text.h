#pragma once
// The one way text enters the web page's HTML (docs/web-page.md), without Qt: the exporter
// (exports/html/html_escape.h wraps it) and the page's WebAssembly module, which redraws a
// cell's tables after a what-if, both write lesson text through these, so no text from a
// lesson can open a tag, close an attribute or start a character reference.

#include <string>
#include <string_view>

namespace attnbook {

// UTF-8 `text` with the characters HTML forbids in a document (controls other than tab, line
// feed, form feed and carriage return; noncharacters) and every byte that is not UTF-8
// replaced by U+FFFD, and nothing else changed.
std::string htmlValidText(std::string_view text);

// htmlValidText with & < > " ' written as character references: safe both as element content
// and inside a quoted attribute.
std::string htmlText(std::string_view text);

} // namespace attnbook
