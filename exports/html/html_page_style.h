#pragma once
// The web page's one stylesheet (lesson_html.h), written inside the page: a readable column,
// a light and a dark scheme that follow the reader's system (prefers-color-scheme), the outline
// beside the text on a wide screen and above it on a narrow one, and a print sheet that drops
// the outline and the folded answers (on paper answers belong in the answer key).

#include <QtCore/QString>

namespace attnbook {

QString htmlPageStyle();

} // namespace attnbook
