#include "core/present/matrix_table.h"

#include "core/math/number_format.h"
#include "core/math/worked_steps.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace attnbook {
namespace {

using Labels = MatrixRowLabels;

// Characters, not bytes: "−" is one.
int characters(const std::string& utf8) {
    return int(std::count_if(utf8.begin(), utf8.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

} // namespace

bool isPerHeadMatrix(const std::string& name) {
    return name == "scores" || name == "weights" || name == "context" || name == "delta";
}

ShownMatrix::ShownMatrix(const std::string& name, int head, const AttentionResult& r,
                         const AttentionResult* authored, const EditableAttention& state) {
    if (name == "X0" || name == "P" || name == "X") {
        source_ = name == "X0" ? &r.X0 : name == "P" ? &r.P : &r.X;
        rowLabels_ = Labels::Queries;
    } else if (name == "Q" || name == "concat" || name == "output") {
        source_ = name == "Q" ? &r.Q : name == "concat" ? &r.concat : &r.output;
        rowLabels_ = Labels::Queries;
    } else if (name == "K" || name == "V") {
        source_ = name == "K" ? &r.K : &r.V;
        rowLabels_ = Labels::Keys;
    } else if (isPerHeadMatrix(name)) {
        if (head < 0 || head >= int(r.head.size())) {
            return;
        }
        const HeadResult& h = r.head[size_t(head)];
        rowLabels_ = Labels::Queries;
        if (name == "context") {
            source_ = &h.context;
        } else {
            columnLabels_ = Labels::Keys;
            transposed_ = true;
            blockedSource_ = &h.scoresT;
            if (name == "scores") {
                source_ = &h.scoresT;
            } else if (name == "weights") {
                source_ = &h.weightsT;
            } else if (authored) { // delta (m × n), key-major like the weights
                owned_ = h.weightsT - authored->head[size_t(head)].weightsT;
                source_ = &owned_;
            }
        }
    } else if (const InputMatrixName* input = inputMatrixNamed(name)) {
        // An input (the name table): W and b only with X, queries, keys, values only without.
        if (input->existsIn(state.config)) {
            owned_ = editableMatrix(state, name);
            source_ = &owned_;
        }
        rowLabels_ = input->rowLabels;
    } else if (name.rfind("grad.", 0) == 0) {
        const std::string what = name.substr(5);
        const AttentionGradients& g = r.grad;
        if (what == "upstream") {
            source_ = &g.upstream; // ∂L/∂Y (n × d_o)
            rowLabels_ = Labels::Queries;
        } else if (const InputMatrixName* input = inputMatrixOfGradient(what)) {
            if (input->gradient) {
                source_ = &(g.*(input->gradient));
            } else {
                owned_ = arma::mat(g.*(input->gradientBias));
                source_ = &owned_;
            }
            rowLabels_ = input->rowLabels;
        }
    }
    if (source_) {
        rows_ = int(transposed_ ? source_->n_cols : source_->n_rows);
        columns_ = int(transposed_ ? source_->n_rows : source_->n_cols);
        wholeEntries_ = allWhole(source_->memptr(), source_->n_elem);
    }
}

ShownMatrix& ShownMatrix::operator=(ShownMatrix&& other) noexcept {
    const bool ownsSource = other.source_ == &other.owned_;
    owned_ = std::move(other.owned_);
    source_ = ownsSource ? &owned_ : other.source_;
    transposed_ = other.transposed_;
    blockedSource_ = other.blockedSource_;
    rowLabels_ = other.rowLabels_;
    columnLabels_ = other.columnLabels_;
    rows_ = other.rows_;
    columns_ = other.columns_;
    wholeEntries_ = other.wholeEntries_;
    other.source_ = other.blockedSource_ = nullptr;
    other.rows_ = other.columns_ = 0;
    return *this;
}

double ShownMatrix::entry(int row, int column) const {
    if (!source_ || row < 0 || column < 0 || row >= rows_ || column >= columns_) {
        return 0.0;
    }
    return transposed_ ? (*source_)(arma::uword(column), arma::uword(row))
                       : (*source_)(arma::uword(row), arma::uword(column));
}

bool ShownMatrix::blocked(int row, int column) const {
    return blockedSource_ && row >= 0 && column >= 0 && row < rows_ && column < columns_ &&
           (*blockedSource_)(arma::uword(column), arma::uword(row)) == -arma::datum::inf;
}

std::string ShownMatrix::valueText(double value, int digits) const {
    return wholeEntries_ ? readableNumber(value, digits) : fixedNumber(value, digits);
}

std::string ShownMatrix::entryText(int row, int column, int digits) const {
    const double value = entry(row, column);
    if (blocked(row, column) && value == -arma::datum::inf) {
        return "−∞";
    }
    return valueText(value, digits);
}

int ShownMatrix::widestEntry(int digits) const {
    // A table writes its entries one way (valueText): a sign, the whole part and the same
    // decimals for every entry, so the longest text is that of the largest magnitude, negative
    // or not. Only those two entries are written out, not every entry of a 768 × 768 table on
    // each edit. The source is scanned in memory order (the table's entries are all of it,
    // transposed or not): a 2048 × 2048 table read column by column across rows took 8–20 ms
    // of the GUI thread per edit.
    if (!source_ || rows_ == 0 || columns_ == 0) {
        return 1;
    }
    const ValueRange range = valueRange(source_->memptr(), source_->n_elem);
    int widest = range.hasInfinity ? 2 : 1; // "−∞"; "∞" and "?" are shorter
    for (const double v : {range.lowest, range.highest}) {
        if (std::isfinite(v)) {
            widest = std::max(widest, characters(valueText(v, digits)));
        }
    }
    return widest;
}

std::vector<std::string> matrixLabels(MatrixRowLabels kind, int count,
                                      const AttentionResult& result) {
    std::vector<std::string> out;
    switch (kind) {
    case Labels::Queries:
        for (int i = 0; i < result.n; ++i) {
            out.push_back(queryLabel(result, i));
        }
        break;
    case Labels::Keys:
        for (int i = 0; i < result.m; ++i) {
            out.push_back(keyLabel(result, i));
        }
        break;
    case Labels::Bias:
        out.push_back("b");
        break;
    case Labels::Index:
        break;
    }
    while (int(out.size()) < count) {
        out.push_back(std::to_string(out.size() + 1));
    }
    out.resize(size_t(std::max(count, 0)));
    return out;
}

} // namespace attnbook
