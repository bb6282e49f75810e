#include "app/models/export_controller.h"

#include "app/models/lesson_session.h"
#include "app/models/file_url.h"
#include "core/document/lesson.h"
#include "exports/export_output.h"
#include "exports/export_request.h"
#include "exports/lesson_bundle.h"
#include "exports/output_policy.h"
#include "exports/pdf_lesson.h"
#include "exports/worksheet_pdf.h"
#include "exports/worksheet_variants.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QStandardPaths>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <new>

namespace attnbook {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("ExportController", text);
}

// "1 page", "3 pages".
QString count(int n, const char* one, const char* many) {
    return QStringLiteral("%1 %2").arg(n).arg(tr(n == 1 ? one : many));
}

QString sizeText(qint64 bytes) {
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeTraditionalFormat);
}

// What the worker needs, copied: it never touches the session.
struct Job {
    int run = 0;
    ExportController::Kind kind = ExportController::LessonPdf;
    ExportRequest request;
    std::string bytes;                      // the working copy of the document
    std::string path;                       // where it came from
    std::shared_ptr<const DataFiles> files; // where its {file: PATH} values come from
    QString folder;                         // the temporary folder
    std::shared_ptr<std::atomic<bool>> cancel;
};

// The exports report `done` of `total` per phase; this turns them into one fraction that only
// grows, and a line saying what is being done.
class ProgressMap {
  public:
    explicit ProgressMap(ExportController::Kind kind) : kind_(kind) {}

    std::pair<double, QString> map(int done, int total, const QString& step) {
        const double f = total > 0 ? std::clamp(double(done) / total, 0.0, 1.0) : 0.0;
        const bool page = step.startsWith(QLatin1String("page "));
        const bool sheet =
            step.startsWith(QLatin1String("variant ")) || step.startsWith(QLatin1String("sheet "));
        double value = last_;
        QString text;
        const QString inner = page    ? tr("painted page %1 of %2").arg(done).arg(total)
                              : sheet ? tr("laid out %1").arg(step)
                                      : QString();
        switch (kind_) {
        case ExportController::LessonPdf:
            value = page ? 0.12 + 0.83 * f : 0.08;
            text = page ? inner : tr("laying out the lesson");
            break;
        case ExportController::Worksheet:
            value = page ? 0.6 + 0.38 * f : sheet ? 0.05 + 0.55 * f : value;
            text = inner.isEmpty() ? step : inner;
            break;
        case ExportController::Bundle: {
            static const QStringList stages = {
                QStringLiteral("the lesson PDF"), QStringLiteral("the worksheet"),
                QStringLiteral("the data"), QStringLiteral("the figures"), QStringLiteral("done")};
            static const QStringList said = {
                tr("rendering the lesson PDF"), tr("rendering the worksheet and its key"),
                tr("writing the data"), tr("drawing the figures"), tr("packing the bundle")};
            const double width = 0.85 / 4;
            if (const int s = int(stages.indexOf(step)); s >= 0) {
                stage_ = s;
                value = 0.05 + width * s;
                text = said[s];
            } else {
                value = 0.05 + width * (stage_ + (page ? 0.5 + 0.5 * f : 0.5 * f));
                text = said[stage_] + QStringLiteral(": ") + (inner.isEmpty() ? step : inner);
            }
            break;
        }
        case ExportController::Notebook:
            value = 0.1 + 0.85 * f;
            text = tr("writing the notebook");
            break;
        case ExportController::WebPage:
            value = 0.1 + 0.85 * f;
            text = tr("writing the web page");
            break;
        }
        last_ = std::max(last_, std::min(value, 0.99));
        if (!text.isEmpty()) {
            text[0] = text[0].toUpper();
        }
        return {last_, text};
    }

  private:
    ExportController::Kind kind_;
    double last_ = 0;
    int stage_ = 0;
};

using Post = std::function<void(double, const QString&)>;

ExportController::Outcome renderJob(const Job& job, const Post& post) {
    ExportController::Outcome out;
    out.run = job.run;
    ProgressMap progress(job.kind);
    ExportControl control;
    control.cancel = job.cancel.get();
    control.progress = [&](int done, int total, const QString& step) {
        const auto [value, text] = progress.map(done, total, step);
        post(value, text);
    };
    const auto removeWritten = [&] {
        for (const ExportController::RenderedFile& f : out.files) {
            QFile::remove(f.path);
        }
        out.files.clear();
    };
    // A file of the preview, written plainly: the folder is ours, and nothing outside it changes.
    const auto keep = [&](const QString& role, const QString& name, const QByteArray& bytes) {
        const QString path =
            QDir(job.folder).filePath(QStringLiteral("render-%1-%2").arg(job.run).arg(name));
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() ||
            !file.flush()) {
            out.result = ExportResult::failed(
                tr("%1: cannot write the preview: %2").arg(path, file.errorString()));
            file.close();
            QFile::remove(path);
            return false;
        }
        out.files.push_back({role, path});
        return true;
    };

    post(0.0, tr("Reading and computing the lesson"));
    RenderedExport rendered;
    out.result = renderExport(job.bytes, job.path, job.files, job.request, &rendered, control);
    if (out.result.status == ExportStatus::InvalidDocument && out.result.line > 0) {
        out.result.error =
            tr("line %1:%2: %3").arg(out.result.line).arg(out.result.column).arg(out.result.error);
    }
    if (out.result.ok()) {
        const QString paper = job.request.paper == Paper::Letter ? tr("Letter") : tr("A4");
        static const std::map<QString, QString> fileNames = {
            {QStringLiteral("lesson"), QStringLiteral("lesson.pdf")},
            {QStringLiteral("worksheet"), QStringLiteral("worksheet.pdf")},
            {QStringLiteral("answers"), QStringLiteral("answers.pdf")},
            {QStringLiteral("roster"), QStringLiteral("roster.csv")},
            {QStringLiteral("bundle"), QStringLiteral("bundle.zip")},
            {QStringLiteral("notebook"), QStringLiteral("lesson.ipynb")},
            {QStringLiteral("html"), QStringLiteral("lesson.html")}};
        for (const RenderedPart& part : rendered.parts) {
            if (!keep(part.role, fileNames.at(part.role), part.bytes)) {
                break;
            }
        }
        if (out.result.ok() && job.request.bundle &&
            keep(QStringLiteral("preview"), QStringLiteral("bundle-lesson.pdf"),
                 rendered.bundlePreview)) {
            out.summary =
                tr("Bundle: %1 · %2 · %3 · the preview shows its lesson.pdf")
                    .arg(count(rendered.bundleEntries, "file", "files"),
                         sizeText(rendered.part(QStringLiteral("bundle"))->bytes.size()), paper);
        } else if (const RenderedPart* notebook = rendered.part(QStringLiteral("notebook"))) {
            // No page to preview: what it holds, and where it opens.
            out.summary =
                tr("Notebook: %1 · %2 · nbformat 4 for the python3 kernel, no outputs "
                   "stored")
                    .arg(count(int(notebook->bytes.count("\"cell_type\": ")), "cell", "cells"),
                         sizeText(notebook->bytes.size()));
        } else if (const RenderedPart* page = rendered.part(QStringLiteral("html"))) {
            // A page, not pages: what it holds, and where it opens.
            out.summary = tr("Web page: %1 · %2 · one offline file with its figures inside, "
                             "for any browser or a course site")
                              .arg(count(int(page->bytes.count("<svg ")), "figure", "figures"),
                                   sizeText(page->bytes.size()));
        } else if (job.request.lessonPdf) {
            out.summary = tr("Lesson PDF · %1 · %2")
                              .arg(paper, sizeText(rendered.parts.front().bytes.size()));
        } else if (job.request.worksheet) {
            const ExportRequest& r = job.request;
            QStringList parts{
                tr("Worksheet: %1").arg(count(rendered.worksheetPages, "page", "pages"))};
            if (r.answers) {
                parts << tr("answer key: %1").arg(count(rendered.answerPages, "page", "pages"));
            }
            const bool roster = !r.roster.isEmpty();
            if (r.variants > 0) {
                parts
                    << tr("%1, seed %2").arg(count(r.variants, "variant", "variants")).arg(r.seed);
            } else if (roster) {
                parts << tr("a variant for each name, seed %1").arg(r.seed);
            } else {
                parts << tr("the lesson's own numbers");
            }
            if (roster) {
                parts << tr("%1 on the roster").arg(count(int(r.roster.size()), "name", "names"));
            }
            parts << paper;
            out.summary = parts.join(QStringLiteral(" · "));
        }
    }
    // Cancel pressed as the render finished: the user asked for nothing.
    if (out.result.ok() && control.cancelled()) {
        out.result = ExportResult::cancelled();
    }
    if (!out.result.ok()) {
        removeWritten();
    }
    return out;
}

} // namespace

ExportController::ExportController(QObject* parent) : QObject(parent) {
    connect(&watcher_, &QFutureWatcher<Outcome>::finished, this, &ExportController::finishRender);
}

ExportController::~ExportController() {
    if (cancel_) {
        *cancel_ = true;
    }
    watcher_.waitForFinished();
}

void ExportController::setSession(LessonSession* session) {
    if (session_ == session) {
        return;
    }
    if (session_) {
        disconnect(session_, nullptr, this, nullptr);
    }
    session_ = session;
    if (session_) {
        connect(session_, &LessonSession::opened, this, &ExportController::lessonOpened);
        connect(session_, &LessonSession::edited, this, &ExportController::documentEdited);
    }
    Q_EMIT sessionChanged();
    lessonOpened();
}

void ExportController::lessonOpened() {
    if (session_ && session_->rebuilding()) {
        return; // the same lesson, edited: documentEdited() follows
    }
    // Another lesson: a render under way is for the old one.
    if (busy_ && cancel_) {
        *cancel_ = true;
    }
    ++run_;
    clearPreview();
    setStatus({}, {});
    // The session has read the lesson; computing it is what the render does.
    worksheetAvailable_ = exportable() && lessonHasWorksheet(session_->lesson());
    Q_EMIT lessonChanged();
}

// The document's bytes changed (never a what-if, which exports do not read): the preview shows
// the document as it was, and whether it has a worksheet may have changed. A render under way
// finishes, as a preview that is not current.
void ExportController::documentEdited() {
    ++documentVersion_;
    const bool wasCurrent = previewCurrent();
    previewCurrent_ = false;
    // The session read the edited document just before it said so (issue 24: each edit parsed
    // the lesson twice, here a second time).
    worksheetAvailable_ = exportable() && lessonHasWorksheet(session_->lesson());
    Q_EMIT lessonChanged();
    if (wasCurrent) {
        Q_EMIT previewChanged();
    }
}

void ExportController::setKind(Kind kind) {
    if (kind != kind_) {
        kind_ = kind;
        optionsEdited();
    }
}

void ExportController::setPaper(const QString& paper) {
    // Read by the command line's rules: a size it refuses is a problem here too, not A4.
    if (paper != paperText_) {
        paperText_ = paper;
        optionsEdited();
    }
}

void ExportController::setAnswers(bool answers) {
    if (answers != answers_) {
        answers_ = answers;
        optionsEdited();
    }
}

void ExportController::setVariants(int variants) {
    variants = std::clamp(variants, 0, kMaxVariants);
    if (variants != variants_) {
        variants_ = variants;
        optionsEdited();
    }
}

void ExportController::setSeed(const QString& seed) {
    if (seed != seed_) {
        seed_ = seed;
        optionsEdited();
    }
}

void ExportController::setRosterPath(const QString& pathOrUrl) {
    rosterPath_ = pathOrUrl;
    roster_.clear();
    rosterProblem_.clear();
    const QString path = localFilePath(pathOrUrl);
    if (!path.isEmpty()) {
        const std::optional<QStringList> names = readRoster(path, &rosterProblem_);
        if (names) {
            roster_ = *names;
        }
    }
    optionsEdited();
}

QString ExportController::optionsProblem() const {
    // The command line's rules and words, as a sentence.
    const auto sentence = [](QString text) {
        if (!text.isEmpty()) {
            text[0] = text[0].toUpper();
        }
        return text;
    };
    QString problem;
    if (!readPaper(paperText_, &problem)) {
        return sentence(problem);
    }
    if (kind_ != Worksheet) {
        return {};
    }
    if (seedUsed() && !readSeed(seed_, &problem)) {
        return sentence(problem);
    }
    return rosterProblem_;
}

ExportRequest ExportController::request() const {
    ExportRequest r;
    r.lessonPdf = kind_ == LessonPdf;
    r.worksheet = kind_ == Worksheet;
    r.bundle = kind_ == Bundle;
    r.notebook = kind_ == Notebook;
    r.html = kind_ == WebPage;
    r.paper = readPaper(paperText_, nullptr).value_or(Paper::A4);
    if (r.worksheet) {
        r.answers = answers_;
        r.variants = variants_;
        r.seed = seedUsed() ? readSeed(seed_, nullptr).value_or(1) : 1;
        r.roster = roster_;
    }
    return r;
}

bool ExportController::exportable() const {
    return session_ && session_->loaded();
}

bool ExportController::worksheetAvailable() const {
    return exportable() && worksheetAvailable_;
}

void ExportController::optionsEdited() {
    ++optionsVersion_;
    const bool wasCurrent = previewCurrent();
    previewCurrent_ = false;
    if (!busy_) {
        setStatus({}, {}); // what was said was about the old options
    }
    Q_EMIT optionsChanged();
    if (wasCurrent) {
        Q_EMIT previewChanged();
    }
}

QString ExportController::previewFile(const QString& role) const {
    for (const RenderedFile& f : files_) {
        if (f.role == role) {
            return f.path;
        }
    }
    return {};
}

QUrl ExportController::previewUrl() const {
    const QString role = renderedKind_ == LessonPdf   ? QStringLiteral("lesson")
                         : renderedKind_ == Worksheet ? QStringLiteral("worksheet")
                                                      : QStringLiteral("preview");
    const QString path = previewFile(role);
    return path.isEmpty() ? QUrl() : QUrl::fromLocalFile(path);
}

QUrl ExportController::answersPreviewUrl() const {
    const QString path = previewFile(QStringLiteral("answers"));
    return path.isEmpty() ? QUrl() : QUrl::fromLocalFile(path);
}

void ExportController::clearPreview() {
    const bool had = previewReady();
    for (const RenderedFile& f : files_) {
        QFile::remove(f.path);
    }
    files_.clear();
    previewCurrent_ = false;
    previewSummary_.clear();
    if (had) {
        Q_EMIT previewChanged();
    }
}

void ExportController::setStatus(const QString& error, const QString& message) {
    if (error != error_ || message != message_) {
        error_ = error;
        message_ = message;
        Q_EMIT statusChanged();
    }
}

bool ExportController::renderPreview() {
    if (busy_) {
        setStatus(tr("An export is already being rendered: wait for it or cancel it"), {});
        return false;
    }
    if (!exportable()) {
        setStatus(tr("No lesson is open"), {});
        return false;
    }
    if (kind_ == Worksheet && !worksheetAvailable()) {
        setStatus(tr("This lesson has no worksheet options and no quizzes: nothing to put on a "
                     "worksheet"),
                  {});
        return false;
    }
    if (kind_ == Worksheet) {
        if (const QString path = localFilePath(rosterPath_); !path.isEmpty()) {
            setRosterPath(rosterPath_); // read it again: it may have changed since it was chosen
        }
    }
    if (const QString problem = optionsProblem(); !problem.isEmpty()) {
        setStatus(problem, {});
        return false;
    }
    Job job;
    job.kind = kind_;
    job.request = request();
    if (!folder_) {
        auto folder = std::make_unique<QTemporaryDir>(QDir::tempPath() +
                                                      QStringLiteral("/attnbook-export-XXXXXX"));
        if (!folder->isValid()) {
            setStatus(
                tr("cannot make a temporary folder for the preview: %1").arg(folder->errorString()),
                {});
            return false;
        }
        folder_ = std::move(folder);
    }
    job.folder = folder_->path();
    job.bytes = documentBytes();
    job.path = filePath();
    job.files = dataFiles();
    job.run = ++run_;
    job.cancel = cancel_ = std::make_shared<std::atomic<bool>>(false);
    renderingKind_ = kind_;

    busy_ = true;
    progress_ = 0;
    stage_ = tr("Starting");
    setStatus({}, {});
    // Options may change while it runs; what it renders are the options of now.
    optionsAtRender_ = optionsVersion_;
    documentAtRender_ = documentVersion_;
    const Post post = [this, run = job.run](double value, const QString& text) {
        QMetaObject::invokeMethod(
            this, [this, run, value, text] { applyProgress(run, value, text); },
            Qt::QueuedConnection);
    };
    watcher_.setFuture(QtConcurrent::run([job, post] { return renderJob(job, post); }));
    Q_EMIT busyChanged();
    Q_EMIT progressChanged();
    return true;
}

void ExportController::cancel() {
    if (busy_ && cancel_ && !cancel_->exchange(true)) {
        stage_ = tr("Cancelling…");
        Q_EMIT progressChanged();
    }
}

void ExportController::applyProgress(int run, double fraction, const QString& stage) {
    if (run != run_ || !busy_ || (cancel_ && cancel_->load())) {
        return;
    }
    progress_ = std::max(progress_, fraction);
    stage_ = stage;
    Q_EMIT progressChanged();
}

void ExportController::finishRender() {
    Outcome out = watcher_.result();
    busy_ = false;
    const bool current = out.run == run_;
    if (!current) {
        // For a lesson no longer open: nothing of it is kept.
        for (const RenderedFile& f : out.files) {
            QFile::remove(f.path);
        }
        out.result = ExportResult::cancelled();
    }
    const bool ok = out.result.ok();
    if (ok) {
        for (const RenderedFile& f : files_) {
            QFile::remove(f.path);
        }
        files_ = std::move(out.files);
        renderedKind_ = renderingKind_;
        previewCurrent_ =
            optionsAtRender_ == optionsVersion_ && documentAtRender_ == documentVersion_;
        previewSummary_ = out.summary;
        progress_ = 1;
        stage_ = tr("Done");
        setStatus({}, tr("Rendered. Check the preview, then save it."));
        Q_EMIT previewChanged();
    } else if (out.result.status == ExportStatus::Cancelled) {
        progress_ = 0;
        stage_ = tr("Cancelled");
        if (current) {
            setStatus({}, tr("Cancelled: nothing was written."));
        }
    } else {
        progress_ = 0;
        stage_ = tr("Failed");
        setStatus(out.result.error, {});
    }
    Q_EMIT busyChanged();
    Q_EMIT progressChanged();
    Q_EMIT renderFinished(ok);
}

std::string ExportController::documentBytes() const {
    // The session's working copy, kept edits included: valid UTF-8 for any lesson that reads.
    return session_ ? session_->documentText().toStdString() : std::string();
}

std::string ExportController::filePath() const {
    return session_ ? session_->filePath().toStdString() : std::string();
}

std::shared_ptr<const DataFiles> ExportController::dataFiles() const {
    // The open lesson's own source (its folder, its bundle, none for a new lesson), never one
    // guessed from its path: the session keeps it, and what it read, across edits.
    return session_ ? session_->lesson().files : noDataFiles();
}

QString ExportController::answersPathFor(const QString& worksheetPath) {
    const QFileInfo info(worksheetPath);
    return info.dir().filePath(info.completeBaseName() + QStringLiteral("-answers.pdf"));
}

namespace {

QString withSuffix(const QString& path, ExportController::Kind kind) {
    if (path.isEmpty() || !QFileInfo(path).suffix().isEmpty()) {
        return path;
    }
    return path + (kind == ExportController::Bundle     ? QStringLiteral(".zip")
                   : kind == ExportController::Notebook ? QStringLiteral(".ipynb")
                   : kind == ExportController::WebPage  ? QStringLiteral(".html")
                                                        : QStringLiteral(".pdf"));
}

} // namespace

QStringList ExportController::targetsFor(const QString& pathOrUrl) const {
    const QString path = withSuffix(localFilePath(pathOrUrl), kind_);
    if (path.isEmpty()) {
        return {};
    }
    QStringList targets{path};
    if (kind_ == Worksheet) {
        if (answers_) {
            targets << answersPathFor(path);
        }
        if (!roster_.isEmpty()) {
            targets << rosterCsvPath(path);
        }
    }
    return targets;
}

bool ExportController::save(const QString& pathOrUrl) {
    if (busy_) {
        setStatus(tr("Wait for the render to finish, or cancel it, before saving"), {});
        return false;
    }
    if (!previewReady()) {
        setStatus(tr("Nothing is rendered yet: render the preview first"), {});
        return false;
    }
    if (!previewCurrent()) {
        setStatus(tr("The options changed since the preview: render it again before saving"), {});
        return false;
    }
    const QString path = withSuffix(localFilePath(pathOrUrl), renderedKind_);
    if (path.isEmpty()) {
        setStatus(tr("Choose a file to save to"), {});
        return false;
    }
    // What was rendered, read back from the preview folder, and where each part goes.
    RenderedExport rendered;
    for (const RenderedFile& f : files_) {
        if (f.role == QLatin1String("preview")) {
            continue; // the bundle's lesson.pdf, shown only
        }
        QFile file(f.path);
        if (!file.open(QIODevice::ReadOnly)) {
            setStatus(tr("%1: cannot read the rendered file: %2").arg(f.path, file.errorString()),
                      {});
            return false;
        }
        rendered.parts.push_back({f.role, file.readAll()});
    }
    ExportTargets targets;
    targets.lessonPdf = targets.worksheet = targets.bundle = targets.notebook = targets.html = path;
    targets.answers = answersPathFor(path);
    // Every file the lesson reads is an input, as for `attnbook export` (lessonInputs): a data
    // file beside the lesson is never replaced by an export.
    QStringList inputs{localFilePath(rosterPath_)};
    if (session_ && !session_->bundled()) {
        inputs << lessonInputs(session_->lesson(), session_->filePath());
    }
    QStringList paths;
    if (const ExportResult r = writeExport(rendered, targets, inputs, &paths); !r.ok()) {
        setStatus(r.error, {});
        return false;
    }
    QStringList names;
    for (const QString& p : paths) {
        names << QFileInfo(p).fileName();
    }
    const QString list = names.size() < 2
                             ? names.join(QString())
                             : names.mid(0, names.size() - 1).join(QStringLiteral(", ")) +
                                   tr(" and ") + names.back();
    setStatus(
        {},
        tr("Saved %1 in %2").arg(list, QDir::toNativeSeparators(QFileInfo(path).absolutePath())));
    Q_EMIT saved(paths);
    return true;
}

QUrl ExportController::suggestedFolder() const {
    if (session_ && !session_->bundled() && !session_->filePath().isEmpty() &&
        !session_->filePath().startsWith(QLatin1Char(':'))) {
        return QUrl::fromLocalFile(QFileInfo(session_->filePath()).absolutePath());
    }
    QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (documents.isEmpty() || !QFileInfo(documents).isDir()) {
        documents = QDir::homePath();
    }
    return QUrl::fromLocalFile(documents);
}

QString ExportController::suggestedFileName() const {
    const QString file = session_ ? session_->fileName() : QString();
    QString base = QFileInfo(file).completeBaseName();
    if (base.isEmpty()) {
        base = QStringLiteral("lesson");
    }
    switch (kind_) {
    case LessonPdf:
        return base + QStringLiteral(".pdf");
    case Worksheet:
        return base + QStringLiteral("-worksheet.pdf");
    case Notebook:
        return base + QStringLiteral(".ipynb");
    case WebPage:
        return base + QStringLiteral(".html");
    case Bundle:
        break;
    }
    const QString zip = base + QStringLiteral(".zip");
    return zip.compare(file, Qt::CaseInsensitive) == 0 ? base + QStringLiteral("-bundle.zip") : zip;
}

} // namespace attnbook
