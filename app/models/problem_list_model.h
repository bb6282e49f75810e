#pragma once
// The lesson's errors and warnings as FILE:LINE:COLUMN and a message, each
// knowing the row of the cell list it belongs to, so clicking it can scroll
// there.

#include <QAbstractListModel>
#include <QtQml/qqmlregistration.h>

#include <vector>

namespace attnbook {

class ProblemListModel : public QAbstractListModel {
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("the problem list belongs to a LessonSession")
    Q_PROPERTY(int count READ count NOTIFY countsChanged)
    Q_PROPERTY(int errorCount READ errorCount NOTIFY countsChanged)
    Q_PROPERTY(int warningCount READ warningCount NOTIFY countsChanged)

  public:
    enum Role {
        SeverityRole = Qt::UserRole + 1, // "error" or "warning"
        LocationRole,                    // attention.md:12:5
        MessageRole,
        LineRole,
        ColumnRole,
        CellIdRole,
        TargetRowRole, // row of the cell list to show; -1 for the file as a whole
    };
    Q_ENUM(Role)

    struct Problem {
        bool error = true;
        QString location;
        QString message;
        int line = 0;
        int column = 0;
        QString cellId;
        int targetRow = -1;
    };

    explicit ProblemListModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    int count() const { return int(problems_.size()); }
    int errorCount() const;
    int warningCount() const { return count() - errorCount(); }

    void setProblems(std::vector<Problem> problems);
    const Problem& problem(int row) const { return problems_[size_t(row)]; }

  Q_SIGNALS:
    void countsChanged();

  private:
    std::vector<Problem> problems_;
};

} // namespace attnbook
