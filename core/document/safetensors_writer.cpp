#include "core/document/safetensors_writer.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstring>

namespace attnbook {

namespace {

void appendLittleEndian(std::string& out, std::uint64_t value) {
    for (int byte = 0; byte < 8; ++byte) {
        out.push_back(char((value >> (8 * byte)) & 0xff));
    }
}

void appendDouble(std::string& out, double value) {
    static_assert(sizeof(double) == sizeof(std::uint64_t));
    std::uint64_t bits = 0; // std::bit_cast, which the libc++ of emscripten 3.1.6 lacks
    std::memcpy(&bits, &value, sizeof bits);
    appendLittleEndian(out, bits);
}

} // namespace

std::string safetensorsBytes(const std::vector<NamedTensor>& tensors) {
    nlohmann::json header = nlohmann::json::object();
    std::string data;
    for (const NamedTensor& t : tensors) {
        const std::uint64_t begin = data.size();
        // Row-major, as safetensors stores every array.
        for (arma::uword r = 0; r < t.values.n_rows; ++r) {
            for (arma::uword c = 0; c < t.values.n_cols; ++c) {
                appendDouble(data, t.values(r, c));
            }
        }
        nlohmann::json shape = t.vector ? nlohmann::json::array({t.values.n_elem})
                                        : nlohmann::json::array({t.values.n_rows, t.values.n_cols});
        header[t.name] = {
            {"dtype", "F64"}, {"shape", shape}, {"data_offsets", {begin, data.size()}}};
    }
    header["__metadata__"] = {{"format", "attnbook"}};
    std::string text = header.dump();
    // The data starts 8-byte aligned, as the format recommends: the header is padded with spaces.
    text.append((8 - text.size() % 8) % 8, ' ');
    std::string out;
    appendLittleEndian(out, text.size());
    out += text;
    out += data;
    return out;
}

} // namespace attnbook
