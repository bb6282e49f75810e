#include "exports/export_request.h"

#include "core/document/lesson.h"
#include "exports/bundle/bundle_writer.h"
#include "exports/html/lesson_html.h"
#include "exports/lesson_bundle.h"
#include "exports/notebook/lesson_notebook.h"
#include "exports/pdf/pdf_lesson.h"
#include "exports/worksheet/worksheet_variants.h"
#include "files/export_output.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QDir>
#include <QtCore/QFileInfo>

#include <algorithm>
#include <limits>
#include <new>
#include <tuple>

namespace attnbook {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("ExportRequest", text);
}

std::vector<Diagnostic> errorsOf(const std::vector<Diagnostic>& diagnostics) {
    std::vector<Diagnostic> errors;
    for (const Diagnostic& d : diagnostics) {
        if (d.severity == Severity::Error) {
            errors.push_back(d);
        }
    }
    return errors;
}

ExportResult invalidDocument(const Diagnostic& d) {
    ExportResult r;
    r.status = ExportStatus::InvalidDocument;
    r.line = d.line;
    r.column = d.column;
    r.error = QString::fromStdString(d.message);
    return r;
}

} // namespace

QString ExportRequest::problem() const {
    if (empty()) {
        return tr("say what to export: the lesson PDF, a worksheet, a bundle, a notebook or a "
                  "web page");
    }
    if (answers && !worksheet) {
        return tr("the answer key goes with a worksheet");
    }
    if (!worksheet && (variants > 0 || !roster.isEmpty())) {
        return tr("variants and a roster go with a worksheet");
    }
    if (variants < 0 || variants > kMaxVariants) {
        return tr("the number of variants is a whole number from 1 to %1").arg(kMaxVariants);
    }
    return {};
}

WorksheetOptions ExportRequest::worksheetOptions() const {
    WorksheetOptions options;
    options.paper = paper;
    options.variants = variants;
    options.seed = seed;
    options.roster = roster;
    options.answers = answers;
    return options;
}

std::optional<Paper> readPaper(const QString& text, QString* error) {
    const QString p = text.trimmed().toLower();
    if (p == QLatin1String("a4")) {
        return Paper::A4;
    }
    if (p == QLatin1String("letter")) {
        return Paper::Letter;
    }
    if (error) {
        *error = tr("the paper is a4 or letter, not %1").arg(text);
    }
    return std::nullopt;
}

std::optional<int> readVariants(const QString& text, QString* error) {
    bool ok = false;
    const int n = text.trimmed().toInt(&ok);
    if (!ok || n < 1 || n > kMaxVariants) {
        if (error) {
            *error = tr("the number of variants is a whole number from 1 to %1").arg(kMaxVariants);
        }
        return std::nullopt;
    }
    return n;
}

std::optional<std::uint64_t> readSeed(const QString& text, QString* error) {
    bool ok = false;
    const std::uint64_t seed = text.trimmed().toULongLong(&ok);
    if (!ok) {
        if (error) {
            *error = tr("the seed is a whole number from 0 to %1")
                         .arg(std::numeric_limits<std::uint64_t>::max());
        }
        return std::nullopt;
    }
    return seed;
}

const RenderedPart* RenderedExport::part(const QString& role) const {
    for (const RenderedPart& p : parts) {
        if (p.role == role) {
            return &p;
        }
    }
    return nullptr;
}

ExportResult renderExport(const std::string& bytes, const std::string& path,
                          std::shared_ptr<const DataFiles> files, const ExportRequest& request,
                          RenderedExport* out, const ExportControl& control) {
    try {
        return renderExport(parseLesson(bytes, path, std::move(files)), request, out, control);
    } catch (const std::bad_alloc&) {
        *out = RenderedExport{};
        return ExportResult::failed(tr("not enough memory for this export"));
    }
}

namespace {

// The worksheet, its answer key and the roster's CSV, as the request's parts.
ExportResult renderWorksheetParts(const Lesson& lesson, const ExportRequest& request,
                                  RenderedExport* out, const ExportControl& control) {
    WorksheetFiles files;
    if (ExportResult r = renderWorksheets(lesson, request.worksheetOptions(), &files, control);
        !r.ok()) {
        return r;
    }
    out->worksheetPages = files.worksheetPages;
    out->answerPages = files.answerPages;
    out->worksheetSpread = std::move(files.spread);
    out->parts.push_back({QStringLiteral("worksheet"), std::move(files.worksheet)});
    if (request.answers) {
        out->parts.push_back({QStringLiteral("answers"), std::move(files.answers)});
    }
    if (!request.roster.isEmpty()) {
        out->parts.push_back({QStringLiteral("roster"), std::move(files.roster)});
    }
    return ExportResult::done();
}

// The bundle: its entries made from the lesson and zipped, with its PDF kept for the preview.
ExportResult renderBundlePart(const Lesson& lesson, const LessonResults& results,
                              const ExportRequest& request, RenderedExport* out,
                              const ExportControl& control) {
    std::vector<BundleEntry> entries;
    if (ExportResult r =
            lessonBundleEntries(lesson, results, BundleOptions{request.paper}, &entries, control);
        !r.ok()) {
        return r;
    }
    if (control.cancelled()) {
        return ExportResult::cancelled();
    }
    BundleMetadata metadata;
    metadata.title = QString::fromStdString(lesson.title());
    metadata.appVersion = QStringLiteral(ATTNBOOK_VERSION);
    QByteArray zip;
    QString error;
    if (!bundleBytes(metadata, entries, &zip, &error)) {
        return ExportResult::failed(error);
    }
    for (const BundleEntry& e : entries) {
        if (e.name == QLatin1String("lesson.pdf")) {
            out->bundlePreview = e.bytes;
        }
    }
    out->bundleEntries = int(entries.size()) + 1;
    out->parts.push_back({QStringLiteral("bundle"), std::move(zip)});
    return ExportResult::done();
}

} // namespace

ExportResult renderExport(const Lesson& lesson, const ExportRequest& request, RenderedExport* out,
                          const ExportControl& control) {
    *out = RenderedExport{};
    if (const QString problem = request.problem(); !problem.isEmpty()) {
        return ExportResult::failed(problem);
    }
    try {
        // A document with any error is not printed (docs/lesson-format.md "Errors"): not a
        // reading error, not a cell that cannot compute, not a binding that does not resolve.
        out->errors = errorsOf(lesson.diagnostics);
        if (!out->errors.empty()) {
            return invalidDocument(out->errors.front());
        }
        AttentionEngine engine;
        const LessonResults results = computeLesson(lesson, engine);
        out->errors = errorsOf(lessonProblems(lesson, results));
        if (!out->errors.empty()) {
            return invalidDocument(out->errors.front());
        }
        if (request.worksheet && !lessonHasWorksheet(lesson)) {
            return ExportResult::failed(
                tr("this lesson has no worksheet options and no quizzes: nothing to put on a "
                   "worksheet"));
        }
        if (control.cancelled()) {
            return ExportResult::cancelled();
        }
        if (request.lessonPdf) {
            QByteArray pdf;
            if (ExportResult r = renderLessonPdf(lesson, results, request.paper, &pdf, control);
                !r.ok()) {
                return r;
            }
            out->parts.push_back({QStringLiteral("lesson"), std::move(pdf)});
        }
        if (request.worksheet) {
            if (ExportResult r = renderWorksheetParts(lesson, request, out, control); !r.ok()) {
                return r;
            }
        }
        if (request.bundle) {
            if (ExportResult r = renderBundlePart(lesson, results, request, out, control);
                !r.ok()) {
                return r;
            }
        }
        if (request.notebook) {
            QByteArray notebook;
            if (ExportResult r = renderLessonNotebook(lesson, results, &notebook, control);
                !r.ok()) {
                return r;
            }
            out->parts.push_back({QStringLiteral("notebook"), std::move(notebook)});
        }
        if (request.html) {
            QByteArray html;
            if (ExportResult r = renderLessonHtml(lesson, results, &html, control); !r.ok()) {
                return r;
            }
            out->parts.push_back({QStringLiteral("html"), std::move(html)});
        }
    } catch (const std::bad_alloc&) {
        *out = RenderedExport{};
        return ExportResult::failed(tr("not enough memory for this export"));
    }
    if (control.cancelled()) {
        *out = RenderedExport{};
        return ExportResult::cancelled();
    }
    return ExportResult::done();
}

QString ExportTargets::roster() const {
    return rosterCsvPath(worksheet);
}

QString ExportTargets::of(const QString& role) const {
    if (role == QLatin1String("lesson")) {
        return lessonPdf;
    }
    if (role == QLatin1String("worksheet")) {
        return worksheet;
    }
    if (role == QLatin1String("answers")) {
        return answers;
    }
    if (role == QLatin1String("roster")) {
        return roster();
    }
    if (role == QLatin1String("bundle")) {
        return bundle;
    }
    if (role == QLatin1String("notebook")) {
        return notebook;
    }
    if (role == QLatin1String("html")) {
        return html;
    }
    return {};
}

QStringList ExportTargets::paths(const ExportRequest& request) const {
    const std::pair<bool, QString> asked[] = {
        {request.lessonPdf, lessonPdf},
        {request.worksheet, worksheet},
        {request.worksheet && request.answers, answers},
        {request.worksheet && !request.roster.isEmpty(), roster()},
        {request.bundle, bundle},
        {request.notebook, notebook},
        {request.html, html}};
    QStringList out;
    for (const auto& [wanted, path] : asked) {
        if (wanted && !path.isEmpty()) {
            out << path;
        }
    }
    return out;
}

ExportTargets ExportTargets::allAt(const QString& path) {
    return {path, path, answersPathFor(path), path, path, path};
}

QString answersPathFor(const QString& worksheetPath) {
    const QFileInfo info(worksheetPath);
    return info.dir().filePath(info.completeBaseName() + QStringLiteral("-answers.pdf"));
}

QStringList exportInputs(const Lesson& lesson, const QString& lessonPath,
                         const QString& rosterPath) {
    QStringList inputs = lessonPath.isEmpty() ? QStringList() : lessonInputs(lesson, lessonPath);
    inputs << rosterPath;
    return inputs;
}

QString targetsClash(const QStringList& targets, const QStringList& inputs) {
    return outputsClash(targets, inputs);
}

QString targetsProblem(const QStringList& targets, const QStringList& inputs) {
    return outputsProblem(targets, inputs);
}

ExportResult writeExport(const RenderedExport& rendered, const ExportTargets& targets,
                         const QStringList& inputs, QStringList* written) {
    std::vector<ExportOutput> outputs;
    for (const RenderedPart& part : rendered.parts) {
        const QString target = targets.of(part.role);
        if (target.isEmpty()) {
            return ExportResult::failed(tr("no file was chosen for the %1").arg(part.role));
        }
        outputs.push_back({target, part.bytes});
    }
    QStringList paths;
    for (const ExportOutput& o : outputs) {
        paths << o.path;
    }
    if (const QString problem = targetsProblem(paths, inputs); !problem.isEmpty()) {
        return ExportResult::failed(problem);
    }
    if (ExportResult r = writeOutputs(outputs, {}); !r.ok()) {
        return r;
    }
    if (written) {
        for (const ExportOutput& o : outputs) {
            *written << o.path;
        }
    }
    return ExportResult::done();
}

} // namespace attnbook
