// libFuzzer target: the data-file readers ({file: PATH} values, tensor_file.h) on any bytes.
// The first byte picks the format (.npy, .csv, .tsv, .safetensors) and, for .safetensors,
// whether the tensor asked for is "w" or the first name in the header; the rest is the file.
// Crashes, hangs, sanitizer reports, uncaught exceptions and a tensor whose values do not fit
// its shape are findings.
#include "core/document/tensor_file.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace attnbook;
    if (size == 0) {
        return 0;
    }
    static const TensorFormat formats[] = {TensorFormat::Npy, TensorFormat::Csv, TensorFormat::Tsv,
                                           TensorFormat::Safetensors};
    const TensorFormat format = formats[data[0] % 4];
    const std::string bytes(reinterpret_cast<const char*>(data + 1), size - 1);
    DataFileLimits limits;
    limits.maxElements = 1u << 16; // small: the fuzzer explores the parsers, not the allocator
    std::string error;
    const std::string name = data[0] & 4 ? "w" : "attn.c_attn.weight";
    const std::optional<Tensor> tensor = readTensor(bytes, format, name, limits, error);
    if (tensor && tensor->values.n_elem > limits.maxElements) {
        std::abort(); // the limit was passed
    }
    if (!tensor && error.empty()) {
        std::abort(); // a refusal always says why
    }
    return 0;
}
