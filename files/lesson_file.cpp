#include "files/lesson_file.h"

#include "files/lesson_source.h"

#include <QFile>
#include <QFileInfo>

namespace attnbook {

LessonFile::LessonFile(QObject* parent) : QObject(parent) {
    connect(&watcher_, &QFileSystemWatcher::fileChanged, this, &LessonFile::onWatcherSignal);
    // An editor's atomic save replaces the file: its folder changes, and the
    // watcher silently drops the old file. Watching the folder catches it.
    connect(&watcher_, &QFileSystemWatcher::directoryChanged, this, &LessonFile::onWatcherSignal);
}

bool LessonFile::open(const QString& path, QString* error) {
    std::string why;
    const std::optional<std::string> bytes = readFileBytes(path.toStdString(), why);
    if (!bytes) {
        *error = path + QStringLiteral(": ") + QString::fromStdString(why);
        return false;
    }
    path_ = QFileInfo(path).absoluteFilePath();
    savedBytes_ = QByteArray::fromStdString(*bytes);
    announced_ = false;
    watch();
    return true;
}

void LessonFile::adopt(const QString&, const QByteArray& bytes) {
    if (!watcher_.files().isEmpty()) {
        watcher_.removePaths(watcher_.files());
    }
    if (!watcher_.directories().isEmpty()) {
        watcher_.removePaths(watcher_.directories());
    }
    path_.clear();
    savedBytes_ = bytes;
    announced_ = false;
}

QByteArray LessonFile::bytesOnDisk() const {
    QFile file(path_);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool LessonFile::changedOnDisk() const {
    if (!hasFile()) {
        return false;
    }
    if (!QFileInfo::exists(path_)) {
        return true; // deleted or moved away
    }
    return bytesOnDisk() != savedBytes_;
}

LessonFile::SaveResult LessonFile::save(const QByteArray& bytes, QString* error, bool overwrite) {
    if (!hasFile()) {
        *error = QStringLiteral("this lesson has no file yet: use Save As");
        return SaveResult::Failed;
    }
    if (!overwrite && changedOnDisk()) {
        *error = path_ + QStringLiteral(": changed on disk since it was opened");
        return SaveResult::ChangedOnDisk;
    }
    std::string why;
    if (!writeFileAtomically(path_.toStdString(), bytes.toStdString(), why)) {
        *error = QString::fromStdString(why);
        return SaveResult::Failed;
    }
    savedBytes_ = bytes;
    announced_ = false;
    watch();
    return SaveResult::Saved;
}

LessonFile::SaveResult LessonFile::saveAs(const QString& path, const QByteArray& bytes,
                                          QString* error) {
    std::string why;
    if (!writeFileAtomically(path.toStdString(), bytes.toStdString(), why)) {
        *error = QString::fromStdString(why);
        return SaveResult::Failed;
    }
    if (!watcher_.files().isEmpty()) {
        watcher_.removePaths(watcher_.files());
    }
    if (!watcher_.directories().isEmpty()) {
        watcher_.removePaths(watcher_.directories());
    }
    path_ = QFileInfo(path).absoluteFilePath();
    savedBytes_ = bytes;
    announced_ = false;
    watch();
    return SaveResult::Saved;
}

void LessonFile::watch() {
    if (!hasFile()) {
        return;
    }
    if (!watcher_.files().contains(path_) && QFileInfo::exists(path_)) {
        watcher_.addPath(path_);
    }
    const QString folder = QFileInfo(path_).absolutePath();
    if (!watcher_.directories().contains(folder)) {
        watcher_.addPath(folder);
    }
}

void LessonFile::onWatcherSignal() {
    watch(); // a replaced file must be watched again
    if (!announced_ && changedOnDisk()) {
        announced_ = true;
        Q_EMIT changedExternally();
    }
}

} // namespace attnbook
