#include "app/models/file_url.h"

#include <QtCore/QUrl>

namespace attnbook {

QString localFilePath(const QString& pathOrUrl) {
    if (pathOrUrl.startsWith(QLatin1String("file:"))) {
        return QUrl(pathOrUrl).toLocalFile();
    }
    if (pathOrUrl.startsWith(QLatin1String("qrc:"))) {
        return QLatin1Char(':') + QUrl(pathOrUrl).path();
    }
    return pathOrUrl;
}

} // namespace attnbook
