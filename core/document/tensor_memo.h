#pragma once
// Tensors decoded from bytes a data source shares (DataFiles::readShared), kept for as long as
// those bytes live. A what-if reads its cell again, and with it every {file: PATH, tensor: NAME}
// value: tiny's 35 tensors, from the same bytes each time. Decoding them once rather than on
// each what-if is most of what reading the cell costs beyond its YAML (docs/web-page.md).

#include "core/document/tensor_file.h"

#include <memory>
#include <optional>
#include <string>

namespace attnbook {

// readTensor(*bytes, format, name, limits, error), or the tensor it gave before for the same
// bytes object (alive: the same bytes), name, format and limits. Only tensors that read
// without error are kept, the most recently used first, up to a bound on their numbers.
std::optional<Tensor> readKeptTensor(const std::shared_ptr<const std::string>& bytes,
                                     TensorFormat format, const std::string& name,
                                     const DataFileLimits& limits, std::string& error);

} // namespace attnbook
