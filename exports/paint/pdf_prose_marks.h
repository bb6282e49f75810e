#pragma once
// What the print styling (pdf_prose.cpp) marks on a document's blocks for the cut into page
// boxes (pdf_prose_boxes.cpp) to read. Internal to exports/paint.

#include <QtGui/QTextFormat>

namespace attnbook {

// A block that was a bulleted item: the styling writes its bullet as text, so it is no longer
// in a QTextList, but it is still not a one-line run-in title.
constexpr int kBulletItem = QTextFormat::UserProperty + 1;

} // namespace attnbook
