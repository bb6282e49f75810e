#pragma once
// The one way lesson text enters the web page (lesson_html.h). Lesson text is data: every
// string from the lesson — prose runs, token names, captions, ids, links — goes through
// htmlPageText() before it is written, in element content and in attributes alike, so no
// text can open a tag, close an attribute or start a character reference.

#include <QtCore/QString>
#include <QtCore/QStringView>

namespace attnbook {

// `text` with & < > " ' written as character references, safe both as element content and
// inside a quoted attribute. Characters HTML forbids in a document (controls other than tab,
// line feed and carriage return, lone surrogates, noncharacters) become U+FFFD, so the page
// stays valid HTML5 whatever the lesson holds.
QString htmlPageText(QStringView text);

// Markup someone else wrote (Qt's SVG generator), with the characters HTML forbids replaced by
// U+FFFD as htmlPageText replaces them, and nothing else changed: the generator escapes
// < and & in the text it draws, but passes a lesson's control characters through.
QString htmlValidCharacters(QStringView markup);

// The target of a link the lesson makes, escaped for an href, or "" when it is not one a
// static page may follow: only "#fragment", http:, https: and mailto: pass (never
// javascript:, data:, file: or a relative path that would not exist beside the page).
QString htmlPageHref(QStringView url);

} // namespace attnbook
