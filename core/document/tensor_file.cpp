// Longer than 500 lines on purpose: three file formats (.npy, .csv/.tsv, .safetensors), each
// with its size checks before any number is converted and a sentence for every way a file can
// be wrong. They share the shape and limit checks at the top.
#include "core/document/tensor_file.h"

#include "core/document/decimal_text.h"

#include <csv.h>
#include <nlohmann/json.hpp>

#include <charconv> // std::from_chars for the whole numbers of a .npy shape
#include <cmath>
#include <cstring>
#include <memory>
#include <set>
#include <vector>

namespace attnbook {

std::string shapeText(const std::vector<std::uint64_t>& shape) {
    std::string out;
    for (size_t i = 0; i < shape.size(); ++i) {
        out += (i ? "×" : "") + std::to_string(shape[i]);
    }
    return out.empty() ? "()" : out;
}

std::optional<TensorFormat> tensorFormatOf(const std::string& path) {
    const size_t dot = path.rfind('.');
    if (dot == std::string::npos) {
        return std::nullopt;
    }
    std::string ext = path.substr(dot + 1);
    for (char& c : ext) {
        c = char(std::tolower(static_cast<unsigned char>(c)));
    }
    if (ext == "npy") {
        return TensorFormat::Npy;
    }
    if (ext == "csv") {
        return TensorFormat::Csv;
    }
    if (ext == "tsv") {
        return TensorFormat::Tsv;
    }
    if (ext == "safetensors") {
        return TensorFormat::Safetensors;
    }
    return std::nullopt;
}

namespace {

// Checks a stored shape against the limits and gives its matrix size.
bool matrixShape(const std::vector<std::uint64_t>& shape, const DataFileLimits& limits,
                 arma::uword& rows, arma::uword& cols, std::string& error) {
    if (shape.size() != 1 && shape.size() != 2) {
        error = "shape " + shapeText(shape) + " has " + std::to_string(shape.size()) +
                " dimensions; a cell value needs 1 (a vector) or 2 (a matrix)";
        return false;
    }
    std::uint64_t count = 1;
    for (const std::uint64_t extent : shape) {
        if (extent == 0) {
            error = "shape " + shapeText(shape) + " holds no numbers";
            return false;
        }
        if (extent > limits.maxElements || count > limits.maxElements / extent) {
            error = "shape " + shapeText(shape) + " is over the limit of " +
                    std::to_string(limits.maxElements) + " numbers";
            return false;
        }
        count *= extent;
    }
    rows = shape.size() == 1 ? 1 : arma::uword(shape[0]);
    cols = arma::uword(shape.back());
    return true;
}

// Little-endian float32/float64 numbers at `data` into rows × cols, stored in
// C (row-major) or Fortran (column-major) order.
arma::mat unpackNumbers(const char* data, int width, arma::uword rows, arma::uword cols,
                        bool fortranOrder) {
    arma::mat out(rows, cols);
    const auto read = [&](size_t index) {
        if (width == 8) {
            double v;
            std::memcpy(&v, data + index * 8, 8);
            return v;
        }
        float v;
        std::memcpy(&v, data + index * 4, 4);
        return double(v);
    };
    for (arma::uword c = 0; c < cols; ++c) {
        for (arma::uword r = 0; r < rows; ++r) {
            out(r, c) = read(fortranOrder ? size_t(c) * rows + r : size_t(r) * cols + c);
        }
    }
    return out;
}

// ---- .npy -----------------------------------------------------------------

// The header dict, e.g. {'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }
class NpyHeader {
  public:
    explicit NpyHeader(std::string_view text) : text_(text) {}

    bool parse(std::string& error) {
        skipSpace();
        if (!take('{')) {
            return fail("the header is not a dict", error);
        }
        std::set<std::string> seen;
        for (;;) {
            skipSpace();
            if (take('}')) {
                break;
            }
            std::string key;
            if (!quoted(key)) {
                return fail("a header key is not a quoted name", error);
            }
            skipSpace();
            if (!take(':')) {
                return fail("':' missing after '" + key + "'", error);
            }
            skipSpace();
            if (!seen.insert(key).second) {
                return fail("the header names '" + key + "' twice", error);
            }
            if (key == "descr") {
                if (!quoted(descr)) {
                    return fail("'descr' is not a quoted dtype like '<f8' (a structured array?)",
                                error);
                }
            } else if (key == "fortran_order") {
                if (word("True")) {
                    fortranOrder = true;
                } else if (word("False")) {
                    fortranOrder = false;
                } else {
                    return fail("'fortran_order' is neither True nor False", error);
                }
            } else if (key == "shape") {
                if (!tuple(error)) {
                    return false;
                }
            } else {
                return fail("the header has an unknown key '" + key + "'", error);
            }
            skipSpace();
            if (take(',')) {
                continue;
            }
            skipSpace();
            if (take('}')) {
                break;
            }
            return fail("',' or '}' expected after '" + key + "'", error);
        }
        skipSpace();
        if (at_ != text_.size()) {
            return fail("text after the header dict", error);
        }
        for (const char* needed : {"descr", "fortran_order", "shape"}) {
            if (!seen.count(needed)) {
                return fail(std::string("the header has no '") + needed + "'", error);
            }
        }
        return true;
    }

    std::string descr;
    bool fortranOrder = false;
    std::vector<std::uint64_t> shape;

  private:
    bool fail(const std::string& why, std::string& error) {
        error = "not a valid .npy file: " + why;
        return false;
    }
    void skipSpace() {
        while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\n')) {
            ++at_;
        }
    }
    bool take(char c) {
        if (at_ < text_.size() && text_[at_] == c) {
            ++at_;
            return true;
        }
        return false;
    }
    bool word(std::string_view w) {
        if (text_.substr(at_, w.size()) == w) {
            at_ += w.size();
            return true;
        }
        return false;
    }
    bool quoted(std::string& out) {
        if (at_ >= text_.size() || (text_[at_] != '\'' && text_[at_] != '"')) {
            return false;
        }
        const char quote = text_[at_++];
        const size_t end = text_.find(quote, at_);
        if (end == std::string_view::npos || end - at_ > 64) {
            return false;
        }
        out = std::string(text_.substr(at_, end - at_));
        at_ = end + 1;
        return out.find('\\') == std::string::npos;
    }
    bool tuple(std::string& error) {
        if (!take('(')) {
            return fail("'shape' is not a tuple", error);
        }
        for (;;) {
            skipSpace();
            if (take(')')) {
                return true;
            }
            std::uint64_t extent = 0;
            const char* first = text_.data() + at_;
            const char* last = text_.data() + text_.size();
            const auto [end, ec] = std::from_chars(first, last, extent);
            if (ec != std::errc() || end == first) {
                return fail("'shape' holds something that is not a whole number", error);
            }
            at_ += size_t(end - first);
            shape.push_back(extent);
            if (shape.size() > 32) {
                return fail("'shape' has too many dimensions", error);
            }
            skipSpace();
            if (take(')')) {
                return true;
            }
            if (!take(',')) {
                return fail("'shape' is not a tuple of whole numbers", error);
            }
        }
    }

    std::string_view text_;
    size_t at_ = 0;
};

std::optional<Tensor> readNpy(const std::string& bytes, const DataFileLimits& limits,
                              std::string& error) {
    static const char magic[] = "\x93NUMPY";
    if (bytes.size() < 10 || bytes.compare(0, 6, magic, 6) != 0) {
        error = "not a .npy file (it does not start with \\x93NUMPY; save it with numpy.save)";
        return std::nullopt;
    }
    const unsigned major = static_cast<unsigned char>(bytes[6]);
    size_t headerLength = 0;
    size_t headerStart = 0;
    if (major == 1) {
        headerLength = size_t(static_cast<unsigned char>(bytes[8])) |
                       size_t(static_cast<unsigned char>(bytes[9])) << 8;
        headerStart = 10;
    } else if (major == 2 || major == 3) {
        if (bytes.size() < 12) {
            error = "not a valid .npy file: it ends inside the header";
            return std::nullopt;
        }
        for (int i = 3; i >= 0; --i) {
            headerLength = headerLength << 8 | static_cast<unsigned char>(bytes[size_t(8 + i)]);
        }
        headerStart = 12;
    } else {
        error = "a .npy file of format version " + std::to_string(major) +
                ", which is not one of 1, 2, 3";
        return std::nullopt;
    }
    if (headerLength > limits.maxHeaderBytes || headerStart + headerLength > bytes.size()) {
        error = "not a valid .npy file: its header is longer than the file";
        return std::nullopt;
    }
    NpyHeader header(std::string_view(bytes).substr(headerStart, headerLength));
    if (!header.parse(error)) {
        return std::nullopt;
    }
    int width = 0;
    if (header.descr == "<f8") {
        width = 8;
    } else if (header.descr == "<f4") {
        width = 4;
    } else if (header.descr == ">f8" || header.descr == ">f4") {
        error = "the numbers are big-endian ('" + header.descr +
                "'); save them little-endian: numpy.save(path, a.astype('<f8'))";
        return std::nullopt;
    } else {
        error = "the numbers are of dtype '" + header.descr +
                "'; a cell reads float32 ('<f4') or float64 ('<f8'): "
                "numpy.save(path, a.astype('<f8'))";
        return std::nullopt;
    }
    arma::uword rows = 0;
    arma::uword cols = 0;
    if (!matrixShape(header.shape, limits, rows, cols, error)) {
        return std::nullopt;
    }
    const size_t dataBytes = size_t(rows) * cols * size_t(width);
    const size_t present = bytes.size() - headerStart - headerLength;
    if (present != dataBytes) {
        error = "shape " + shapeText(header.shape) + " of " + header.descr + " needs " +
                std::to_string(dataBytes) + " bytes of numbers, but the file holds " +
                std::to_string(present) + (present < dataBytes ? " (it is cut short)" : "");
        return std::nullopt;
    }
    Tensor out;
    out.shape = header.shape;
    // A 1-D array has one row: its order does not matter.
    out.values = unpackNumbers(bytes.data() + headerStart + headerLength, width, rows, cols,
                               header.fortranOrder && header.shape.size() == 2);
    return out;
}

// ---- .csv / .tsv ----------------------------------------------------------

struct CsvState {
    const DataFileLimits* limits;
    std::vector<double> numbers;
    std::vector<double> row;
    arma::uword cols = 0;
    arma::uword rows = 0;
    int line = 1;
    std::string error;

    void field(const char* text, size_t length) {
        if (!error.empty()) {
            return;
        }
        const std::string where =
            "line " + std::to_string(line) + ", field " + std::to_string(row.size() + 1) + ": ";
        std::string_view token(text ? text : "", text ? length : 0);
        if (token.empty()) {
            error = where + "the field is empty (a table of numbers only, every field filled)";
            return;
        }
        if (token.size() > 1 && token.front() == '+') {
            token.remove_prefix(1);
        }
        double value = 0;
        const auto [end, ec] = decimalFromChars(token.data(), token.data() + token.size(), value);
        if (ec != std::errc() || end != token.data() + token.size()) {
            const std::string shown(text, std::min<size_t>(length, 40));
            error = where + "'" + shown + "' is not a number (a table of numbers only: " +
                    "no header row, no labels, '.' before decimals)";
            return;
        }
        if (!std::isfinite(value)) {
            error = where + "'" + std::string(token) + "' is not a finite number";
            return;
        }
        row.push_back(value);
    }

    int previousTerminator = 0;

    void endRow(int terminator) {
        const int lineOfRow = line;
        // A line ends at \n, at \r (old Mac files), or at \r\n, where libcsv reports the \n as
        // a second, empty row: that one ends no line.
        const bool secondHalfOfCrLf =
            terminator == '\n' && previousTerminator == '\r' && row.empty();
        previousTerminator = terminator;
        if (terminator == '\r' || (terminator == '\n' && !secondHalfOfCrLf)) {
            ++line;
        }
        if (!error.empty() || row.empty()) {
            row.clear(); // a blank line (or the \n after a \r)
            return;
        }
        if (rows == 0) {
            cols = arma::uword(row.size());
        } else if (row.size() != cols) {
            error = "line " + std::to_string(lineOfRow) + " has " + std::to_string(row.size()) +
                    " numbers, but the first row has " + std::to_string(cols) +
                    " (a matrix needs rows of one length)";
            return;
        }
        if (numbers.size() + row.size() > limits->maxElements) {
            error = "more than " + std::to_string(limits->maxElements) + " numbers (the limit)";
            return;
        }
        numbers.insert(numbers.end(), row.begin(), row.end());
        row.clear();
        ++rows;
    }
};

int isPlainSpace(unsigned char c) {
    return c == ' ';
}

std::optional<Tensor> readDelimited(const std::string& bytes, char separator,
                                    const DataFileLimits& limits, std::string& error) {
    csv_parser parser;
    // Strict: a stray quote inside a field is an error, as is an unclosed one.
    if (csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI | CSV_REPALL_NL | CSV_APPEND_NULL) != 0) {
        error = "cannot start the CSV reader";
        return std::nullopt;
    }
    csv_set_delim(&parser, static_cast<unsigned char>(separator));
    if (separator == '\t') {
        csv_set_space_func(&parser, isPlainSpace); // a tab separates; it is not padding
    }
    CsvState state;
    state.limits = &limits;
    const auto onField = [](void* text, size_t length, void* data) {
        static_cast<CsvState*>(data)->field(static_cast<const char*>(text), length);
    };
    const auto onRow = [](int terminator, void* data) {
        static_cast<CsvState*>(data)->endRow(terminator);
    };
    // A UTF-8 byte order mark (spreadsheets write one) is not part of the first number.
    const size_t bom = bytes.rfind("\xef\xbb\xbf", 0) == 0 ? 3 : 0;
    const size_t parsed =
        csv_parse(&parser, bytes.data() + bom, bytes.size() - bom, onField, onRow, &state) + bom;
    bool broken = parsed != bytes.size();
    broken = csv_fini(&parser, onField, onRow, &state) != 0 || broken;
    const std::string why = broken ? csv_strerror(csv_error(&parser)) : "";
    csv_free(&parser);
    if (!state.error.empty()) {
        error = state.error;
        return std::nullopt;
    }
    if (broken) {
        error = "line " + std::to_string(state.line) + ": " + why;
        return std::nullopt;
    }
    if (state.rows == 0) {
        error = "the file holds no numbers";
        return std::nullopt;
    }
    Tensor out;
    out.shape = {state.rows, state.cols};
    out.values = unpackNumbers(reinterpret_cast<const char*>(state.numbers.data()), 8, state.rows,
                               state.cols, false);
    return out;
}

// ---- .safetensors ---------------------------------------------------------

// The JSON header of a .safetensors file, after its 8-byte size (`headerLength`): one object
// that names no tensor twice.
std::optional<nlohmann::json> parseSafetensorsHeader(const std::string& bytes,
                                                     const DataFileLimits& limits,
                                                     std::uint64_t& headerLength,
                                                     std::string& error) {
    if (bytes.size() < 8) {
        error = "not a .safetensors file: it is shorter than its 8-byte header size";
        return std::nullopt;
    }
    headerLength = 0;
    for (int i = 7; i >= 0; --i) {
        headerLength = headerLength << 8 | static_cast<unsigned char>(bytes[size_t(i)]);
    }
    if (headerLength > limits.maxHeaderBytes || headerLength > bytes.size() - 8) {
        error = "not a .safetensors file: its header size (" + std::to_string(headerLength) +
                " bytes) is larger than the file or the limit";
        return std::nullopt;
    }
    nlohmann::json header;
    std::string duplicate;
    try {
        // The callback refuses nesting (a header is two levels deep) and
        // duplicate names, which nlohmann::json would otherwise keep the last of.
        std::set<std::string> names;
        header = nlohmann::json::parse(
            bytes.begin() + 8, bytes.begin() + 8 + std::ptrdiff_t(headerLength),
            [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
                if (depth > 4) {
                    throw std::runtime_error("the header nests deeper than a safetensors header");
                }
                if (event == nlohmann::json::parse_event_t::key && depth == 1 &&
                    !names.insert(parsed.get<std::string>()).second) {
                    duplicate = parsed.get<std::string>();
                }
                return true;
            });
    } catch (const std::exception& e) {
        error = std::string("not a .safetensors file: its header is not JSON (") + e.what() + ")";
        return std::nullopt;
    }
    if (!duplicate.empty()) {
        error = "the header names the tensor '" + duplicate + "' twice";
        return std::nullopt;
    }
    if (!header.is_object()) {
        error = "not a .safetensors file: its header is not a JSON object";
        return std::nullopt;
    }
    return header;
}

// parseSafetensorsHeader, kept for the last few headers read on this thread: a model's cell
// reads its 30-odd tensors from one file, each with the same header, and the live page reads
// the cell again after every what-if (docs/web-page.md). Keyed by the header's own bytes, so
// a changed file is parsed afresh. Null with `error` set when it does not parse.
std::shared_ptr<const nlohmann::json> safetensorsHeader(const std::string& bytes,
                                                        const DataFileLimits& limits,
                                                        std::uint64_t& headerLength,
                                                        std::string& error) {
    struct Kept {
        std::string headerBytes;
        std::uint64_t headerLength = 0;
        std::shared_ptr<const nlohmann::json> header;
    };
    constexpr size_t kKept = 4;
    thread_local std::vector<Kept> kept; // the newest last
    if (bytes.size() >= 8) {
        for (auto it = kept.begin(); it != kept.end(); ++it) {
            const size_t length = it->headerBytes.size();
            if (it->headerLength <= limits.maxHeaderBytes && bytes.size() >= length &&
                bytes.compare(0, length, it->headerBytes) == 0) {
                headerLength = it->headerLength;
                return it->header;
            }
        }
    }
    std::optional<nlohmann::json> parsed =
        parseSafetensorsHeader(bytes, limits, headerLength, error);
    if (!parsed) {
        return nullptr;
    }
    if (kept.size() == kKept) {
        kept.erase(kept.begin());
    }
    // The eight bytes of its length and the header itself: equal bytes, equal header.
    kept.push_back({bytes.substr(0, 8 + size_t(headerLength)), headerLength,
                    std::make_shared<const nlohmann::json>(std::move(*parsed))});
    return kept.back().header;
}

// The first eight tensors a header names, for the error of a name it does not hold.
std::string tensorNamesOf(const nlohmann::json& header) {
    std::string list;
    int shown = 0;
    for (const auto& [key, value] : header.items()) {
        if (key == "__metadata__") {
            continue;
        }
        if (shown++ == 8) {
            list += ", …";
            break;
        }
        list += (list.empty() ? "" : ", ") + key;
    }
    return list;
}

std::optional<Tensor> readSafetensors(const std::string& bytes, const std::string& name,
                                      const DataFileLimits& limits, std::string& error) {
    if (name.empty()) {
        error = "a .safetensors file holds named tensors: say which with tensor: NAME";
        return std::nullopt;
    }
    std::uint64_t headerLength = 0;
    const std::shared_ptr<const nlohmann::json> header =
        safetensorsHeader(bytes, limits, headerLength, error);
    if (!header) {
        return std::nullopt;
    }
    const auto found = header->find(name);
    if (found == header->end() || name == "__metadata__") {
        const std::string list = tensorNamesOf(*header);
        error = "no tensor '" + name + "' (it holds " + (list.empty() ? "none" : list) + ")";
        return std::nullopt;
    }
    const nlohmann::json& entry = *found;
    const auto bad = [&](const std::string& why) {
        error = "the tensor '" + name + "' " + why;
        return std::nullopt;
    };
    if (!entry.is_object() || !entry.contains("dtype") || !entry["dtype"].is_string() ||
        !entry.contains("shape") || !entry["shape"].is_array() || !entry.contains("data_offsets") ||
        !entry["data_offsets"].is_array() || entry["data_offsets"].size() != 2) {
        return bad("has no dtype, shape and data_offsets");
    }
    const std::string dtype = entry["dtype"].get<std::string>();
    const int width = dtype == "F64" ? 8 : dtype == "F32" ? 4 : 0;
    if (width == 0) {
        return bad("is of dtype " + dtype +
                   "; a cell reads F32 or F64 (convert it with "
                   "tensor.to(torch.float32))");
    }
    Tensor out;
    for (const nlohmann::json& extent : entry["shape"]) {
        if (!extent.is_number_unsigned()) {
            return bad("has a shape that is not whole numbers");
        }
        out.shape.push_back(extent.get<std::uint64_t>());
    }
    arma::uword rows = 0;
    arma::uword cols = 0;
    if (!matrixShape(out.shape, limits, rows, cols, error)) {
        return std::nullopt;
    }
    const nlohmann::json& offsets = entry["data_offsets"];
    if (!offsets[0].is_number_unsigned() || !offsets[1].is_number_unsigned()) {
        return bad("has data_offsets that are not whole numbers");
    }
    const std::uint64_t begin = offsets[0].get<std::uint64_t>();
    const std::uint64_t end = offsets[1].get<std::uint64_t>();
    const std::uint64_t dataSize = bytes.size() - 8 - headerLength;
    if (begin > end || end > dataSize) {
        return bad("has data_offsets [" + std::to_string(begin) + ", " + std::to_string(end) +
                   "] outside the " + std::to_string(dataSize) + " bytes of data");
    }
    if (end - begin != std::uint64_t(rows) * cols * std::uint64_t(width)) {
        return bad("has shape " + shapeText(out.shape) + " of " + dtype + ", which needs " +
                   std::to_string(std::uint64_t(rows) * cols * std::uint64_t(width)) +
                   " bytes, but its data_offsets span " + std::to_string(end - begin));
    }
    out.values = unpackNumbers(bytes.data() + 8 + headerLength + begin, width, rows, cols, false);
    return out;
}

} // namespace

std::optional<Tensor> readTensor(const std::string& bytes, TensorFormat format,
                                 const std::string& tensorName, const DataFileLimits& limits,
                                 std::string& error) {
    std::optional<Tensor> out;
    switch (format) {
    case TensorFormat::Npy:
        out = readNpy(bytes, limits, error);
        break;
    case TensorFormat::Csv:
        out = readDelimited(bytes, ',', limits, error);
        break;
    case TensorFormat::Tsv:
        out = readDelimited(bytes, '\t', limits, error);
        break;
    case TensorFormat::Safetensors:
        out = readSafetensors(bytes, tensorName, limits, error);
        break;
    }
    if (out && !out->values.is_finite()) {
        // Name the first number that is not finite, in the file's own indices.
        for (arma::uword r = 0; r < out->values.n_rows; ++r) {
            for (arma::uword c = 0; c < out->values.n_cols; ++c) {
                if (!std::isfinite(out->values(r, c))) {
                    const std::string index = out->shape.size() == 1
                                                  ? std::to_string(c)
                                                  : std::to_string(r) + ", " + std::to_string(c);
                    error = "the number at [" + index + "] is not finite (" +
                            (std::isnan(out->values(r, c)) ? "nan" : "inf") + ")";
                    return std::nullopt;
                }
            }
        }
    }
    return out;
}

} // namespace attnbook
