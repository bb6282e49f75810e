#pragma once
// One matrix of an attention cell as a table, without Qt (MatrixTableModel shows it): where its
// numbers are in the cell's result (read transposed for the key-major head tables, or derived
// and owned), its row and column labels, which entries the mask blocked, and the text of an
// entry as the table writes it.

#include "core/document/editable_attention.h"
#include "core/document/matrix_names.h"
#include "core/math/attention_result.h"

#include <armadillo>

#include <string>
#include <vector>

namespace attnbook {

// scores, weights, context and delta: one table per head.
bool isPerHeadMatrix(const std::string& name);

class ShownMatrix {
  public:
    ShownMatrix() = default;
    // The matrix `name` (MatrixTableModel's names) of head `head` of the cell's result `now`;
    // `authored` is the authored result when the two compare (for delta), else null. Empty for
    // an unknown name, a missing head or an input the configuration does not have. The table
    // reads `now` (not copied): it must outlive the table.
    ShownMatrix(const std::string& name, int head, const AttentionResult& now,
                const AttentionResult* authored, const EditableAttention& state);
    ShownMatrix(const ShownMatrix&) = delete; // source_ may point at owned_
    ShownMatrix& operator=(const ShownMatrix&) = delete;
    ShownMatrix(ShownMatrix&& other) noexcept { *this = std::move(other); }
    ShownMatrix& operator=(ShownMatrix&& other) noexcept;

    int rows() const { return rows_; }
    int columns() const { return columns_; }
    MatrixRowLabels rowLabels() const { return rowLabels_; }
    MatrixRowLabels columnLabels() const { return columnLabels_; }
    // 0 outside the table.
    double entry(int row, int column) const;
    // A masked entry (score −∞, weight exactly 0).
    bool blocked(int row, int column) const;
    // An entry as the table writes it: all whole numbers, or every entry with `digits`
    // decimals; "−∞" for a blocked score.
    std::string entryText(int row, int column, int digits) const;
    std::string valueText(double value, int digits) const;
    // Characters in the longest entry as written, from the two entries of largest magnitude.
    int widestEntry(int digits) const;

  private:
    const arma::mat* source_ = nullptr;
    bool transposed_ = false;
    const arma::mat* blockedSource_ = nullptr; // key-major scores, for masked entries
    arma::mat owned_;
    MatrixRowLabels rowLabels_ = MatrixRowLabels::Index;
    MatrixRowLabels columnLabels_ = MatrixRowLabels::Index;
    int rows_ = 0;
    int columns_ = 0;
    bool wholeEntries_ = true; // every entry whole: written without decimals (allWhole)
};

// `count` labels of `kind`: the result's query or key labels, "b" for a bias, else
// coordinates counted from 1 as the lesson's prose does ("coordinate one").
std::vector<std::string> matrixLabels(MatrixRowLabels kind, int count,
                                      const AttentionResult& result);

} // namespace attnbook
