#include "files/recovery_store.h"

#include "files/lesson_source.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

namespace attnbook {

RecoveryStore::RecoveryStore(QString folder) : folder_(std::move(folder)) {
    if (folder_.isEmpty()) {
        folder_ = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
                  QStringLiteral("/recovery");
    }
}

QString RecoveryStore::recoveryPathFor(const QString& lessonPath) const {
    const QByteArray key = QFileInfo(lessonPath).absoluteFilePath().toUtf8();
    const QString hash =
        QString::fromLatin1(QCryptographicHash::hash(key, QCryptographicHash::Sha256).toHex());
    return folder_ + QLatin1Char('/') + hash.left(24) + QLatin1Char('-') +
           QFileInfo(lessonPath).fileName();
}

bool RecoveryStore::write(const QString& lessonPath, const QByteArray& bytes,
                          QString* error) const {
    if (!QDir().mkpath(folder_)) {
        *error = folder_ + QStringLiteral(": cannot create the recovery folder");
        return false;
    }
    std::string why;
    const QString copy = recoveryPathFor(lessonPath);
    const QString lesson = QFileInfo(lessonPath).absoluteFilePath();
    if (!writeFileAtomically(copy.toStdString(), bytes.toStdString(), why) ||
        !writeFileAtomically((copy + QStringLiteral(".path")).toStdString(),
                             lesson.toUtf8().toStdString(), why)) {
        *error = QString::fromStdString(why);
        return false;
    }
    return true;
}

QStringList RecoveryStore::lessonsWithCopies() const {
    const QFileInfoList names = QDir(folder_).entryInfoList({QStringLiteral("*.path")}, QDir::Files,
                                                            QDir::Time); // newest first
    QStringList lessons;
    for (const QFileInfo& name : names) {
        QFile pathFile(name.filePath());
        if (!pathFile.open(QIODevice::ReadOnly) || pathFile.size() > 64 * 1024) {
            continue;
        }
        const QString lesson = QString::fromUtf8(pathFile.readAll());
        QFile onDisk(lesson);
        if (recoveryPathFor(lesson) + QStringLiteral(".path") != name.filePath() ||
            !onDisk.open(QIODevice::ReadOnly)) {
            continue; // a stray file, or a lesson that is gone: nothing to open it in
        }
        if (find(lesson, onDisk.readAll())) {
            lessons.push_back(lesson);
        }
    }
    return lessons;
}

std::optional<QByteArray> RecoveryStore::find(const QString& lessonPath,
                                              const QByteArray& bytesOnDisk) const {
    QFile file(recoveryPathFor(lessonPath));
    if (!file.open(QIODevice::ReadOnly)) {
        return std::nullopt;
    }
    const QByteArray bytes = file.readAll();
    if (bytes.isEmpty() || bytes == bytesOnDisk) {
        return std::nullopt;
    }
    return bytes;
}

void RecoveryStore::discard(const QString& lessonPath) const {
    QFile::remove(recoveryPathFor(lessonPath));
    QFile::remove(recoveryPathFor(lessonPath) + QStringLiteral(".path"));
}

} // namespace attnbook
