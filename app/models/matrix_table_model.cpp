#include "app/models/matrix_table_model.h"

#include "app/models/attention_cell_model.h"
#include "app/models/number_text.h"

#include <QClipboard>
#include <QGuiApplication>

#include <algorithm>
#include <cmath>

namespace attnbook {
namespace {

QStringList labels(MatrixRowLabels kind, int count, const AttentionResult& result) {
    QStringList out;
    for (const std::string& label : matrixLabels(kind, count, result)) {
        out << QString::fromStdString(label);
    }
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
        if (rows() > 0 && columns() > 0) {
            Q_EMIT dataChanged(index(0, 0), index(rows() - 1, columns() - 1), {Qt::DisplayRole});
        }
        widestEntry_ = table_.widestEntry(digits_);
        Q_EMIT labelsChanged();
        Q_EMIT digitsChanged();
    }
}

bool MatrixTableModel::perHead() const {
    return isPerHeadMatrix(matrix_.toStdString());
}

void MatrixTableModel::refresh() {
    ShownMatrix table;
    QStringList rowLabels, columnLabels;
    bool editable = false;
    int focusRow = -1;
    if (cell_) {
        const AttentionCellModel& cell = *cell_;
        table =
            ShownMatrix(matrix_.toStdString(), head_, cell.result(),
                        cell.compareAvailable() ? &cell.authoredResult() : nullptr, cell.state());
        rowLabels = labels(table.rowLabels(), table.rows(), cell.result());
        columnLabels = labels(table.columnLabels(), table.columns(), cell.result());
        editable = cell.isEditable(matrix_);
        focusRow = table.rowLabels() == MatrixRowLabels::Queries ? cell.focus() : -1;
    }
    const bool reshaped = table.rows() != rows() || table.columns() != columns();
    if (reshaped) {
        beginResetModel();
    }
    table_ = std::move(table);
    rowLabels_ = rowLabels;
    columnLabels_ = columnLabels;
    focusRow_ = focusRow;
    const bool editableChanged = editable_ != editable;
    editable_ = editable;
    if (reshaped) {
        endResetModel();
    } else if (rows() > 0 && columns() > 0) {
        Q_EMIT dataChanged(index(0, 0), index(rows() - 1, columns() - 1));
        Q_EMIT headerDataChanged(Qt::Vertical, 0, rows() - 1);
        Q_EMIT headerDataChanged(Qt::Horizontal, 0, columns() - 1);
    }
    widestEntry_ = table_.widestEntry(digits_);
    if (reshaped || editableChanged) {
        Q_EMIT shapeChanged();
    }
    Q_EMIT labelsChanged();
}

int MatrixTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : rows();
}

int MatrixTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : columns();
}

QVariant MatrixTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const int row = index.row(), column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return QString::fromStdString(table_.entryText(row, column, digits_));
    case Qt::EditRole:
    case EditTextRole:
        return editableNumber(table_.entry(row, column));
    case ValueRole: {
        const double value = table_.entry(row, column);
        return std::isfinite(value) ? QVariant(value) : QVariant();
    }
    case BlockedRole:
        return table_.blocked(row, column);
    case FocusRole:
        return row == focusRow_;
    case Qt::ToolTipRole:
        return table_.blocked(row, column)
                   ? QStringLiteral("%1 cannot read %2: blocked by the mask")
                         .arg(rowLabels_.value(row), columnLabels_.value(column))
                   : QStringLiteral("%1, %2: %3")
                         .arg(rowLabels_.value(row), columnLabels_.value(column),
                              editableNumber(table_.entry(row, column)));
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
    return table_.entry(row, column);
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
    for (int column = 0; column < columns(); ++column) {
        out += u'\t';
        out += field(columnLabels_.value(column));
    }
    out += u'\n';
    for (int row = 0; row < rows(); ++row) {
        out += field(rowLabels_.value(row));
        for (int column = 0; column < columns(); ++column) {
            const double value = table_.entry(row, column);
            QString number = value == -arma::datum::inf ? QStringLiteral("-inf")
                             : asShown ? QString::fromStdString(table_.valueText(value, digits_))
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
