#pragma once
// Writing finished outputs: every file goes through QSaveFile, so a failed or cancelled export
// leaves no partial file and keeps whatever was there before (reliability.md 12, 22).

#include "exports/export_control.h"

#include <QtCore/QByteArray>
#include <QtCore/QString>

#include <memory>
#include <vector>

class QSaveFile;

namespace attnbook {

struct ExportOutput {
    QString path;
    QByteArray bytes;
};

// Why PATH cannot be written ("PATH: cannot write: the folder /x does not exist"), or an empty
// string when it looks writable. Cheap: run it before a long render to fail early.
QString outputProblem(const QString& path);

// TEXT as one CSV field (RFC 4180): quoted when it holds a comma, a quote, a line break or
// leading or trailing spaces, with quotes doubled.
QString csvField(const QString& text);

// Outputs written together: stage() writes each into its temporary file beside the target;
// commit() renames them all into place. Destroyed uncommitted, it removes the temporary files
// and no target changes.
class OutputBatch {
  public:
    OutputBatch();
    ~OutputBatch();
    OutputBatch(const OutputBatch&) = delete;
    OutputBatch& operator=(const OutputBatch&) = delete;

    ExportResult stage(const ExportOutput& output);
    ExportResult commit();

  private:
    std::vector<std::unique_ptr<QSaveFile>> files_;
};

// Stages every output, then commits them (OutputBatch). Returns Failed with the path and the
// system's reason when any cannot be written; then no target has changed, unless a rename
// itself fails half way.
ExportResult writeOutputs(const std::vector<ExportOutput>& outputs, const ExportControl& control);

} // namespace attnbook
