#pragma once
// Writing finished outputs: every file goes through QSaveFile, so a failed or cancelled export
// leaves no partial file and keeps whatever was there before (reliability.md 12, 22).

#include "export_control.h"

#include <QtCore/QByteArray>
#include <QtCore/QString>

#include <vector>

namespace attnbook {

struct ExportOutput {
    QString path;
    QByteArray bytes;
};

// Why PATH cannot be written ("PATH: cannot write: the folder /x does not exist"), or an empty
// string when it looks writable. Cheap: run it before a long render to fail early.
QString outputProblem(const QString& path);

// Writes every output: first each into its temporary file beside the target, then, only when
// all of them are complete, renames them into place. Returns Failed with the path and the
// system's reason when any cannot be written; targets not yet renamed are left as they were.
ExportResult writeOutputs(const std::vector<ExportOutput>& outputs, const ExportControl& control);

} // namespace attnbook
