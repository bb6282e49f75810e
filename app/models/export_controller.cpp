#include "app/models/export_controller.h"

#include "app/models/file_url.h"
#include "app/models/lesson_session.h"
#include "exports/export_summary.h"
#include "exports/worksheet/worksheet_pdf.h"
#include "exports/worksheet/worksheet_variants.h"

#include <QFileInfo>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <utility>

namespace attnbook {
namespace {

// QML's names for the kinds are the exports' own.
static_assert(int(ExportController::LessonPdf) == int(ExportKind::LessonPdf) &&
              int(ExportController::Worksheet) == int(ExportKind::Worksheet) &&
              int(ExportController::Bundle) == int(ExportKind::Bundle) &&
              int(ExportController::Notebook) == int(ExportKind::Notebook) &&
              int(ExportController::WebPage) == int(ExportKind::WebPage));

} // namespace

ExportController::ExportController(QObject* parent) : QObject(parent) {
    connect(&watcher_, &QFutureWatcher<PreviewOutcome>::finished, this,
            &ExportController::finishRender);
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
    renderAgain_ = false;
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
    // The session read the edited document just before it said so (each edit parsed
    // the lesson twice, here a second time).
    worksheetAvailable_ = exportable() && lessonHasWorksheet(session_->lesson());
    Q_EMIT lessonChanged();
    if (wasCurrent) {
        Q_EMIT previewChanged();
    }
}

// An option set from QML: a one-click choice renders its preview at once (choiceMade).
template <typename T> void ExportController::setOption(T& option, T value, bool oneClick) {
    if (value != option) {
        option = std::move(value);
        optionsEdited();
        if (oneClick) {
            choiceMade();
        }
    }
}

void ExportController::setKind(Kind kind) {
    setOption(choice_.kind, ExportKind(kind), true);
}

void ExportController::setPaper(const QString& paper) {
    // Read by the command line's rules: a size it refuses is a problem here too, not A4.
    setOption(choice_.paper, paper, true);
}

void ExportController::setAnswers(bool answers) {
    setOption(choice_.answers, answers, true);
}

void ExportController::setVariants(int variants) {
    setOption(choice_.variants, std::clamp(variants, 0, kMaxVariants), false);
}

void ExportController::setSeed(const QString& seed) {
    setOption(choice_.seed, seed, false);
}

void ExportController::setRosterPath(const QString& pathOrUrl) {
    rosterPath_ = pathOrUrl;
    choice_.rosterFile = localFilePath(pathOrUrl);
    choice_.readRosterFile();
    optionsEdited();
}

QString ExportController::rosterName() const {
    return choice_.rosterFile.isEmpty() ? QString() : QFileInfo(choice_.rosterFile).fileName();
}

void ExportController::setRenderOnChoice(bool on) {
    if (on != renderOnChoice_) {
        renderOnChoice_ = on;
        Q_EMIT renderOnChoiceChanged();
    }
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

// A one-click choice ("Render again" was needed after changing the export kind): its
// preview is rendered at once, or as soon as the render under way, now of no use, has stopped.
void ExportController::choiceMade() {
    if (!renderOnChoice_ || !exportable()) {
        return;
    }
    if (busy_) {
        renderAgain_ = true;
        cancel();
        return;
    }
    if (choice_.kind == ExportKind::Worksheet && !worksheetAvailable()) {
        return; // the dialog offers no worksheet then; nothing to say
    }
    renderPreview();
}

QUrl ExportController::previewUrl() const {
    const QString path = preview_.shownPath();
    return path.isEmpty() ? QUrl() : QUrl::fromLocalFile(path);
}

QUrl ExportController::answersPreviewUrl() const {
    const QString path = preview_.path(QStringLiteral("answers"));
    return path.isEmpty() ? QUrl() : QUrl::fromLocalFile(path);
}

void ExportController::clearPreview() {
    const bool had = previewReady();
    preview_.clear();
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

// Why a render cannot start now (said in `error`), or false when it can.
bool ExportController::refusedToRender() {
    QString why;
    if (busy_) {
        why = tr("An export is already being rendered: wait for it or cancel it");
    } else if (!exportable()) {
        why = tr("No lesson is open");
    } else if (choice_.kind == ExportKind::Worksheet && !worksheetAvailable()) {
        why = tr("This lesson has no worksheet options and no quizzes: nothing to put on a "
                 "worksheet");
    } else {
        if (choice_.kind == ExportKind::Worksheet && !choice_.rosterFile.isEmpty()) {
            setRosterPath(rosterPath_); // read it again: it may have changed since it was chosen
        }
        why = optionsProblem();
    }
    if (!why.isEmpty()) {
        setStatus(why, {});
    }
    return !why.isEmpty();
}

bool ExportController::renderPreview() {
    if (refusedToRender()) {
        return false;
    }
    PreviewJob job;
    QString why;
    job.folder = preview_.folder(&why);
    if (job.folder.isEmpty()) {
        setStatus(why, {});
        return false;
    }
    job.kind = choice_.kind;
    job.request = request();
    // The session's working copy, kept edits included: valid UTF-8 for any lesson that reads.
    job.bytes = session_->documentText().toStdString();
    job.path = session_->filePath().toStdString();
    // The open lesson's own source (its folder, its bundle, none for a new lesson), never one
    // guessed from its path: the session keeps it, and what it read, across edits.
    job.files = session_->lesson().files;
    job.run = ++run_;
    job.cancel = cancel_ = std::make_shared<std::atomic<bool>>(false);
    renderingKind_ = choice_.kind;

    busy_ = true;
    progress_ = 0;
    stage_ = tr("Starting");
    setStatus({}, {});
    optionsAtRender_ = optionsVersion_;
    documentAtRender_ = documentVersion_;
    const ProgressPost post = [this, run = job.run](double value, const QString& text) {
        QMetaObject::invokeMethod(
            this, [this, run, value, text] { applyProgress(run, value, text); },
            Qt::QueuedConnection);
    };
    watcher_.setFuture(QtConcurrent::run([job, post] { return renderPreviewJob(job, post); }));
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
    PreviewOutcome out = watcher_.result();
    busy_ = false;
    const bool current = out.run == run_;
    if (!current) {
        // For a lesson no longer open: nothing of it is kept.
        PreviewFiles::remove(out.files);
        out.files.clear();
        out.result = ExportResult::cancelled();
    }
    const bool ok = out.result.ok();
    if (ok) {
        keepRendered(std::move(out));
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
    // A choice made while it ran: its own preview now.
    if (std::exchange(renderAgain_, false) && !previewCurrent()) {
        choiceMade();
    }
}

void ExportController::keepRendered(PreviewOutcome out) {
    preview_.replace(std::move(out.files), renderingKind_);
    previewCurrent_ = optionsAtRender_ == optionsVersion_ && documentAtRender_ == documentVersion_;
    previewSummary_ = out.summary;
    progress_ = 1;
    stage_ = tr("Done");
    // The preview first: the dialog says "Rendered" only once it shows it.
    Q_EMIT previewChanged();
    setStatus({}, tr("Rendered. Check the preview, then save it."));
}

QStringList ExportController::targetsFor(const QString& pathOrUrl) const {
    return choice_.targetPaths(localFilePath(pathOrUrl));
}

bool ExportController::save(const QString& pathOrUrl) {
    if (busy_) {
        setStatus(tr("Wait for the render to finish, or cancel it, before saving"), {});
        return false;
    }
    if (!previewReady() || !session_) {
        setStatus(tr("Nothing is rendered yet: render the preview first"), {});
        return false;
    }
    if (!previewCurrent()) {
        setStatus(tr("The options changed since the preview: render it again before saving"), {});
        return false;
    }
    const QString path = localFilePath(pathOrUrl);
    if (path.isEmpty()) {
        setStatus(tr("Choose a file to save to"), {});
        return false;
    }
    // Every file the lesson reads is an input, as for `attnbook export`: a data file beside
    // the lesson is never replaced by an export.
    QStringList paths;
    if (const ExportResult r = preview_.saveTo(
            path, exportInputs(session_->lesson(), session_->filePath(), choice_.rosterFile),
            &paths);
        !r.ok()) {
        setStatus(r.error, {});
        return false;
    }
    setStatus({}, savedSentence(paths));
    Q_EMIT saved(paths);
    return true;
}

QUrl ExportController::suggestedFolder() const {
    return QUrl::fromLocalFile(exportFolderFor(session_ ? session_->filePath() : QString()));
}

QString ExportController::suggestedFileName() const {
    return suggestedExportName(choice_.kind, session_ ? session_->fileName() : QString());
}

} // namespace attnbook
