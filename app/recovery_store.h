#pragma once
// Recovery copies of unsaved lessons, kept beside the user's data and never
// over the lesson itself: written while the author works, offered when the
// lesson is opened after a crash (reliability.md §13).

#include <QByteArray>
#include <QString>

#include <optional>

namespace attnbook {

class RecoveryStore {
  public:
    // `folder` defaults to <AppDataLocation>/recovery.
    explicit RecoveryStore(QString folder = {});

    QString folder() const { return folder_; }
    // One recovery file per lesson path (named by a hash of the absolute path).
    QString recoveryPathFor(const QString& lessonPath) const;

    // Writes atomically (QSaveFile): a crash mid-write leaves the old copy whole.
    bool write(const QString& lessonPath, const QByteArray& bytes, QString* error) const;
    // The recovered bytes when a copy exists and differs from `bytesOnDisk`.
    std::optional<QByteArray> find(const QString& lessonPath, const QByteArray& bytesOnDisk) const;
    void discard(const QString& lessonPath) const;

  private:
    QString folder_;
};

} // namespace attnbook
