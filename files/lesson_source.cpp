#include "files/lesson_source.h"

#include "files/bundle_reader.h"
#include "files/output_policy.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>

namespace attnbook {

namespace {

// The data files bundled beside the lessons in the executable (":/documents/data/..."), by
// PATH relative to the lesson's folder: a built-in lesson reads them as a lesson on disk reads
// the files next to it.
std::shared_ptr<const DataFiles> resourceDataFiles(const QString& folder) {
    std::map<std::string, std::string> files;
    QDirIterator entries(folder + QStringLiteral("/data"), QDir::Files,
                         QDirIterator::Subdirectories);
    while (entries.hasNext()) {
        const QString name = entries.next();
        QFile file(name);
        if (file.open(QIODevice::ReadOnly)) {
            files[name.mid(folder.size() + 1).toStdString()] = file.readAll().toStdString();
        }
    }
    return memoryDataFiles(std::move(files));
}

} // namespace

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
        return parseLesson(resource.readAll().toStdString(), path,
                           resourceDataFiles(QFileInfo(QString::fromStdString(path)).path()));
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
    // there. The lesson keeps this source (Lesson::files), and every re-read of
    // it (an edit in the window, a what-if) passes it on.
    std::map<std::string, std::string> files;
    for (const auto& [name, bytes] : bundle->entries) {
        if (name.startsWith(kBundleDataFilesFolder)) {
            files[name.mid(kBundleDataFilesFolder.size()).toStdString()] = bytes.toStdString();
        }
    }
    return parseLesson(bundle->lesson().toStdString(), path, memoryDataFiles(std::move(files)));
}

bool writeFileAtomically(const std::string& path, const std::string& bytes, std::string& error) {
    QString why;
    if (!writeOutputFile(QString::fromStdString(path), QByteArray::fromStdString(bytes), &why)) {
        error = why.toStdString();
        return false;
    }
    return true;
}

} // namespace attnbook
