#include "app/models/cell_list_model.h"

namespace attnbook {

CellListModel::CellListModel(QObject* parent) : QAbstractListModel(parent) {}

int CellListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(rows_.size());
}

QVariant CellListModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const Row& r = rows_[size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
    case CellIdRole:
        return role == Qt::DisplayRole && r.cellId.isEmpty() ? r.kind : r.cellId;
    case KindRole:
        return r.kind;
    case FirstLineRole:
        return r.firstLine;
    case LastLineRole:
        return r.lastLine;
    case MarkdownRole:
        return r.markdown;
    case ProblemsRole:
        return r.problems;
    case CellObjectRole:
        return QVariant::fromValue(r.cell.data());
    case FoldedRole:
        return r.folded;
    default:
        return {};
    }
}

QHash<int, QByteArray> CellListModel::roleNames() const {
    return {{Qt::DisplayRole, "display"}, {KindRole, "kind"},
            {CellIdRole, "cellId"},       {FirstLineRole, "firstLine"},
            {LastLineRole, "lastLine"},   {MarkdownRole, "markdown"},
            {ProblemsRole, "problems"},   {CellObjectRole, "cellObject"},
            {FoldedRole, "folded"}};
}

void CellListModel::setRows(std::vector<Row> rows) {
    const bool countDiffers = rows.size() != rows_.size();
    beginResetModel();
    rows_ = std::move(rows);
    endResetModel();
    if (countDiffers) {
        Q_EMIT countChanged();
    }
}

void CellListModel::setMarkdown(int row, const QString& markdown) {
    if (row < 0 || row >= count() || rows_[size_t(row)].markdown == markdown) {
        return;
    }
    rows_[size_t(row)].markdown = markdown;
    const QModelIndex at = index(row);
    Q_EMIT dataChanged(at, at, {MarkdownRole});
}

int CellListModel::rowOfCell(const QString& cellId) const {
    for (int i = 0; i < count(); ++i) {
        if (!cellId.isEmpty() && rows_[size_t(i)].cellId == cellId) {
            return i;
        }
    }
    return -1;
}

int CellListModel::rowOfLine(int line) const {
    for (int i = 0; i < count(); ++i) {
        if (line >= rows_[size_t(i)].firstLine && line <= rows_[size_t(i)].lastLine) {
            return i;
        }
    }
    return -1;
}

} // namespace attnbook
