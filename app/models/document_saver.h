#pragma once
// The file behind the open lesson, for the window: Save and Save As through
// LessonFile (a failed write leaves the file as it was and the document
// unsaved), a recovery copy of unsaved edits 2 s after they start (never the lesson
// itself) offered when the lesson is opened again after a crash, and
// noticing when another program changes the file.

#include "files/lesson_file.h"
#include "files/recovery_store.h"

#include <QObject>
#include <QTimer>
#include <QtQml/qqmlregistration.h>

namespace attnbook {

class LessonSession;

class DocumentSaver : public QObject {
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("the saver belongs to a LessonSession")
    Q_PROPERTY(bool hasFile READ hasFile NOTIFY stateChanged)
    Q_PROPERTY(QString error READ error NOTIFY stateChanged)
    Q_PROPERTY(bool recoveryAvailable READ recoveryAvailable NOTIFY stateChanged)
    // Other lessons with unsaved edits kept from an earlier session: the window offers to open
    // them, whatever lesson it opened with.
    Q_PROPERTY(QStringList otherRecoveries READ otherRecoveries NOTIFY stateChanged)
    Q_PROPERTY(bool changedOnDisk READ changedOnDisk NOTIFY stateChanged)
    Q_PROPERTY(bool overwriteNextSave READ overwriteNextSave NOTIFY stateChanged)
    // After a save of a lesson that no longer passes `check` (a claim a kept edit made false, a
    // binding to a renamed cell): what is wrong, since every export of it will be refused.
    // Empty otherwise; cleared by the next save or clearSavedWithErrors().
    Q_PROPERTY(QString savedWithErrors READ savedWithErrors NOTIFY stateChanged)

  public:
    explicit DocumentSaver(LessonSession* session);

    // The recovery copy is written this long after the first unsaved edit (at 30 s,
    // a window killed 5 s after Keep lost the edit). Writing it is a small atomic file write.
    static constexpr int kAutosaveMs = 2000;

    bool hasFile() const { return file_.hasFile(); }
    QString error() const { return error_; }
    QString savedWithErrors() const { return savedWithErrors_; }
    bool recoveryAvailable() const { return recovered_.has_value(); }
    QStringList otherRecoveries() const { return otherRecoveries_; }
    // Not now: the offer of other lessons' copies is not made again in this session.
    Q_INVOKABLE void dismissOtherRecoveries();
    bool changedOnDisk() const { return changedOnDisk_; }
    bool overwriteNextSave() const { return overwrite_; }
    QByteArray savedBytes() const { return file_.savedBytes(); }
    LessonFile& file() { return file_; }
    // Tests put the recovery copies in a folder of their own.
    void setRecoveryFolder(const QString& folder) { recovery_ = RecoveryStore(folder); }
    const RecoveryStore& recovery() const { return recovery_; }

    // The session's side of opening.
    bool openFile(const QString& path, QString* error);
    void adopt(const QString& name, const QByteArray& bytes);
    // Looks for a recovery copy of the lesson just opened.
    void checkRecovery();

    // Save: false with `error` set when it failed, or when there is no file
    // yet (the window asks for one: Save As).
    Q_INVOKABLE bool save();
    Q_INVOKABLE bool saveAs(const QString& pathOrUrl);
    // The data files the lesson reads ({file: PATH}) that the folder of `pathOrUrl` lacks: saved
    // there alone, the lesson would not find them. [] when none, or the folder is the same.
    Q_INVOKABLE QStringList dataFilesLeftBehind(const QString& pathOrUrl) const;
    // Save As with those files copied along, keeping their relative paths (lesson_data_carry.h).
    Q_INVOKABLE bool saveAsWithDataFiles(const QString& pathOrUrl);
    // Recovery: put the recovered text in place (an undoable edit), or drop it.
    Q_INVOKABLE void restoreRecovery();
    Q_INVOKABLE void discardRecovery();
    // Closing or opening another lesson without saving.
    Q_INVOKABLE void discardChanges();
    // Changed on disk: read the file again, or keep this version (the next
    // save overwrites the other program's).
    Q_INVOKABLE void reload();
    Q_INVOKABLE void keepMine();
    Q_INVOKABLE void clearError();
    Q_INVOKABLE void clearSavedWithErrors();

  public Q_SLOTS:
    // Writes the recovery copy of unsaved edits (the timer calls it).
    void autosave();

  Q_SIGNALS:
    void stateChanged();

  private:
    void onDirtyChanged();
    void saved();
    void startOver();

    LessonSession* session_;
    LessonFile file_;
    RecoveryStore recovery_;
    QTimer autosaveTimer_;
    std::optional<QByteArray> recovered_;
    QStringList otherRecoveries_;
    bool otherRecoveriesDismissed_ = false;
    QString error_;
    QString savedWithErrors_;
    bool changedOnDisk_ = false;
    bool overwrite_ = false;
    bool editedSinceSave_ = false; // unsaved edits since the file was opened or saved
};

} // namespace attnbook
