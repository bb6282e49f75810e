#include "exports/export_preview.h"

#include "exports/export_progress.h"
#include "exports/export_summary.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>

#include <map>

namespace attnbook {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("ExportPreview", text);
}

// The file name each part takes in the folder (after "render-RUN-").
QString fileNameOf(const QString& role) {
    static const std::map<QString, QString> names = {
        {QStringLiteral("lesson"), QStringLiteral("lesson.pdf")},
        {QStringLiteral("worksheet"), QStringLiteral("worksheet.pdf")},
        {QStringLiteral("answers"), QStringLiteral("answers.pdf")},
        {QStringLiteral("roster"), QStringLiteral("roster.csv")},
        {QStringLiteral("bundle"), QStringLiteral("bundle.zip")},
        {QStringLiteral("notebook"), QStringLiteral("lesson.ipynb")},
        {QStringLiteral("html"), QStringLiteral("lesson.html")},
        {QStringLiteral("preview"), QStringLiteral("bundle-lesson.pdf")}};
    return names.at(role);
}

// Writes each rendered part into the job's folder; the first that cannot be written fails it.
ExportResult keepParts(const PreviewJob& job, const RenderedExport& rendered,
                       std::vector<PreviewFile>* kept) {
    std::vector<RenderedPart> parts = rendered.parts;
    if (job.request.bundle) {
        parts.push_back({QStringLiteral("preview"), rendered.bundlePreview});
    }
    for (const RenderedPart& part : parts) {
        const QString path =
            QDir(job.folder)
                .filePath(QStringLiteral("render-%1-%2").arg(job.run).arg(fileNameOf(part.role)));
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(part.bytes) != part.bytes.size() ||
            !file.flush()) {
            const QString why = file.errorString();
            file.close();
            QFile::remove(path);
            return ExportResult::failed(tr("%1: cannot write the preview: %2").arg(path, why));
        }
        kept->push_back({part.role, path});
    }
    return ExportResult::done();
}

} // namespace

PreviewOutcome renderPreviewJob(const PreviewJob& job, const ProgressPost& post) {
    PreviewOutcome out;
    out.run = job.run;
    ExportProgress progress(job.kind);
    ExportControl control;
    control.cancel = job.cancel.get();
    control.progress = [&](int done, int total, const QString& step) {
        const auto [value, text] = progress.map(done, total, step);
        post(value, text);
    };
    post(0.0, tr("Reading and computing the lesson"));
    RenderedExport rendered;
    out.result = renderExport(job.bytes, job.path, job.files, job.request, &rendered, control);
    if (out.result.status == ExportStatus::InvalidDocument && out.result.line > 0) {
        out.result.error =
            tr("line %1:%2: %3").arg(out.result.line).arg(out.result.column).arg(out.result.error);
    }
    if (out.result.ok()) {
        out.result = keepParts(job, rendered, &out.files);
        out.summary = exportSummary(job.request, rendered);
    }
    // Cancel pressed as the render finished: the user asked for nothing.
    if (out.result.ok() && control.cancelled()) {
        out.result = ExportResult::cancelled();
    }
    if (!out.result.ok()) {
        PreviewFiles::remove(out.files);
        out.files.clear();
    }
    return out;
}

QString PreviewFiles::folder(QString* error) {
    if (!folder_) {
        auto made = std::make_unique<QTemporaryDir>(QDir::tempPath() +
                                                    QStringLiteral("/attnbook-export-XXXXXX"));
        if (!made->isValid()) {
            *error =
                tr("cannot make a temporary folder for the preview: %1").arg(made->errorString());
            return {};
        }
        folder_ = std::move(made);
    }
    return folder_->path();
}

void PreviewFiles::replace(std::vector<PreviewFile> files, ExportKind kind) {
    remove(files_);
    files_ = std::move(files);
    kind_ = kind;
}

void PreviewFiles::clear() {
    remove(files_);
    files_.clear();
}

QString PreviewFiles::path(const QString& role) const {
    for (const PreviewFile& f : files_) {
        if (f.role == role) {
            return f.path;
        }
    }
    return {};
}

QString PreviewFiles::shownPath() const {
    switch (kind_) {
    case ExportKind::LessonPdf:
        return path(QStringLiteral("lesson"));
    case ExportKind::Worksheet:
        return path(QStringLiteral("worksheet"));
    case ExportKind::Bundle:
        return path(QStringLiteral("preview"));
    case ExportKind::Notebook:
    case ExportKind::WebPage:
        break;
    }
    return {};
}

bool PreviewFiles::readBack(RenderedExport* out, QString* error) const {
    *out = RenderedExport{};
    for (const PreviewFile& f : files_) {
        if (f.role == QLatin1String("preview")) {
            continue; // the bundle's lesson.pdf, shown only
        }
        QFile file(f.path);
        if (!file.open(QIODevice::ReadOnly)) {
            *error = tr("%1: cannot read the rendered file: %2").arg(f.path, file.errorString());
            return false;
        }
        out->parts.push_back({f.role, file.readAll()});
    }
    return true;
}

ExportResult PreviewFiles::saveTo(const QString& path, const QStringList& inputs,
                                  QStringList* written) const {
    RenderedExport rendered;
    QString why;
    if (!readBack(&rendered, &why)) {
        return ExportResult::failed(why);
    }
    const QString file = withExportSuffix(path, kind_);
    return writeExport(rendered, ExportTargets::allAt(file), inputs, written);
}

void PreviewFiles::remove(const std::vector<PreviewFile>& files) {
    for (const PreviewFile& f : files) {
        QFile::remove(f.path);
    }
}

} // namespace attnbook
