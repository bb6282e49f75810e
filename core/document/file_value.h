#pragma once
// A cell value read from a file next to the lesson (docs/lesson-format.md):
//
//   W_Q: {file: c_attn.npy, cols: [0, 64], transpose: true}
//   W_K: {file: model.safetensors, tensor: h.0.attn.c_attn.weight, cols: [768, 832],
//         transpose: true}
//   vocab: {file: emb.npy, labels: vocab.txt}
//   W_Q: {file: c_attn.npy, cols: [0, 64], transpose: true, set: [[1, 1, 5]]}
//
// The stored array is sliced first (half-open rows: [a, b] and cols: [a, b]),
// then transposed, then the entries of `set` ([row, col, value], from 0) replace
// the file's (file_value_source.h). Problems are reported as "KEY: FILE: what" at the line and
// column of the part of the value at fault.

#include "core/document/data_files.h"
#include "core/document/file_value_source.h"
#include "core/document/tensor_file.h"
#include "core/document/yaml_tree.h"

#include <armadillo>

#include <optional>
#include <string>
#include <vector>

namespace attnbook {

struct FileValueProblem {
    FilePosition at;
    std::string message;
};

struct LoadedMatrix {
    arma::mat values;
    std::string file;       // PATH as written
    std::string origin;     // "c_attn.npy, shape 768×2304, cols: [0, 64], transposed"
    FileValueSource source; // what Keep writes back for an edit of `values`
};

struct LoadedVocab {
    arma::mat vectors;               // one row per label
    std::vector<std::string> labels; // in file order
};

// Whether `node` is a {file: PATH, ...} value.
bool isFileValue(const YamlNode& node);

// Reads the file value `node` of cell key `key`. The files actually opened
// (PATH, and the labels file of a vocab) are appended to `opened`.
std::optional<LoadedMatrix> loadFileMatrix(const YamlNode& node, const std::string& key,
                                           const DataFiles& files, const DataFileLimits& limits,
                                           std::vector<std::string>& opened,
                                           std::vector<FileValueProblem>& problems);

// `vocab: {file: emb.npy, labels: vocab.txt}`: the rows of the matrix with
// one label per line of the labels file (UTF-8; a final empty line is fine).
std::optional<LoadedVocab> loadFileVocab(const YamlNode& node, const DataFiles& files,
                                         const DataFileLimits& limits,
                                         std::vector<std::string>& opened,
                                         std::vector<FileValueProblem>& problems);

} // namespace attnbook
