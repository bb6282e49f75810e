#pragma once
// The numbers of one data file as a matrix: a NumPy .npy array, a .csv or
// .tsv table of numbers, or one tensor of a .safetensors file. A 1-D array of
// length k reads as one row (1 × k); 2-D arrays as they are; any other rank
// is refused. Every size is checked against the limits before a number is
// converted, and every problem is a sentence without the file's name (the
// caller puts the name in front).
//
// .npy: a small reader of NumPy's documented, fixed header (format versions
//   1, 2 and 3: a Python dict literal with exactly 'descr', 'fortran_order'
//   and 'shape'), written here rather than taken from xtensor's load_npy,
//   which allocates whatever the header's shape says before any check and
//   accepts no dtype but the one asked for at compile time.
// .csv/.tsv: fields split by libcsv (a well-kept RFC 4180 parser), each
//   field converted with decimalFromChars (decimal_text.h), which follows no locale (Qt sets
//   LC_NUMERIC from the environment, and strtod would read "0.5" as 0 under
//   de_DE). Armadillo's csv_ascii loader was not used: it turns text, empty
//   fields and missing fields into 0 without a word and stops at a blank line.
// .safetensors: the JSON header read with nlohmann::json.

#include "core/document/data_files.h"

#include <armadillo>

#include <optional>
#include <string>
#include <vector>

namespace attnbook {

struct Tensor {
    std::vector<std::uint64_t> shape; // as stored: (k) or (rows, cols)
    arma::mat values;                 // rows × cols (a 1-D array is one row)
};

enum class TensorFormat { Npy, Csv, Tsv, Safetensors };

// The format a file name's extension names, or nullopt.
std::optional<TensorFormat> tensorFormatOf(const std::string& path);

// Reads `bytes` in `format`; `tensorName` picks a .safetensors tensor. On
// failure returns nullopt with `error` set ("not a .npy file: ...").
std::optional<Tensor> readTensor(const std::string& bytes, TensorFormat format,
                                 const std::string& tensorName, const DataFileLimits& limits,
                                 std::string& error);

// "768×2304" (or "5" for a 1-D shape), as messages write shapes.
std::string shapeText(const std::vector<std::uint64_t>& shape);

} // namespace attnbook
