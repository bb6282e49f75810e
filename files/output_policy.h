#pragma once
// Where attnbook may write, for every command and the window: `shot --out`, `edit`,
// `new`, `export`, Save and Save As all ask here, so one set of rules protects the user's files.
//
//   - An output is resolved as the file system will resolve it: links followed (a dangling
//     link to its target's name), folders canonical. That resolved file is what is checked,
//     compared and written, never the name the user typed.
//   - Only a regular file or a new name is written. A folder, a device, a FIFO or a socket is
//     refused with the reason; so is a link that loops.
//   - No two outputs are one file, and no output is one of the inputs (the lesson, a bundle,
//     a roster, a data file), once links are followed; existing files also compare by device
//     and inode, so a hard link or a bind mount counts as the file it is.
//   - A replaced file keeps its owner, group and mode. Writes are atomic (QSaveFile with an
//     unnamed temporary file on Linux: the only moment a temporary name exists is between its
//     link and the rename).

#include <QtCore/QByteArray>
#include <QtCore/QString>
#include <QtCore/QStringList>

#include <memory>

class QIODevice;
class QSaveFile;

namespace attnbook {

struct Lesson;

// PATH with every link followed (at most 40, as the kernel allows): an existing file by its
// canonical path, a new name by its canonical folder and its name. Empty when a link loops.
QString resolvedOutputPath(const QString& path);

// Why PATH may not be written ("PATH: cannot write: it is a FIFO (named pipe)"), or "" when
// it may. Cheap: run it before a long render to fail early.
QString outputProblem(const QString& path);

// Two of `outputs` that are one file, or an output that is one of `inputs`:
// "out.pdf and lesson.md name the same file"; "" when none clash. Empty names and Qt
// resources (":/...") among the inputs are skipped.
QString outputsClash(const QStringList& outputs, const QStringList& inputs);

// outputsClash (as "cannot write: ...") and then outputProblem for each output: "" when every
// output may be written.
QString outputsProblem(const QStringList& outputs, const QStringList& inputs);

// What an output must never replace for this lesson: the file at `lessonPath` (a lesson or a
// bundle) and the data files its cells read ({file: PATH}, beside it).
QStringList lessonInputs(const Lesson& lesson, const QString& lessonPath);

// One output written atomically: open() checks it (outputProblem) and starts a QSaveFile on the
// resolved path, write() fills it, commit() gives the new file the replaced one's owner, group
// and mode and renames it into place. Destroyed uncommitted, the target is left as it was.
class OutputFile {
  public:
    explicit OutputFile(const QString& path);
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    bool open(QString* error);
    bool write(const QByteArray& bytes, QString* error);
    bool commit(QString* error);
    // The open file, for a writer that streams into it (the bundle's zip) before commit();
    // nullptr when not open.
    QIODevice* stream() const;
    // The system's reason why the last step failed, the stream's writes included ("No space
    // left on device"), without the path.
    QString failureReason() const;
    // The replaced file had other hard links, which keep the old bytes: "" when not.
    QString warning() const { return warning_; }
    QString path() const { return path_; }

  private:
    QString path_;     // as given, for messages
    QString resolved_; // what is written
    std::unique_ptr<QSaveFile> file_;
    QString warning_;
    QString failureReason_; // of a step that closed the file
};

// open, write and commit in one: false with `error` ("PATH: cannot write: why") when any fails.
bool writeOutputFile(const QString& path, const QByteArray& bytes, QString* error,
                     QString* warning = nullptr);

} // namespace attnbook
