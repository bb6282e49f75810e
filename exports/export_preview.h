#pragma once
// An export rendered for a preview before it is saved (File → Export in the window): on a worker
// thread (renderPreviewJob) into a temporary folder, a file per part (PreviewFiles), for the PDF
// view to show and for a later save to write from. Qt Core only: the window's ExportController
// runs it. The folder is the window's own: files are written there plainly, and
// nothing outside it changes until the user saves.

#include "core/document/data_files.h"
#include "exports/export_choice.h"
#include "exports/export_request.h"
#include "files/export_control.h"

#include <QString>
#include <QTemporaryDir>

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace attnbook {

// A rendered file in the temporary folder and what it is.
struct PreviewFile {
    QString role; // "lesson", "worksheet", "answers", "roster", "bundle", "notebook", "html",
                  // or "preview": the bundle's lesson.pdf, shown only
    QString path;
};

// What the worker needs, copied: it never touches the session.
struct PreviewJob {
    int run = 0;
    ExportKind kind = ExportKind::LessonPdf;
    ExportRequest request;
    std::string bytes;                      // the working copy of the document
    std::string path;                       // where it came from
    std::shared_ptr<const DataFiles> files; // where its {file: PATH} values come from
    QString folder;                         // the temporary folder
    std::shared_ptr<std::atomic<bool>> cancel;
};

struct PreviewOutcome {
    int run = 0;
    ExportResult result;
    std::vector<PreviewFile> files; // none unless the result is ok
    QString summary;                // exportSummary()
};

// On the worker thread: reads, computes and renders the job's lesson into its folder. `post`
// receives the progress (a fraction that only grows, and what is being done). A failed or
// cancelled render leaves no file of its own behind.
using ProgressPost = std::function<void(double fraction, const QString& stage)>;
PreviewOutcome renderPreviewJob(const PreviewJob& job, const ProgressPost& post);

// The temporary folder and the files of the preview on show.
class PreviewFiles {
  public:
    // The folder renders go to, made on first use; "" with `error` when it cannot be made.
    QString folder(QString* error);

    bool empty() const { return files_.empty(); }
    ExportKind kind() const { return kind_; }
    // The new preview's files take the place of the old, which are removed.
    void replace(std::vector<PreviewFile> files, ExportKind kind);
    void clear();
    // The file of ROLE, or "".
    QString path(const QString& role) const;
    // The PDF to show: the lesson, the worksheet or the bundle's lesson.pdf ("" for none).
    QString shownPath() const;
    // Writes the preview's parts to PATH (the kind's suffix added when it has none) and its
    // companions (ExportTargets::allAt), atomically and all together (writeExport), none over
    // one of `inputs`. `written` receives the paths in the order of the parts.
    ExportResult saveTo(const QString& path, const QStringList& inputs, QStringList* written) const;

    static void remove(const std::vector<PreviewFile>& files);

  private:
    // The parts to save, read back from the folder; false with `error` when one cannot be read.
    bool readBack(RenderedExport* out, QString* error) const;

    std::unique_ptr<QTemporaryDir> folder_;
    std::vector<PreviewFile> files_;
    ExportKind kind_ = ExportKind::LessonPdf;
};

} // namespace attnbook
