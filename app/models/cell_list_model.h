#pragma once
// The lesson as one column of rows: pieces of prose (cut at headings, so the
// outline can jump to each) and cells. Prose rows carry Markdown with the
// bindings already replaced by live numbers; cell rows carry the object
// that the cell's QML binds to.

#include <QAbstractListModel>
#include <QPointer>
#include <QStringList>
#include <QtQml/qqmlregistration.h>

#include <vector>

namespace attnbook {

class CellListModel : public QAbstractListModel {
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("the cell list belongs to a LessonSession")
    Q_PROPERTY(int count READ count NOTIFY countChanged)

  public:
    enum Role {
        KindRole = Qt::UserRole + 1, // prose, attention, quiz, chart, broken
        CellIdRole,
        FirstLineRole,
        LastLineRole,
        MarkdownRole, // prose: the text to show; broken: the cell's source
        ProblemsRole, // messages about this row, for a broken cell
        CellObjectRole,
        FoldedRole, // prose: a sample answer, shown on request
    };
    Q_ENUM(Role)

    struct Row {
        QString kind;
        QString cellId;
        int firstLine = 0;
        int lastLine = 0;
        QString markdown;
        QStringList problems;
        QPointer<QObject> cell;
        bool folded = false;
    };

    explicit CellListModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;
    int count() const { return int(rows_.size()); }

    void setRows(std::vector<Row> rows);
    void setMarkdown(int row, const QString& markdown);
    const Row& row(int index) const { return rows_[size_t(index)]; }

    // The row of a cell, or of the prose holding a file line; -1 when none.
    Q_INVOKABLE int rowOfCell(const QString& cellId) const;
    Q_INVOKABLE int rowOfLine(int line) const;

  Q_SIGNALS:
    void countChanged();

  private:
    std::vector<Row> rows_;
};

} // namespace attnbook
