#include "app/recovery_store.h"

#include "app/lesson_source.h"

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
    if (!writeFileAtomically(recoveryPathFor(lessonPath).toStdString(), bytes.toStdString(), why)) {
        *error = QString::fromStdString(why);
        return false;
    }
    return true;
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
}

} // namespace attnbook
