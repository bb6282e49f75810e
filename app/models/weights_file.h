#pragma once
// The file Keep writes for a cell that trains (docs/training.md, "Keep"): its weights as a
// .safetensors file beside the lesson, written whole or not at all (QSaveFile), never over an
// existing file unless the author said to replace it.

#include <QString>

#include <optional>
#include <string>

namespace attnbook {

// Writes `bytes` to `path`; nullopt when written, else why not (nothing was changed).
std::optional<QString> writeWeightsFile(const QString& path, const std::string& bytes);

} // namespace attnbook
