#include "core/document/file_value.h"

#include "core/document/tensor_memo.h"

#include <set>

namespace attnbook {

bool isFileValue(const YamlNode& node) {
    return node.isMap() && node.find("file") != nullptr;
}

namespace {

struct Slice {
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
    FilePosition at;
    std::string text() const {
        std::string out = "[";
        out += std::to_string(begin);
        out += ", ";
        out += std::to_string(end);
        return out + "]";
    }
};

// One `set:` entry, [row, col, value], with where it stands for an error.
struct EntryOverride {
    arma::uword row = 0;
    arma::uword col = 0;
    double value = 0.0;
    FilePosition at;
};

// What the {file: ...} map says, before anything is read.
struct FileValueSpec {
    std::string path;
    FilePosition pathAt;
    std::string tensor;
    std::optional<Slice> rows;
    std::optional<Slice> cols;
    bool transpose = false;
    std::string labels;
    FilePosition labelsAt;
    std::vector<EntryOverride> set;

    // The keys but `set` as flow YAML, in the order docs/lesson-format.md lists them.
    std::string reference() const {
        std::string out = "file: " + yamlFlowScalar(path);
        if (!tensor.empty()) {
            out += ", tensor: " + yamlFlowScalar(tensor);
        }
        if (!labels.empty()) {
            out += ", labels: " + yamlFlowScalar(labels);
        }
        out += rows ? ", rows: " + rows->text() : "";
        out += cols ? ", cols: " + cols->text() : "";
        return out + (transpose ? ", transpose: true" : "");
    }
};

class SpecReader {
  public:
    SpecReader(const std::string& key, std::vector<FileValueProblem>& problems)
        : key_(key), problems_(problems) {}

    void problem(FilePosition at, const std::string& message) {
        problems_.push_back({at, key_ + ": " + message});
        fine_ = false;
    }
    bool fine() const { return fine_; }

    std::optional<FileValueSpec> read(const YamlNode& node, bool allowLabels) {
        FileValueSpec spec;
        for (const auto& [name, value] : node.entries) {
            const std::string& k = name.scalar;
            if (k == "file") {
                spec.path = text(value, "file").value_or("");
                spec.pathAt = value.at;
            } else if (k == "tensor") {
                spec.tensor = text(value, "tensor").value_or("");
            } else if (k == "rows" || k == "cols") {
                (k == "rows" ? spec.rows : spec.cols) = slice(value, k);
            } else if (k == "transpose") {
                if (const auto b = yamlBool(value)) {
                    spec.transpose = *b;
                } else {
                    problem(value.at, "transpose must be true or false, not " + value.describe());
                }
            } else if (k == "set") {
                spec.set = overrides(value);
            } else if (k == "labels" && allowLabels) {
                spec.labels = text(value, "labels").value_or("");
                spec.labelsAt = value.at;
            } else {
                problem(name.at, "unknown key '" + k + "' in a file value (it takes file, " +
                                     (allowLabels ? "labels, " : "") +
                                     "tensor, rows, cols, transpose, set)");
            }
        }
        if (!spec.path.empty()) {
            if (const std::string why = dataPathProblem(spec.path); !why.empty()) {
                problem(spec.pathAt, spec.path + ": " + why);
            } else if (!tensorFormatOf(spec.path)) {
                problem(spec.pathAt,
                        spec.path + ": a cell reads .npy, .csv, .tsv or .safetensors files");
            } else if (!spec.tensor.empty() &&
                       tensorFormatOf(spec.path) != TensorFormat::Safetensors) {
                problem(node.find("tensor")->at,
                        "tensor: names a tensor of a .safetensors file, and " + spec.path +
                            " is not one");
            }
        } else if (fine_) {
            problem(node.at, "file: must name a file");
        }
        if (!spec.labels.empty()) {
            if (const std::string why = dataPathProblem(spec.labels); !why.empty()) {
                problem(spec.labelsAt, spec.labels + ": " + why);
            }
        }
        if (!fine_) {
            return std::nullopt;
        }
        return spec;
    }

  private:
    std::optional<std::string> text(const YamlNode& value, const std::string& what) {
        if (!value.isScalar() || value.scalar.empty()) {
            problem(value.at, what + " must be text, not " + value.describe());
            return std::nullopt;
        }
        return value.scalar;
    }

    std::optional<Slice> slice(const YamlNode& value, const std::string& what) {
        const std::string usage = what + " must be [a, b]: from a up to, not including, b";
        if (!value.isSequence() || value.items.size() != 2) {
            problem(value.at, usage);
            return std::nullopt;
        }
        std::uint64_t bounds[2] = {0, 0};
        for (int i = 0; i < 2; ++i) {
            std::string why;
            const std::optional<double> v = yamlNumber(value.items[size_t(i)], why);
            if (!v || *v < 0 || *v != std::floor(*v) || *v > 1e12) {
                problem(value.items[size_t(i)].at, usage + "; both whole numbers ≥ 0");
                return std::nullopt;
            }
            bounds[i] = std::uint64_t(*v);
        }
        if (bounds[0] >= bounds[1]) {
            problem(value.at, what + ": [" + std::to_string(bounds[0]) + ", " +
                                  std::to_string(bounds[1]) + "] is empty; " + usage);
            return std::nullopt;
        }
        return Slice{bounds[0], bounds[1], value.at};
    }

    // set: [[row, col, value], ...]: whole row and col from 0, any number for the value.
    std::vector<EntryOverride> overrides(const YamlNode& value) {
        const std::string usage = "set must be a list of [row, col, value] entries, like "
                                  "[[1, 1, 5]] (row and col count from 0)";
        if (!value.isSequence()) {
            problem(value.at, usage + ", not " + value.describe());
            return {};
        }
        std::vector<EntryOverride> out;
        std::set<std::pair<arma::uword, arma::uword>> seen;
        for (const YamlNode& item : value.items) {
            if (!item.isSequence() || item.items.size() != 3) {
                problem(item.at, usage);
                return {};
            }
            double numbers[3] = {0, 0, 0};
            for (size_t i = 0; i < 3; ++i) {
                std::string why;
                const std::optional<double> v = yamlNumber(item.items[i], why);
                const bool index = i < 2;
                if (!v || (index && (*v < 0 || *v != std::floor(*v) || *v > 1e12))) {
                    problem(item.items[i].at,
                            index ? "set: row and col must be whole numbers ≥ 0 (they count "
                                    "from 0), not " +
                                        item.items[i].describe()
                                  : "set: the value must be a number, not " +
                                        item.items[i].describe());
                    return {};
                }
                numbers[i] = *v;
            }
            EntryOverride entry{arma::uword(numbers[0]), arma::uword(numbers[1]), numbers[2],
                                item.at};
            if (!seen.insert({entry.row, entry.col}).second) {
                problem(item.at, "set: [" + std::to_string(entry.row) + ", " +
                                     std::to_string(entry.col) +
                                     "] is set twice (one value per entry)");
                return {};
            }
            out.push_back(entry);
        }
        return out;
    }

    std::string key_;
    std::vector<FileValueProblem>& problems_;
    bool fine_ = true;
};

std::optional<LoadedMatrix> load(const FileValueSpec& spec, const YamlNode& node,
                                 const std::string& key, const DataFiles& files,
                                 const DataFileLimits& limits, std::vector<std::string>& opened,
                                 std::vector<FileValueProblem>& problems) {
    const auto fail = [&](FilePosition at, const std::string& why) {
        problems.push_back({at, key + ": " + spec.path + ": " + why});
        return std::nullopt;
    };
    std::string error;
    const std::shared_ptr<const std::string> bytes =
        files.readShared(spec.path, limits.maxBytes, error);
    if (!bytes) {
        return fail(spec.pathAt, error);
    }
    opened.push_back(spec.path);
    std::optional<Tensor> tensor =
        readKeptTensor(bytes, *tensorFormatOf(spec.path), spec.tensor, limits, error);
    if (!tensor) {
        return fail(spec.tensor.empty() ? spec.pathAt : node.find("tensor")->at, error);
    }
    LoadedMatrix out;
    out.file = spec.path;
    out.origin = spec.path + (spec.tensor.empty() ? "" : " tensor " + spec.tensor) + ", shape " +
                 shapeText(tensor->shape);
    // (rows × cols) of the stored array; a 1-D array is one row.
    arma::mat& m = tensor->values;
    for (const auto* s : {&spec.rows, &spec.cols}) {
        if (!*s) {
            continue;
        }
        const bool isRows = s == &spec.rows;
        const std::string what = isRows ? "rows" : "cols";
        const arma::uword extent = isRows ? m.n_rows : m.n_cols;
        if ((*s)->end > extent) {
            return fail((*s)->at, "shape " + shapeText(tensor->shape) + " has " +
                                      std::to_string(extent) + " " + (isRows ? "rows" : "columns") +
                                      ", so " + what + ": " + (*s)->text() +
                                      " reaches past its end");
        }
        // (b − a) rows or columns of the array, copied out of the full one.
        m = isRows ? arma::mat(m.rows((*s)->begin, (*s)->end - 1))
                   : arma::mat(m.cols((*s)->begin, (*s)->end - 1));
        out.origin += ", " + what + ": " + (*s)->text();
    }
    if (spec.transpose) {
        m = m.t().eval(); // (cols × rows) of the slice
        out.origin += ", transposed";
    }
    // Entries the lesson sets over the file's, indexed in the (rows × cols) just made.
    for (const EntryOverride& o : spec.set) {
        if (o.row >= m.n_rows || o.col >= m.n_cols) {
            return fail(o.at, "set: [" + std::to_string(o.row) + ", " + std::to_string(o.col) +
                                  "] is outside the " + std::to_string(m.n_rows) + " × " +
                                  std::to_string(m.n_cols) +
                                  " matrix read (rows and columns count from 0)");
        }
        m(o.row, o.col) = o.value;
        out.source.set[{o.row, o.col}] = o.value;
    }
    if (!spec.set.empty()) {
        out.origin += ", " + std::to_string(spec.set.size()) +
                      (spec.set.size() == 1 ? " entry set" : " entries set");
    }
    out.source.reference = spec.reference();
    out.source.rows = m.n_rows;
    out.source.cols = m.n_cols;
    out.values = std::move(m);
    return out;
}

} // namespace

std::optional<LoadedMatrix> loadFileMatrix(const YamlNode& node, const std::string& key,
                                           const DataFiles& files, const DataFileLimits& limits,
                                           std::vector<std::string>& opened,
                                           std::vector<FileValueProblem>& problems) {
    SpecReader reader(key, problems);
    const std::optional<FileValueSpec> spec = reader.read(node, false);
    if (!spec) {
        return std::nullopt;
    }
    return load(*spec, node, key, files, limits, opened, problems);
}

std::optional<LoadedVocab> loadFileVocab(const YamlNode& node, const DataFiles& files,
                                         const DataFileLimits& limits,
                                         std::vector<std::string>& opened,
                                         std::vector<FileValueProblem>& problems) {
    SpecReader reader("vocab", problems);
    const std::optional<FileValueSpec> spec = reader.read(node, true);
    if (!spec) {
        return std::nullopt;
    }
    if (spec->labels.empty()) {
        problems.push_back({node.at, "vocab: a vocab from a file needs labels: a text file "
                                     "with one token per line, like {file: " +
                                         spec->path + ", labels: vocab.txt}"});
        return std::nullopt;
    }
    std::optional<LoadedMatrix> vectors =
        load(*spec, node, "vocab", files, limits, opened, problems);
    if (!vectors) {
        return std::nullopt;
    }
    const auto fail = [&](const std::string& why) {
        problems.push_back({spec->labelsAt, "vocab: " + spec->labels + ": " + why});
        return std::nullopt;
    };
    std::string error;
    const std::optional<std::string> text = files.read(spec->labels, limits.maxLabelBytes, error);
    if (!text) {
        return fail(error);
    }
    opened.push_back(spec->labels);
    LoadedVocab out;
    std::set<std::string> seen;
    size_t start = text->compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
    int line = 1;
    while (start < text->size()) {
        size_t end = text->find('\n', start);
        end = end == std::string::npos ? text->size() : end;
        std::string label = text->substr(start, end - start);
        if (!label.empty() && label.back() == '\r') {
            label.pop_back();
        }
        if (label.empty()) {
            return fail("line " + std::to_string(line) + " is empty (one token per line)");
        }
        if (label.find('\0') != std::string::npos) {
            return fail("line " + std::to_string(line) + " holds a NUL byte");
        }
        if (!seen.insert(label).second) {
            return fail("line " + std::to_string(line) + ": the token '" + label +
                        "' is listed twice");
        }
        out.labels.push_back(std::move(label));
        start = end + 1;
        ++line;
    }
    if (out.labels.size() != vectors->values.n_rows) {
        return fail(std::to_string(out.labels.size()) + " labels for the " +
                    std::to_string(vectors->values.n_rows) + " rows of " + vectors->origin +
                    " (one label per row)");
    }
    out.vectors = std::move(vectors->values);
    return out;
}

} // namespace attnbook
