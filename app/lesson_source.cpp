#include "lesson_source.h"

#include <QDir>
#include <QFileInfo>
#include <QSaveFile>

namespace attnbook {

bool isBundlePath(const std::string& path) {
    return QString::fromStdString(path).endsWith(QLatin1String(".zip"), Qt::CaseInsensitive);
}

Lesson openLessonSource(const std::string& path) {
    return loadLesson(path);
}

bool writeFileAtomically(const std::string& path, const std::string& bytes, std::string& error) {
    const QString name = QString::fromStdString(path);
    const QFileInfo info(name);
    const auto fail = [&](const QString& why) {
        error = path + ": cannot write: " + why.toStdString();
        return false;
    };
    if (info.isDir()) {
        return fail(QStringLiteral("it is a folder"));
    }
    const QFileInfo folder(info.absolutePath());
    if (!folder.exists()) {
        return fail(QStringLiteral("the folder %1 does not exist").arg(folder.filePath()));
    }
    if (!folder.isDir()) {
        return fail(QStringLiteral("%1 is not a folder").arg(folder.filePath()));
    }
    QSaveFile file(name);
    if (!file.open(QIODevice::WriteOnly)) {
        return fail(file.errorString());
    }
    if (file.write(bytes.data(), qint64(bytes.size())) != qint64(bytes.size())) {
        const QString why = file.errorString();
        file.cancelWriting();
        return fail(why);
    }
    if (!file.commit()) {
        // QSaveFile often says only "Unknown error": add what we know.
        const QString why = file.errorString();
        return fail(why.isEmpty() || why == QLatin1String("Unknown error")
                        ? QStringLiteral("the folder is not writable or the disk is full")
                        : why);
    }
    return true;
}

} // namespace attnbook
