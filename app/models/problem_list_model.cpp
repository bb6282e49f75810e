#include "app/models/problem_list_model.h"

#include <algorithm>

namespace attnbook {

ProblemListModel::ProblemListModel(QObject* parent) : QAbstractListModel(parent) {}

int ProblemListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : count();
}

QVariant ProblemListModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const Problem& p = problems_[size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return p.location + QStringLiteral(": ") +
               (p.error ? QStringLiteral("error: ") : QStringLiteral("warning: ")) + p.message;
    case SeverityRole:
        return p.error ? QStringLiteral("error") : QStringLiteral("warning");
    case LocationRole:
        return p.location;
    case MessageRole:
        return p.message;
    case LineRole:
        return p.line;
    case ColumnRole:
        return p.column;
    case CellIdRole:
        return p.cellId;
    case TargetRowRole:
        return p.targetRow;
    default:
        return {};
    }
}

QHash<int, QByteArray> ProblemListModel::roleNames() const {
    return {{Qt::DisplayRole, "display"}, {SeverityRole, "severity"},  {LocationRole, "location"},
            {MessageRole, "message"},     {LineRole, "line"},          {ColumnRole, "column"},
            {CellIdRole, "cellId"},       {TargetRowRole, "targetRow"}};
}

int ProblemListModel::errorCount() const {
    return int(std::count_if(problems_.begin(), problems_.end(),
                             [](const Problem& p) { return p.error; }));
}

void ProblemListModel::setProblems(std::vector<Problem> problems) {
    beginResetModel();
    problems_ = std::move(problems);
    endResetModel();
    Q_EMIT countsChanged();
}

} // namespace attnbook
