#include "files/lesson_data_carry.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include <optional>

namespace attnbook {
namespace {

std::optional<std::string> readData(const DataFiles& files, const std::string& path) {
    std::string error;
    return files.read(path, DataFileLimits{}.maxBytes, error);
}

// The bytes at `path`, or nothing when there is no file.
std::optional<QByteArray> bytesAt(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return std::nullopt;
    }
    return file.readAll();
}

} // namespace

QStringList dataFilesLeftBehind(const std::vector<std::string>& paths, const DataFiles& files,
                                const QString& toFolder) {
    QStringList out;
    for (const std::string& path : paths) {
        const std::optional<std::string> bytes = readData(files, path);
        if (!bytes) {
            continue;
        }
        const QString relative = QString::fromStdString(path);
        const std::optional<QByteArray> there = bytesAt(QDir(toFolder).filePath(relative));
        if (!there || *there != QByteArray::fromStdString(*bytes)) {
            out << relative;
        }
    }
    return out;
}

bool carryDataFiles(const QStringList& paths, const DataFiles& files, const QString& toFolder,
                    QString* error) {
    const QDir folder(toFolder);
    std::vector<std::pair<QString, QByteArray>> writes;
    for (const QString& relative : paths) {
        const std::optional<std::string> bytes = readData(files, relative.toStdString());
        if (!bytes) {
            *error = QObject::tr("%1: cannot read it to copy it along").arg(relative);
            return false;
        }
        const QString target = folder.filePath(relative);
        const QByteArray data = QByteArray::fromStdString(*bytes);
        if (const std::optional<QByteArray> there = bytesAt(target); there && *there != data) {
            *error = QObject::tr("%1 is already there and differs from the lesson's: nothing was "
                                 "copied or saved (choose another folder, or save a bundle)")
                         .arg(QDir::toNativeSeparators(target));
            return false;
        }
        writes.emplace_back(target, data);
    }
    for (const auto& [target, data] : writes) {
        QDir().mkpath(QFileInfo(target).absolutePath());
        QSaveFile out(target);
        if (!out.open(QIODevice::WriteOnly) || out.write(data) != data.size() || !out.commit()) {
            *error = QObject::tr("%1: cannot write: %2")
                         .arg(QDir::toNativeSeparators(target), out.errorString());
            return false;
        }
    }
    return true;
}

} // namespace attnbook
