#pragma once
// Writing finished outputs: every file goes through QSaveFile, so a failed or cancelled export
// leaves no partial file and keeps whatever was there before (reliability.md 12, 22).

#include "files/export_control.h"
#include "files/output_policy.h"

#include <QtCore/QByteArray>
#include <QtCore/QString>

#include <memory>
#include <vector>

namespace attnbook {

struct ExportOutput {
    QString path;
    QByteArray bytes;
};

// TEXT as one CSV field (RFC 4180): quoted when it holds a comma, a quote, a line break or
// leading or trailing spaces, with quotes doubled.
QString csvField(const QString& text);

// Outputs written together, each by the output policy (output_policy.h): stage() writes each
// into its temporary file beside the target; commit() renames them all into place. Destroyed
// uncommitted, it removes the temporary files and no target changes.
class OutputBatch {
  public:
    OutputBatch();
    ~OutputBatch();
    OutputBatch(const OutputBatch&) = delete;
    OutputBatch& operator=(const OutputBatch&) = delete;

    ExportResult stage(const ExportOutput& output);
    ExportResult commit();

  private:
    std::vector<std::unique_ptr<OutputFile>> files_;
};

// Stages every output, then commits them (OutputBatch). Returns Failed with the path and the
// system's reason when any cannot be written; then no target has changed, unless a rename
// itself fails half way.
ExportResult writeOutputs(const std::vector<ExportOutput>& outputs, const ExportControl& control);

} // namespace attnbook
