#pragma once
// The lesson file on disk behind an open document: what was last read or
// saved, atomic saves that never leave a half-written file, and noticing
// when someone else changes the file (reliability.md §12–14).

#include <QByteArray>
#include <QFileSystemWatcher>
#include <QObject>
#include <QString>

namespace attnbook {

class LessonFile : public QObject {
    Q_OBJECT
  public:
    explicit LessonFile(QObject* parent = nullptr);

    // Reads `path` and starts watching it. On failure returns false with a
    // message naming the path.
    bool open(const QString& path, QString* error);
    // Adopts bytes that came from elsewhere (the bundled lesson, a bundle):
    // there is no file to watch until the first Save As.
    void adopt(const QString& displayName, const QByteArray& bytes);

    QString path() const { return path_; }
    bool hasFile() const { return !path_.isEmpty(); }
    QByteArray savedBytes() const { return savedBytes_; }

    // True when the file no longer holds what was last read or saved here.
    bool changedOnDisk() const;
    QByteArray bytesOnDisk() const;

    enum class SaveResult { Saved, Failed, ChangedOnDisk };
    // Writes through QSaveFile. Refuses (ChangedOnDisk) when another program
    // changed the file since, unless `overwrite`. On failure the file on disk
    // is untouched and `error` names the path and the system's reason.
    SaveResult save(const QByteArray& bytes, QString* error, bool overwrite = false);
    // Saves to a new path, which becomes this file's path on success.
    SaveResult saveAs(const QString& path, const QByteArray& bytes, QString* error);

  Q_SIGNALS:
    // The file changed (or was replaced) under us; emitted once per change.
    void changedExternally();

  private:
    void watch();
    void onWatcherSignal();

    QString path_;
    QByteArray savedBytes_;
    QFileSystemWatcher watcher_;
    bool announced_ = false;
};

} // namespace attnbook
