#pragma once
// Where a cell's matrix or vector came from when it was read from a file ({file: PATH, ...}),
// so that Keep can write an edit of it as the same reference with the changed entries beside
// it, and never types out the file's numbers (docs/lesson-format.md, "set"):
//
//   W_Q: {file: data/c_attn.npy, cols: [0, 8], transpose: true, set: [[1, 1, 5]]}
//
// `set` lists [row, col, value]: row and col count from 0 in the matrix the cell sees (after
// the slice and the transpose); a vector read from a 1-D array is one row.

#include <armadillo>

#include <map>
#include <optional>
#include <string>
#include <utility>

namespace attnbook {

struct FileValueSource {
    // Every key of the file value but `set`, as flow YAML: "file: c_attn.npy, cols: [0, 8]".
    std::string reference;
    // The shape read, after slice and transpose: (rows × cols). A vector's is 1 × n or n × 1.
    arma::uword rows = 0;
    arma::uword cols = 0;
    // (row, col) → value: the entries the lesson sets over the file's, in reading order.
    std::map<std::pair<arma::uword, arma::uword>, double> set;
};

// The source Keep writes when the value read as `before` (rows × cols, set applied) is now
// `after`: `source` with every entry that changed added to `set`. nullopt when `after` no
// longer has the shape read, or when more than half of its entries would be set: then the file
// no longer describes the value, and Keep types the matrix out.
std::optional<FileValueSource> keptFileValue(const FileValueSource& source, const arma::mat& before,
                                             const arma::mat& after);

// "{file: c_attn.npy, cols: [0, 8], set: [[1, 1, 5]]}": the YAML flow map of `source`, its
// numbers in the shortest text that reads back exactly.
std::string fileValueText(const FileValueSource& source);

// The flow YAML scalar for `text`: plain when YAML reads it back as the same text
// (data/c_attn.npy), double-quoted with escapes otherwise.
std::string yamlFlowScalar(const std::string& text);

} // namespace attnbook
