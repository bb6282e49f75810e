#pragma once
// The lesson's headings, in order, each with the row of the cell list where
// it starts: the outline a reader jumps with.

#include <QAbstractListModel>
#include <QtQml/qqmlregistration.h>

#include <vector>

namespace attnbook {

class OutlineModel : public QAbstractListModel {
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("the outline belongs to a LessonSession")
    Q_PROPERTY(int count READ count NOTIFY countChanged)

  public:
    enum Role { TitleRole = Qt::UserRole + 1, LevelRole, TargetRowRole };
    Q_ENUM(Role)

    struct Heading {
        QString title;
        int level = 1;
        int targetRow = 0;
    };

    explicit OutlineModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;
    int count() const { return int(headings_.size()); }

    void setHeadings(std::vector<Heading> headings);
    // The heading a cell-list row falls under (for the outline's highlight).
    Q_INVOKABLE int headingOfRow(int row) const;

  Q_SIGNALS:
    void countChanged();

  private:
    std::vector<Heading> headings_;
};

} // namespace attnbook
