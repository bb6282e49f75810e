#include "files/output_policy.h"

#include "core/document/lesson.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QSaveFile>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <optional>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

namespace attnbook {
namespace {

QString tr(const char* text, const char* disambiguation = nullptr, int n = -1) {
    return QCoreApplication::translate("OutputPolicy", text, disambiguation, n);
}

QString cannotWrite(const QString& path, const QString& why) {
    return QStringLiteral("%1: cannot write: %2").arg(path, why);
}

QByteArray native(const QString& path) {
    return QFile::encodeName(path);
}

std::optional<struct stat> lstatOf(const QString& path) {
    struct stat info {};
    if (::lstat(native(path).constData(), &info) != 0) {
        return std::nullopt;
    }
    return info;
}

// "/a/b/name" → {"/a/b", "name"}; "/name" → {"/", "name"}.
std::pair<QString, QString> splitFolder(const QString& absolute) {
    const qsizetype slash = absolute.lastIndexOf(u'/');
    const QString folder = slash <= 0 ? QStringLiteral("/") : absolute.left(slash);
    return {folder, absolute.mid(slash + 1)};
}

// The folder resolved by the kernel (realpath: links and ".." as the file system sees them),
// the last part kept as it is; the path unchanged when the folder does not exist.
QString withCanonicalFolder(const QString& absolute) {
    const auto [folder, name] = splitFolder(absolute);
    char buffer[PATH_MAX];
    if (::realpath(native(folder).constData(), buffer) == nullptr) {
        return absolute;
    }
    const QString real = QFile::decodeName(buffer);
    if (name.isEmpty()) {
        return real;
    }
    return real.endsWith(u'/') ? real + name : real + u'/' + name;
}

// What kind of file a mode is, for "it is ..." messages; "" for a regular file.
QString kindProblem(mode_t mode) {
    if (S_ISREG(mode)) {
        return {};
    }
    if (S_ISDIR(mode)) {
        return tr("it is a folder");
    }
    if (S_ISFIFO(mode)) {
        return tr("it is a FIFO (named pipe), not a regular file");
    }
    if (S_ISCHR(mode) || S_ISBLK(mode)) {
        return tr("it is a device, not a regular file");
    }
    if (S_ISSOCK(mode)) {
        return tr("it is a socket, not a regular file");
    }
    return tr("it is not a regular file");
}

// Who a path is, once resolved: an existing file by device and inode (hard links and bind
// mounts match), a new name by its resolved path.
struct FileIdentity {
    QString resolved;
    bool exists = false;
    dev_t device = 0;
    ino_t inode = 0;

    bool sameAs(const FileIdentity& other) const {
        if (exists && other.exists) {
            return device == other.device && inode == other.inode;
        }
        return !resolved.isEmpty() && resolved == other.resolved;
    }
};

FileIdentity identityOf(const QString& path) {
    FileIdentity id;
    id.resolved = resolvedOutputPath(path);
    struct stat info {};
    if (!id.resolved.isEmpty() && ::stat(native(id.resolved).constData(), &info) == 0) {
        id.exists = true;
        id.device = info.st_dev;
        id.inode = info.st_ino;
    }
    return id;
}

// QSaveFile often says only "Unknown error": errno, cleared before each step, says why.
QString systemReason(const QFileDevice& file, int code) {
    const QString qt = file.errorString();
    if (code != 0 && (qt.isEmpty() || qt == QLatin1String("Unknown error"))) {
        return qt_error_string(code);
    }
    if (qt.isEmpty() || qt == QLatin1String("Unknown error")) {
        return tr("the folder is not writable or the disk is full");
    }
    return qt;
}

} // namespace

QString resolvedOutputPath(const QString& path) {
    if (path.isEmpty()) {
        return {};
    }
    // Not cleaned: "link/../x" means what the kernel says, which realpath finds below.
    QString current = QFileInfo(path).isAbsolute() ? path : QFileInfo(path).absoluteFilePath();
    constexpr int kMaxLinks = 40; // Linux's own limit on links followed in one lookup
    for (int hops = 0; hops <= kMaxLinks; ++hops) {
        const std::optional<struct stat> info = lstatOf(current);
        if (!info || !S_ISLNK(info->st_mode)) {
            return withCanonicalFolder(current);
        }
        // A link: QSaveFile would write its target, so its target is the output.
        char buffer[PATH_MAX];
        const ssize_t length = ::readlink(native(current).constData(), buffer, sizeof buffer);
        if (length <= 0 || size_t(length) >= sizeof buffer) {
            return {};
        }
        const QString target = QFile::decodeName(QByteArray(buffer, qsizetype(length)));
        current = target.startsWith(u'/') ? target : splitFolder(current).first + u'/' + target;
    }
    return {};
}

QString outputProblem(const QString& path) {
    if (path.isEmpty()) {
        return tr("an output needs a file name");
    }
    const QString resolved = resolvedOutputPath(path);
    if (resolved.isEmpty()) {
        return cannotWrite(path, tr("it is a link that loops (or more than 40 links in a row)"));
    }
    const std::optional<struct stat> info = lstatOf(resolved);
    if (info) {
        if (const QString kind = kindProblem(info->st_mode); !kind.isEmpty()) {
            return cannotWrite(path, kind);
        }
    }
    const QString folder = splitFolder(resolved).first;
    struct stat folderInfo {};
    if (::stat(native(folder).constData(), &folderInfo) != 0) {
        return cannotWrite(path, tr("the folder %1 does not exist").arg(folder));
    }
    if (!S_ISDIR(folderInfo.st_mode)) {
        return cannotWrite(path, tr("%1 is not a folder").arg(folder));
    }
    if (::access(native(folder).constData(), W_OK | X_OK) != 0) {
        return cannotWrite(path, tr("the folder %1 is not writable").arg(folder));
    }
    if (info && ::access(native(resolved).constData(), W_OK) != 0) {
        return cannotWrite(path, tr("the file is read-only"));
    }
    return {};
}

QString outputsClash(const QStringList& outputs, const QStringList& inputs) {
    std::vector<std::pair<FileIdentity, QString>> seen;
    for (const QString& input : inputs) {
        if (!input.isEmpty() && !input.startsWith(u':')) {
            seen.emplace_back(identityOf(input), input);
        }
    }
    for (const QString& output : outputs) {
        const FileIdentity id = identityOf(output);
        for (const auto& [other, name] : seen) {
            if (id.sameAs(other)) {
                return tr("%1 and %2 name the same file").arg(output, name);
            }
        }
        seen.emplace_back(id, output);
    }
    return {};
}

QString outputsProblem(const QStringList& outputs, const QStringList& inputs) {
    if (const QString clash = outputsClash(outputs, inputs); !clash.isEmpty()) {
        return tr("cannot write: %1").arg(clash);
    }
    for (const QString& output : outputs) {
        if (const QString problem = outputProblem(output); !problem.isEmpty()) {
            return problem;
        }
    }
    return {};
}

QStringList lessonInputs(const Lesson& lesson, const QString& lessonPath) {
    QStringList inputs{lessonPath};
    const QString folder = QFileInfo(lessonPath).absolutePath();
    for (const std::string& file : lessonDataFiles(lesson)) {
        inputs << folder + u'/' + QString::fromStdString(file);
    }
    return inputs;
}

OutputFile::OutputFile(const QString& path) : path_(path) {}

OutputFile::~OutputFile() = default; // an uncommitted QSaveFile removes its temporary file

bool OutputFile::open(QString* error) {
    if (const QString problem = outputProblem(path_); !problem.isEmpty()) {
        *error = problem;
        return false;
    }
    resolved_ = resolvedOutputPath(path_);
    file_ = std::make_unique<QSaveFile>(resolved_);
    errno = 0;
    if (!file_->open(QIODevice::WriteOnly)) {
        failureReason_ = systemReason(*file_, errno);
        *error = cannotWrite(path_, failureReason_);
        file_.reset();
        return false;
    }
    return true;
}

bool OutputFile::write(const QByteArray& bytes, QString* error) {
    if (!file_) {
        *error = cannotWrite(path_, tr("the file is not open"));
        return false;
    }
    // Flush now, so that a short write (a full disk) is seen here: commit() would otherwise
    // report success over a truncated file.
    errno = 0;
    const qint64 before = file_->size();
    const qint64 written = file_->write(bytes);
    const bool flushed = file_->flush();
    if (written != bytes.size() || !flushed || file_->size() != before + bytes.size()) {
        failureReason_ = systemReason(*file_, errno ? errno : EIO);
        *error = cannotWrite(path_, failureReason_);
        file_->cancelWriting();
        file_.reset();
        return false;
    }
    return true;
}

QIODevice* OutputFile::stream() const {
    return file_.get();
}

QString OutputFile::failureReason() const {
    if (file_) { // a stream's write failed, or nothing did
        return systemReason(*file_, errno);
    }
    return failureReason_.isEmpty() ? tr("the file is not open") : failureReason_;
}

bool OutputFile::commit(QString* error) {
    if (!file_) {
        *error = cannotWrite(path_, tr("the file is not open"));
        return false;
    }
    // Checked again at the last moment: something that became a FIFO or a device since open()
    // must not be renamed over.
    const std::optional<struct stat> replaced = lstatOf(resolved_);
    if (replaced) {
        if (const QString kind = kindProblem(replaced->st_mode); !kind.isEmpty()) {
            failureReason_ = kind;
            *error = cannotWrite(path_, kind);
            file_->cancelWriting();
            file_.reset();
            return false;
        }
        // The new file takes the old one's place: its owner, group and mode too (as root, an
        // edit must not hand a user's file to root). Without the right to keep the owner, the
        // group alone is kept where allowed.
        const int fd = file_->handle();
        if (fd >= 0) {
            if (::fchown(fd, replaced->st_uid, replaced->st_gid) != 0) {
                (void)::fchown(fd, uid_t(-1), replaced->st_gid);
            }
            (void)::fchmod(fd, replaced->st_mode & 07777);
        }
        if (replaced->st_nlink > 1) {
            // An atomic save is a new file: other names (hard links) of the old one keep it.
            const auto others = qulonglong(replaced->st_nlink - 1);
            warning_ = others == 1
                           ? tr("%1 had 1 other name (a hard link), which keeps the old contents")
                                 .arg(path_)
                           : tr("%1 had %2 other names (hard links), which keep the old contents")
                                 .arg(path_)
                                 .arg(others);
        }
    }
    errno = 0;
    if (!file_->commit()) {
        failureReason_ = systemReason(*file_, errno ? errno : EIO);
        *error = cannotWrite(path_, failureReason_);
        file_.reset();
        return false;
    }
    file_.reset();
    return true;
}

bool writeOutputFile(const QString& path, const QByteArray& bytes, QString* error,
                     QString* warning) {
    OutputFile file(path);
    if (!file.open(error) || !file.write(bytes, error) || !file.commit(error)) {
        return false;
    }
    if (warning) {
        *warning = file.warning();
    }
    return true;
}

} // namespace attnbook
