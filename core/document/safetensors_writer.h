#pragma once
// Named matrices as the bytes of a .safetensors file (the format tensor_file.h reads): an
// 8-byte little-endian header length, a JSON header naming each tensor's dtype, shape and byte
// range, then the numbers. Every tensor is F64 so that a kept number reads back as the same
// double; a row vector is stored 1-D, as a bias or a γ is given.

#include <armadillo>

#include <string>
#include <vector>

namespace attnbook {

struct NamedTensor {
    std::string name;
    arma::mat values;
    bool vector = false; // stored with shape (k): values is 1 × k
};

// The file's bytes. Names must differ (the caller's to ensure).
std::string safetensorsBytes(const std::vector<NamedTensor>& tensors);

} // namespace attnbook
