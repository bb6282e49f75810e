#pragma once
// Recovery copies of unsaved lessons, kept beside the user's data and never
// over the lesson itself: written while the author works, offered when the
// lesson is opened after a crash (reliability.md §13).

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>

namespace attnbook {

class RecoveryStore {
  public:
    // `folder` defaults to <AppDataLocation>/recovery.
    explicit RecoveryStore(QString folder = {});

    QString folder() const { return folder_; }
    // One recovery file per lesson path (named by a hash of the absolute path).
    QString recoveryPathFor(const QString& lessonPath) const;

    // Writes atomically (QSaveFile): a crash mid-write leaves the old copy whole. Beside the
    // copy, its lesson's absolute path (COPY.path), so that a window opened on another lesson
    // can offer it (a copy was offered only when that same file was opened again).
    bool write(const QString& lessonPath, const QByteArray& bytes, QString* error) const;
    // Every lesson with a copy that differs from the file on disk, newest copy first.
    QStringList lessonsWithCopies() const;
    // The recovered bytes when a copy exists and differs from `bytesOnDisk`.
    std::optional<QByteArray> find(const QString& lessonPath, const QByteArray& bytesOnDisk) const;
    void discard(const QString& lessonPath) const;

  private:
    QString folder_;
};

} // namespace attnbook
