#include "app/models/matrix_table_model.h"

#include "app/models/attention_cell_model.h"
#include "app/models/number_text.h"
#include "core/document/matrix_names.h"
#include "core/math/number_format.h"

#include <QClipboard>
#include <QGuiApplication>

#include <algorithm>
#include <array>
#include <cmath>

namespace attnbook {
namespace {

using Labels = MatrixRowLabels; // the name table's

struct Located {
    const arma::mat* source = nullptr;
    bool transposed = false;
    const arma::mat* blocked = nullptr;
    bool usesOwned = false;
    arma::mat owned;
    Labels rowLabels = Labels::Index;
    Labels columnLabels = Labels::Index;
};

bool isPerHead(const QString& name) {
    return name == QLatin1String("scores") || name == QLatin1String("weights") ||
           name == QLatin1String("context") || name == QLatin1String("delta");
}

Located locate(const AttentionCellModel& cell, const QString& matrix, int head) {
    const AttentionResult& r = cell.result();
    const std::string name = matrix.toStdString();
    Located out;
    const auto own = [&](arma::mat m) {
        out.owned = std::move(m);
        out.usesOwned = true;
    };
    if (name == "X0" || name == "P" || name == "X") {
        out.source = name == "X0" ? &r.X0 : name == "P" ? &r.P : &r.X;
        out.rowLabels = Labels::Queries;
    } else if (name == "Q" || name == "concat" || name == "output") {
        out.source = name == "Q" ? &r.Q : name == "concat" ? &r.concat : &r.output;
        out.rowLabels = Labels::Queries;
    } else if (name == "K" || name == "V") {
        out.source = name == "K" ? &r.K : &r.V;
        out.rowLabels = Labels::Keys;
    } else if (isPerHead(matrix)) {
        if (head < 0 || head >= int(r.head.size())) {
            return out;
        }
        const HeadResult& h = r.head[size_t(head)];
        out.rowLabels = Labels::Queries;
        if (name == "context") {
            out.source = &h.context;
            return out;
        }
        out.columnLabels = Labels::Keys;
        out.transposed = true;
        out.blocked = &h.scoresT;
        if (name == "scores") {
            out.source = &h.scoresT;
        } else if (name == "weights") {
            out.source = &h.weightsT;
        } else if (cell.compareAvailable()) { // delta, key-major like the weights
            own(h.weightsT - cell.authoredResult().head[size_t(head)].weightsT);
        }
    } else if (const InputMatrixName* input = inputMatrixNamed(name)) {
        // An input (the name table): W and b only with X, queries, keys, values only without.
        if (input->existsIn(cell.state().config)) {
            own(cell.inputMatrix(name));
        }
        out.rowLabels = input->rowLabels;
    } else if (name.rfind("grad.", 0) == 0) {
        const std::string what = name.substr(5);
        const AttentionGradients& g = r.grad;
        if (what == "upstream") {
            out.source = &g.upstream; // ∂L/∂Y (n × d_o)
            out.rowLabels = Labels::Queries;
        } else if (const InputMatrixName* input = inputMatrixOfGradient(what)) {
            if (input->gradient) {
                out.source = &(g.*(input->gradient));
            } else {
                own(arma::mat(g.*(input->gradientBias)));
            }
            out.rowLabels = input->rowLabels;
        }
    }
    return out;
}

QStringList labels(Labels kind, int count, const AttentionCellModel& cell) {
    QStringList out;
    switch (kind) {
    case Labels::Queries:
        out = cell.queryLabels();
        break;
    case Labels::Keys:
        out = cell.keyLabels();
        break;
    case Labels::Bias:
        out << QStringLiteral("b");
        break;
    case Labels::Index:
        break;
    }
    // Coordinates count from 1 as the lesson's prose does ("coordinate one").
    while (out.size() < count) {
        out << QString::number(out.size() + 1);
    }
    out.resize(count);
    return out;
}

} // namespace

MatrixTableModel::MatrixTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void MatrixTableModel::setCell(AttentionCellModel* cell) {
    if (cell_ == cell) {
        return;
    }
    if (cell_) {
        disconnect(cell_, nullptr, this, nullptr);
    }
    cell_ = cell;
    if (cell_) {
        connect(cell_, &AttentionCellModel::recomputed, this, &MatrixTableModel::refresh);
        connect(cell_, &QObject::destroyed, this, &MatrixTableModel::refresh);
    }
    refresh();
    Q_EMIT cellChanged();
}

void MatrixTableModel::setMatrix(const QString& matrix) {
    if (matrix_ != matrix) {
        matrix_ = matrix;
        refresh();
        Q_EMIT matrixChanged();
    }
}

void MatrixTableModel::setHead(int head) {
    if (head_ != head) {
        head_ = head;
        refresh();
        Q_EMIT headChanged();
    }
}

void MatrixTableModel::setDigits(int digits) {
    digits = std::clamp(digits, 0, 12);
    if (digits_ != digits) {
        digits_ = digits;
        if (rows_ > 0 && columns_ > 0) {
            Q_EMIT dataChanged(index(0, 0), index(rows_ - 1, columns_ - 1), {Qt::DisplayRole});
        }
        widestEntry_ = measureWidestEntry();
        Q_EMIT labelsChanged();
        Q_EMIT digitsChanged();
    }
}

bool MatrixTableModel::perHead() const {
    return isPerHead(matrix_);
}

void MatrixTableModel::refresh() {
    Located found;
    QStringList rowLabels, columnLabels;
    int rows = 0, columns = 0;
    bool editable = false;
    int focusRow = -1;
    if (cell_) {
        found = locate(*cell_, matrix_, head_);
        const arma::mat* m = found.usesOwned ? &found.owned : found.source;
        if (m) {
            rows = int(found.transposed ? m->n_cols : m->n_rows);
            columns = int(found.transposed ? m->n_rows : m->n_cols);
        }
        rowLabels = labels(found.rowLabels, rows, *cell_);
        columnLabels = labels(found.columnLabels, columns, *cell_);
        editable = cell_->isEditable(matrix_);
        focusRow = found.rowLabels == Labels::Queries ? cell_->focus() : -1;
    }
    const bool reshaped = rows != rows_ || columns != columns_;
    if (reshaped) {
        beginResetModel();
    }
    owned_ = std::move(found.owned);
    source_ = found.usesOwned ? &owned_ : found.source;
    transposed_ = found.transposed;
    blockedSource_ = found.blocked;
    rowLabels_ = rowLabels;
    columnLabels_ = columnLabels;
    rows_ = rows;
    columns_ = columns;
    focusRow_ = focusRow;
    wholeEntries_ = !source_ || allWhole(source_->memptr(), source_->n_elem);
    const bool editableChanged = editable_ != editable;
    editable_ = editable;
    if (reshaped) {
        endResetModel();
    } else if (rows_ > 0 && columns_ > 0) {
        Q_EMIT dataChanged(index(0, 0), index(rows_ - 1, columns_ - 1));
        Q_EMIT headerDataChanged(Qt::Vertical, 0, rows_ - 1);
        Q_EMIT headerDataChanged(Qt::Horizontal, 0, columns_ - 1);
    }
    widestEntry_ = measureWidestEntry();
    if (reshaped || editableChanged) {
        Q_EMIT shapeChanged();
    }
    Q_EMIT labelsChanged();
}

int MatrixTableModel::measureWidestEntry() const {
    // A table writes its entries one way (entryText): a sign, the whole part and the same
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
            widest = std::max(widest, int(entryText(v).size()));
        }
    }
    return widest;
}

QString MatrixTableModel::entryText(double value) const {
    return QString::fromStdString(wholeEntries_ ? readableNumber(value, digits_)
                                                : fixedNumber(value, digits_));
}

int MatrixTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : rows_;
}

int MatrixTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : columns_;
}

double MatrixTableModel::entry(int row, int column) const {
    if (!source_ || row < 0 || column < 0 || row >= rows_ || column >= columns_) {
        return 0.0;
    }
    return transposed_ ? (*source_)(arma::uword(column), arma::uword(row))
                       : (*source_)(arma::uword(row), arma::uword(column));
}

bool MatrixTableModel::blocked(int row, int column) const {
    return blockedSource_ && row < rows_ && column < columns_ &&
           (*blockedSource_)(arma::uword(column), arma::uword(row)) == -arma::datum::inf;
}

QVariant MatrixTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const int row = index.row(), column = index.column();
    switch (role) {
    case Qt::DisplayRole: {
        const double value = entry(row, column);
        if (blocked(row, column) && value == -arma::datum::inf) {
            return QStringLiteral("−∞");
        }
        return entryText(value);
    }
    case Qt::EditRole:
    case EditTextRole:
        return editableNumber(entry(row, column));
    case ValueRole: {
        const double value = entry(row, column);
        return std::isfinite(value) ? QVariant(value) : QVariant();
    }
    case BlockedRole:
        return blocked(row, column);
    case FocusRole:
        return row == focusRow_;
    case Qt::ToolTipRole:
        return blocked(row, column) ? QStringLiteral("%1 cannot read %2: blocked by the mask")
                                          .arg(rowLabels_.value(row), columnLabels_.value(column))
                                    : QStringLiteral("%1, %2: %3")
                                          .arg(rowLabels_.value(row), columnLabels_.value(column),
                                               editableNumber(entry(row, column)));
    default:
        return {};
    }
}

QVariant MatrixTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole || section < 0) {
        return {};
    }
    const QStringList& list = orientation == Qt::Horizontal ? columnLabels_ : rowLabels_;
    return section < list.size() ? QVariant(list[section]) : QVariant();
}

QHash<int, QByteArray> MatrixTableModel::roleNames() const {
    return {{Qt::DisplayRole, "display"}, {ValueRole, "value"},   {BlockedRole, "blocked"},
            {EditTextRole, "editText"},   {FocusRole, "isFocus"}, {Qt::ToolTipRole, "toolTip"}};
}

Qt::ItemFlags MatrixTableModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) {
        return Qt::NoItemFlags;
    }
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemNeverHasChildren;
    return editable_ ? f | Qt::ItemIsEditable : f;
}

bool MatrixTableModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole || !checkIndex(index, CheckIndexOption::IndexIsValid)) {
        return false;
    }
    return setValue(index.row(), index.column(), value.toString()).isEmpty();
}

QString MatrixTableModel::setValue(int row, int column, const QString& text) {
    if (!cell_) {
        return QStringLiteral("no cell");
    }
    if (!editable_) {
        return QStringLiteral("this lesson keeps %1 fixed in this cell").arg(matrix_);
    }
    // The cell recomputes and signals; refresh() then reports the change.
    return cell_->setMatrixEntry(matrix_, row, column, text);
}

double MatrixTableModel::valueAt(int row, int column) const {
    return entry(row, column);
}

QString MatrixTableModel::textAt(int row, int column) const {
    return data(index(row, column), Qt::DisplayRole).toString();
}

QString MatrixTableModel::tabSeparated(bool asShown) const {
    // A label holding a tab or a line break would shift the columns.
    const auto field = [](QString text) {
        text.replace(u'\t', u' ').replace(u'\n', u' ').replace(u'\r', u' ');
        return text;
    };
    QString out;
    for (int column = 0; column < columns_; ++column) {
        out += u'\t';
        out += field(columnLabels_.value(column));
    }
    out += u'\n';
    for (int row = 0; row < rows_; ++row) {
        out += field(rowLabels_.value(row));
        for (int column = 0; column < columns_; ++column) {
            const double value = entry(row, column);
            QString number = value == -arma::datum::inf ? QStringLiteral("-inf")
                             : asShown                  ? entryText(value)
                                                        : editableNumber(value);
            out += u'\t';
            out += number.replace(QChar(0x2212), u'-');
        }
        out += u'\n';
    }
    return out;
}

void MatrixTableModel::copyTabSeparated(bool asShown) const {
    QGuiApplication::clipboard()->setText(tabSeparated(asShown));
}

} // namespace attnbook
