#include "app/lesson_source.h"

#include "exports/bundle_reader.h"
#include "exports/lesson_bundle.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include <cerrno>

namespace attnbook {

bool isBundlePath(const std::string& path) {
    return QString::fromStdString(path).endsWith(QLatin1String(".zip"), Qt::CaseInsensitive);
}

Lesson openLessonSource(const std::string& path) {
    if (path.rfind(':', 0) == 0) {
        // A lesson bundled in the executable (Qt's resources), which core cannot open.
        QFile resource(QString::fromStdString(path));
        if (!resource.open(QIODevice::ReadOnly)) {
            Lesson lesson;
            lesson.document.path = path;
            lesson.diagnostics.push_back({Severity::Error, 0, 0, "no such bundled lesson", ""});
            return lesson;
        }
        return parseLesson(resource.readAll().toStdString(), path);
    }
    if (!isBundlePath(path)) {
        return loadLesson(path);
    }
    // readBundle verifies every entry against the manifest's sha256 before anything is used.
    const QString zip = QString::fromStdString(path);
    QString error;
    const std::optional<Bundle> bundle = readBundle(zip, &error);
    std::string why;
    if (!bundle) {
        // One line per problem, each "ZIPPATH: problem": keep the problems.
        QStringList problems;
        for (const QString& line : error.split(u'\n')) {
            problems << (line.startsWith(zip + QStringLiteral(": ")) ? line.mid(zip.size() + 2)
                                                                     : line);
        }
        why = problems.join(QStringLiteral("; ")).toStdString();
    } else if (!bundle->entries.count(kBundleLessonName)) {
        why = "it holds no lesson.md";
    }
    if (!why.empty()) {
        Lesson lesson;
        lesson.document.path = path;
        lesson.diagnostics.push_back(
            {Severity::Error, 0, 0,
             "cannot open the bundle " + QFileInfo(zip).fileName().toStdString() + ": " + why, ""});
        return lesson;
    }
    // The files its cells read travel as data/files/PATH: read them from
    // there, now and on every re-read of this bundle's lesson (an edit in the
    // window re-parses under the same path).
    std::map<std::string, std::string> files;
    for (const auto& [name, bytes] : bundle->entries) {
        if (name.startsWith(kBundleDataFilesFolder)) {
            files[name.mid(kBundleDataFilesFolder.size()).toStdString()] = bytes.toStdString();
        }
    }
    mountDataFiles(path, memoryDataFiles(std::move(files)));
    return parseLesson(bundle->lesson().toStdString(), path);
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
    if (info.exists() && !info.isFile()) {
        // A rename over a device or a pipe would replace it, not write into it.
        return fail(QStringLiteral("it is not a regular file (a device, pipe or socket)"));
    }
    const QFileInfo folder(info.absolutePath());
    if (!folder.exists()) {
        return fail(QStringLiteral("the folder %1 does not exist").arg(folder.filePath()));
    }
    if (!folder.isDir()) {
        return fail(QStringLiteral("%1 is not a folder").arg(folder.filePath()));
    }
    // QSaveFile's own message is often empty or "Unknown error" when the
    // system refused (a full disk, a file-size limit): errno says why.
    const auto reason = [](const QSaveFile& f, int code) {
        const QString qt = f.errorString();
        if (code != 0 && (qt.isEmpty() || qt == QLatin1String("Unknown error"))) {
            return qt_error_string(code);
        }
        return qt.isEmpty() ? qt_error_string(code) : qt;
    };
    QSaveFile file(name);
    errno = 0;
    if (!file.open(QIODevice::WriteOnly)) {
        return fail(reason(file, errno));
    }
    // Flush now, so that a short write (a full disk) is seen here: commit()
    // would otherwise report success over a truncated file.
    errno = 0;
    const qint64 written = file.write(bytes.data(), qint64(bytes.size()));
    const bool flushed = file.flush();
    if (written != qint64(bytes.size()) || !flushed || file.size() != qint64(bytes.size())) {
        const QString why = reason(file, errno ? errno : EIO);
        file.cancelWriting();
        return fail(why);
    }
    errno = 0;
    if (!file.commit()) {
        // QSaveFile often says only "Unknown error": add what we know.
        return fail(reason(file, errno ? errno : EIO));
    }
    return true;
}

} // namespace attnbook
