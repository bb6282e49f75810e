#include "core/document/tensor_memo.h"

#include <algorithm>
#include <vector>

namespace attnbook {

namespace {

struct KeptTensor {
    std::weak_ptr<const std::string> bytes; // expired: the source let the bytes go
    const std::string* identity = nullptr;  // compared only while `bytes` is alive
    TensorFormat format = TensorFormat::Npy;
    std::string name;
    std::uint64_t maxElements = 0;
    std::uint64_t maxHeaderBytes = 0;
    Tensor tensor;
};

// 16 M numbers (128 MB as doubles): a GPT-2 head's c_attn is 1.8 M.
constexpr std::uint64_t kMaxKeptNumbers = 16ull << 20;
constexpr size_t kMaxKeptTensors = 256;

} // namespace

std::optional<Tensor> readKeptTensor(const std::shared_ptr<const std::string>& bytes,
                                     TensorFormat format, const std::string& name,
                                     const DataFileLimits& limits, std::string& error) {
    // Per thread, as parseYaml's: the window's exports read on a worker.
    thread_local std::vector<KeptTensor> kept; // the most recently used last
    std::erase_if(kept, [](const KeptTensor& k) { return k.bytes.expired(); });
    const auto same = [&](const KeptTensor& k) {
        return k.identity == bytes.get() && k.format == format && k.name == name &&
               k.maxElements == limits.maxElements && k.maxHeaderBytes == limits.maxHeaderBytes;
    };
    if (const auto found = std::find_if(kept.begin(), kept.end(), same); found != kept.end()) {
        std::rotate(found, found + 1, kept.end());
        return kept.back().tensor;
    }
    std::optional<Tensor> tensor = readTensor(*bytes, format, name, limits, error);
    if (!tensor || tensor->values.n_elem > kMaxKeptNumbers) {
        return tensor;
    }
    kept.push_back(
        {bytes, bytes.get(), format, name, limits.maxElements, limits.maxHeaderBytes, *tensor});
    std::uint64_t numbers = 0;
    for (const KeptTensor& k : kept) {
        numbers += k.tensor.values.n_elem;
    }
    while (kept.size() > kMaxKeptTensors || numbers > kMaxKeptNumbers) {
        numbers -= kept.front().tensor.values.n_elem;
        kept.erase(kept.begin());
    }
    return tensor;
}

} // namespace attnbook
