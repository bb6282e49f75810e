#pragma once
// Save As into another folder, for a lesson that reads data files ({file: PATH}, relative to the
// lesson's folder): which of them the new folder lacks, and writing them there with the same
// relative paths, so that the lesson saved there opens with no error. Never replaces a file that
// is already there with other bytes: that one is named, and nothing is written.

#include "core/document/data_files.h"

#include <QString>
#include <QStringList>

#include <string>
#include <vector>

namespace attnbook {

// Those of `paths` (as the lesson reads them, relative to its folder) that `files` holds and
// that `toFolder` does not hold with the same bytes. A path `files` cannot read is left out: the
// lesson reports it as it opens.
QStringList dataFilesLeftBehind(const std::vector<std::string>& paths, const DataFiles& files,
                                const QString& toFolder);

// Writes each of `paths` from `files` under `toFolder` (folders made as needed), each through
// QSaveFile. False with `error` when one cannot be read or written, or when `toFolder` already
// has a different file of that name (checked for all before any is written).
bool carryDataFiles(const QStringList& paths, const DataFiles& files, const QString& toFolder,
                    QString* error);

} // namespace attnbook
