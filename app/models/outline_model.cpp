#include "app/models/outline_model.h"

namespace attnbook {

OutlineModel::OutlineModel(QObject* parent) : QAbstractListModel(parent) {}

int OutlineModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : count();
}

QVariant OutlineModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const Heading& h = headings_[size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
    case TitleRole:
        return h.title;
    case LevelRole:
        return h.level;
    case TargetRowRole:
        return h.targetRow;
    default:
        return {};
    }
}

QHash<int, QByteArray> OutlineModel::roleNames() const {
    return {{Qt::DisplayRole, "display"},
            {TitleRole, "title"},
            {LevelRole, "level"},
            {TargetRowRole, "targetRow"}};
}

void OutlineModel::setHeadings(std::vector<Heading> headings) {
    const bool countDiffers = headings.size() != headings_.size();
    beginResetModel();
    headings_ = std::move(headings);
    endResetModel();
    if (countDiffers) {
        Q_EMIT countChanged();
    }
}

int OutlineModel::headingOfRow(int row) const {
    int found = -1;
    for (int i = 0; i < count(); ++i) {
        if (headings_[size_t(i)].targetRow <= row) {
            found = i;
        }
    }
    return found;
}

} // namespace attnbook
