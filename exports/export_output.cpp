#include "exports/export_output.h"

#include <QtCore/QFileInfo>
#include <QtCore/QRegularExpression>
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

QString csvField(const QString& text) {
    static const QRegularExpression special(QStringLiteral("[\",\\r\\n]|^ | $"));
    if (!text.contains(special)) {
        return text;
    }
    return u'"' + QString(text).replace(u'"', QStringLiteral("\"\"")) + u'"';
}

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

OutputBatch::OutputBatch() = default;
OutputBatch::~OutputBatch() = default; // an uncommitted QSaveFile removes its temporary file

ExportResult OutputBatch::stage(const ExportOutput& output) {
    if (const QString problem = outputProblem(output.path); !problem.isEmpty()) {
        return ExportResult::failed(problem);
    }
    auto file = std::make_unique<QSaveFile>(output.path);
    if (!file->open(QIODevice::WriteOnly) || file->write(output.bytes) != output.bytes.size()) {
        return ExportResult::failed(cannotWrite(output.path, systemReason(*file)));
    }
    files_.push_back(std::move(file));
    return ExportResult::done();
}

ExportResult OutputBatch::commit() {
    for (std::unique_ptr<QSaveFile>& file : files_) {
        if (!file->commit()) {
            return ExportResult::failed(cannotWrite(file->fileName(), systemReason(*file)));
        }
    }
    files_.clear();
    return ExportResult::done();
}

ExportResult writeOutputs(const std::vector<ExportOutput>& outputs, const ExportControl& control) {
    for (const ExportOutput& output : outputs) {
        if (const QString problem = outputProblem(output.path); !problem.isEmpty()) {
            return ExportResult::failed(problem);
        }
    }
    OutputBatch batch;
    for (const ExportOutput& output : outputs) {
        if (control.cancelled()) {
            return ExportResult::cancelled();
        }
        if (ExportResult r = batch.stage(output); !r.ok()) {
            return r;
        }
    }
    if (control.cancelled()) {
        return ExportResult::cancelled();
    }
    return batch.commit();
}

} // namespace attnbook
