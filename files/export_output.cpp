#include "files/export_output.h"

#include <QtCore/QRegularExpression>

#include <memory>

namespace attnbook {

QString csvField(const QString& text) {
    static const QRegularExpression special(QStringLiteral("[\",\\r\\n]|^ | $"));
    if (!text.contains(special)) {
        return text;
    }
    return u'"' + QString(text).replace(u'"', QStringLiteral("\"\"")) + u'"';
}

OutputBatch::OutputBatch() = default;
OutputBatch::~OutputBatch() = default; // an uncommitted QSaveFile removes its temporary file

ExportResult OutputBatch::stage(const ExportOutput& output) {
    auto file = std::make_unique<OutputFile>(output.path);
    QString error;
    if (!file->open(&error) || !file->write(output.bytes, &error)) {
        return ExportResult::failed(error);
    }
    files_.push_back(std::move(file));
    return ExportResult::done();
}

ExportResult OutputBatch::commit() {
    for (std::unique_ptr<OutputFile>& file : files_) {
        QString error;
        if (!file->commit(&error)) {
            return ExportResult::failed(error);
        }
    }
    files_.clear();
    return ExportResult::done();
}

ExportResult writeOutputs(const std::vector<ExportOutput>& outputs, const ExportControl& control) {
    QStringList paths;
    for (const ExportOutput& output : outputs) {
        paths << output.path;
    }
    if (const QString problem = outputsProblem(paths, {}); !problem.isEmpty()) {
        return ExportResult::failed(problem);
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
