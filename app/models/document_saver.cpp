#include "app/models/document_saver.h"

#include "app/models/document_editor.h"
#include "app/models/file_url.h"
#include "app/models/lesson_session.h"
#include "app/models/problem_list_model.h"
#include "files/lesson_data_carry.h"
#include "files/output_policy.h"

#include <QFileInfo>
#include <QUrl>

#include <utility>

namespace attnbook {

DocumentSaver::DocumentSaver(LessonSession* session) : QObject(session), session_(session) {
    autosaveTimer_.setSingleShot(true);
    autosaveTimer_.setInterval(kAutosaveMs);
    connect(&autosaveTimer_, &QTimer::timeout, this, &DocumentSaver::autosave);
    connect(session->editor(), &DocumentEditor::historyChanged, this,
            &DocumentSaver::onDirtyChanged);
    connect(&file_, &LessonFile::changedExternally, this, [this] {
        changedOnDisk_ = true;
        Q_EMIT stateChanged();
    });
}

bool DocumentSaver::openFile(const QString& path, QString* error) {
    LessonFile next;
    if (!next.open(path, error)) {
        return false;
    }
    // Only now let go of the old file (a failed open leaves nothing half-done).
    file_.open(path, error);
    savedWithErrors_.clear();
    startOver();
    return true;
}

void DocumentSaver::adopt(const QString& name, const QByteArray& bytes) {
    file_.adopt(name, bytes);
    savedWithErrors_.clear();
    startOver();
}

// A fresh start for a file just opened, adopted or saved: no autosave
// pending, no recovery offer, no error, nothing changed on disk.
void DocumentSaver::startOver() {
    autosaveTimer_.stop();
    editedSinceSave_ = false;
    recovered_.reset();
    error_.clear();
    changedOnDisk_ = false;
    overwrite_ = false;
    Q_EMIT stateChanged();
}

void DocumentSaver::checkRecovery() {
    recovered_.reset();
    if (file_.hasFile()) {
        recovered_ = recovery_.find(file_.path(), file_.savedBytes());
    }
    otherRecoveries_.clear();
    if (!otherRecoveriesDismissed_) {
        const QString open =
            file_.hasFile() ? QFileInfo(file_.path()).absoluteFilePath() : QString();
        for (const QString& lesson : recovery_.lessonsWithCopies()) {
            if (lesson != open) {
                otherRecoveries_.push_back(lesson);
            }
        }
    }
    Q_EMIT stateChanged();
}

void DocumentSaver::dismissOtherRecoveries() {
    otherRecoveriesDismissed_ = true;
    otherRecoveries_.clear();
    Q_EMIT stateChanged();
}

void DocumentSaver::onDirtyChanged() {
    if (!session_->unsavedChanges()) {
        // Undone back to the saved text: nothing is left to recover, and a copy written on the
        // way would be offered at the next open as if work had been lost. (Not on opening a
        // file: its copy from a crash is what checkRecovery offers.)
        autosaveTimer_.stop();
        if (std::exchange(editedSinceSave_, false) && file_.hasFile()) {
            recovery_.discard(file_.path());
        }
        return;
    }
    editedSinceSave_ = true;
    // Every few seconds of unsaved edits: the first edit after a copy starts the clock.
    if (!autosaveTimer_.isActive()) {
        autosaveTimer_.start();
    }
}

void DocumentSaver::saved() {
    session_->editor()->markSaved();
    recovery_.discard(file_.path());
    savedWithErrors_.clear();
    const ProblemListModel& problems = *session_->problems();
    if (const int errors = problems.errorCount(); errors > 0) {
        for (int row = 0; row < problems.count(); ++row) {
            if (problems.problem(row).error) {
                const ProblemListModel::Problem& first = problems.problem(row);
                savedWithErrors_ =
                    (errors == 1 ? tr("Saved, but the lesson no longer passes check: %1 %2. Every "
                                      "export of it is refused until that is fixed.")
                                 : tr("Saved, but the lesson no longer passes check: %1 %2, and "
                                      "%3 more. Every export of it is refused until they are "
                                      "fixed."))
                        .arg(first.location, first.message)
                        .arg(errors - 1);
                break;
            }
        }
    }
    startOver();
}

bool DocumentSaver::save() {
    if (!file_.hasFile()) {
        error_ = tr("%1 has no file yet: choose where to save it.").arg(session_->fileName());
        Q_EMIT stateChanged();
        return false;
    }
    QString why;
    switch (
        file_.save(QByteArray::fromStdString(session_->working().serialize()), &why, overwrite_)) {
    case LessonFile::SaveResult::Saved:
        saved();
        return true;
    case LessonFile::SaveResult::ChangedOnDisk:
        changedOnDisk_ = true;
        error_ = tr("%1 was changed by another program since it was opened: reload it, keep "
                    "your version (the next save overwrites it) or save as another file.")
                     .arg(file_.path());
        break;
    case LessonFile::SaveResult::Failed:
        error_ = why;
        break;
    }
    Q_EMIT stateChanged();
    return false;
}

bool DocumentSaver::saveAs(const QString& pathOrUrl) {
    const QString path = localFilePath(pathOrUrl);
    const QString oldPath = file_.path();
    // A lesson opened from a bundle has no file of its own: Save As must not turn the bundle it
    // came from into a Markdown file (the output policy; the lesson file itself may be chosen).
    if (!file_.hasFile() && !session_->bundled() && !session_->filePath().isEmpty()) {
        if (const QString clash = outputsProblem({path}, {session_->filePath()});
            !clash.isEmpty()) {
            error_ = clash;
            Q_EMIT stateChanged();
            return false;
        }
    }
    QString why;
    if (file_.saveAs(path, QByteArray::fromStdString(session_->working().serialize()), &why) !=
        LessonFile::SaveResult::Saved) {
        error_ = why;
        Q_EMIT stateChanged();
        return false;
    }
    if (!oldPath.isEmpty() && oldPath != path) {
        recovery_.discard(oldPath);
    }
    session_->setPath(file_.path());
    saved();
    return true;
}

QStringList DocumentSaver::dataFilesLeftBehind(const QString& pathOrUrl) const {
    const Lesson& lesson = session_->lesson();
    if (!lesson.files) {
        return {};
    }
    return attnbook::dataFilesLeftBehind(lessonDataFiles(lesson), *lesson.files,
                                         QFileInfo(localFilePath(pathOrUrl)).absolutePath());
}

bool DocumentSaver::saveAsWithDataFiles(const QString& pathOrUrl) {
    const Lesson& lesson = session_->lesson();
    const QStringList carried = dataFilesLeftBehind(pathOrUrl);
    QString why;
    if (!carried.isEmpty() &&
        !carryDataFiles(carried, *lesson.files, QFileInfo(localFilePath(pathOrUrl)).absolutePath(),
                        &why)) {
        error_ = why;
        Q_EMIT stateChanged();
        return false;
    }
    return saveAs(pathOrUrl);
}

void DocumentSaver::restoreRecovery() {
    if (!recovered_) {
        return;
    }
    const QByteArray bytes = *recovered_;
    recovered_.reset();
    session_->editor()->replaceAll(tr("Restore the recovered version"), bytes.toStdString());
    Q_EMIT stateChanged();
}

void DocumentSaver::discardRecovery() {
    if (file_.hasFile()) {
        recovery_.discard(file_.path());
    }
    recovered_.reset();
    Q_EMIT stateChanged();
}

void DocumentSaver::discardChanges() {
    autosaveTimer_.stop();
    discardRecovery();
}

void DocumentSaver::reload() {
    QString why;
    if (!file_.open(file_.path(), &why)) {
        error_ = why;
        Q_EMIT stateChanged();
        return;
    }
    session_->reloadFromBytes(file_.savedBytes().toStdString());
    recovery_.discard(file_.path());
    changedOnDisk_ = false;
    overwrite_ = false;
    error_.clear();
    Q_EMIT stateChanged();
}

void DocumentSaver::keepMine() {
    changedOnDisk_ = false;
    overwrite_ = true;
    error_.clear();
    Q_EMIT stateChanged();
}

void DocumentSaver::clearError() {
    error_.clear();
    Q_EMIT stateChanged();
}

void DocumentSaver::clearSavedWithErrors() {
    savedWithErrors_.clear();
    Q_EMIT stateChanged();
}

void DocumentSaver::autosave() {
    if (!session_->unsavedChanges() || !file_.hasFile()) {
        return;
    }
    QString why;
    if (!recovery_.write(file_.path(), QByteArray::fromStdString(session_->working().serialize()),
                         &why)) {
        qWarning("attnbook: cannot write the recovery copy: %s", qPrintable(why));
    }
}

} // namespace attnbook
