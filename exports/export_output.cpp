#include "export_output.h"

#include <QtCore/QFileInfo>
#include <QtCore/QSaveFile>

#include <memory>

namespace attnbook {

namespace {

QString cannotWrite(const QString& path, const QString& why) {
    return QStringLiteral("%1: cannot write: %2").arg(path, why);
}

// QSaveFile often says only "Unknown error": add what we know.
QString systemReason(const QFileDevice& file) {
    const QString why = file.errorString();
    return why.isEmpty() || why == QLatin1String("Unknown error")
               ? QStringLiteral("the folder is not writable or the disk is full")
               : why;
}

} // namespace

QString outputProblem(const QString& path) {
    if (path.isEmpty()) {
        return QStringLiteral("an output needs a file name");
    }
    const QFileInfo info(path);
    if (info.isDir()) {
        return cannotWrite(path, QStringLiteral("it is a folder"));
    }
    const QFileInfo folder(info.absolutePath());
    if (!folder.exists()) {
        return cannotWrite(path,
                           QStringLiteral("the folder %1 does not exist").arg(folder.filePath()));
    }
    if (!folder.isDir()) {
        return cannotWrite(path, QStringLiteral("%1 is not a folder").arg(folder.filePath()));
    }
    if (!folder.isWritable()) {
        return cannotWrite(path,
                           QStringLiteral("the folder %1 is not writable").arg(folder.filePath()));
    }
    if (info.exists() && !info.isFile()) {
        // QSaveFile would rename its temporary file over a device node or a pipe.
        return cannotWrite(path,
                           QStringLiteral("it is not a regular file (a device, pipe or socket)"));
    }
    if (info.exists() && !info.isWritable()) {
        return cannotWrite(path, QStringLiteral("the file is read-only"));
    }
    return {};
}

ExportResult writeOutputs(const std::vector<ExportOutput>& outputs, const ExportControl& control) {
    for (const ExportOutput& output : outputs) {
        if (const QString problem = outputProblem(output.path); !problem.isEmpty()) {
            return ExportResult::failed(problem);
        }
    }
    // Destroying an uncommitted QSaveFile removes its temporary file.
    std::vector<std::unique_ptr<QSaveFile>> files;
    for (const ExportOutput& output : outputs) {
        if (control.cancelled()) {
            return ExportResult::cancelled();
        }
        auto file = std::make_unique<QSaveFile>(output.path);
        if (!file->open(QIODevice::WriteOnly)) {
            return ExportResult::failed(cannotWrite(output.path, systemReason(*file)));
        }
        if (file->write(output.bytes) != output.bytes.size()) {
            return ExportResult::failed(cannotWrite(output.path, systemReason(*file)));
        }
        files.push_back(std::move(file));
    }
    if (control.cancelled()) {
        return ExportResult::cancelled();
    }
    for (size_t i = 0; i < files.size(); ++i) {
        if (!files[i]->commit()) {
            return ExportResult::failed(cannotWrite(outputs[i].path, systemReason(*files[i])));
        }
    }
    return ExportResult::done();
}

} // namespace attnbook
