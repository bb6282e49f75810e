#include "app/window/recent_files.h"

#include <QFileInfo>
#include <QSettings>

namespace attnbook {
namespace {
const QString kKey = QStringLiteral("window/recentFiles");
}

RecentFiles::RecentFiles(QObject* parent) : QObject(parent) {
    files_ = QSettings().value(kKey).toStringList();
}

void RecentFiles::add(const QString& path) {
    if (path.isEmpty() || path.startsWith(QLatin1Char(':'))) {
        return; // the bundled lesson is always one menu entry away
    }
    const QString absolute = QFileInfo(path).absoluteFilePath();
    files_.removeAll(absolute);
    files_.prepend(absolute);
    while (files_.size() > kMaximum) {
        files_.removeLast();
    }
    save();
}

void RecentFiles::remove(const QString& path) {
    if (files_.removeAll(path) > 0) {
        save();
    }
}

void RecentFiles::clear() {
    files_.clear();
    save();
}

void RecentFiles::save() {
    QSettings().setValue(kKey, files_);
    Q_EMIT filesChanged();
}

} // namespace attnbook
