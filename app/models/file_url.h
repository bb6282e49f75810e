#pragma once
// The one conversion from what QML holds (a file: URL, a qrc: URL or a plain path) to a path
// QFile opens: every model that takes a path from QML calls it.

#include <QtCore/QString>

namespace attnbook {

// "file:///tmp/a.md" → "/tmp/a.md"; "qrc:/documents/guide.md" → ":/documents/guide.md"; a
// plain path is returned as it is.
QString localFilePath(const QString& pathOrUrl);

} // namespace attnbook
