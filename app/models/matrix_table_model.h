#pragma once
// One matrix of an attention cell as a table, with token labels on the rows
// (and on the columns of the scores and weights) and numbers written to the
// chosen digits. Inputs the cell's controls allow are editable: a typed
// value goes through the cell, which refuses it in place with the reason.
//
// Names: X0 P X Q K V scores weights context concat output delta (weights
// minus the authored weights), the inputs W_Q W_K W_V W_O b_Q b_K b_V b_O
// queries keys values, and grad.NAME for the gradients (grad.X, grad.W_Q, …).

#include "core/present/matrix_table.h"

#include <QAbstractTableModel>
#include <QPointer>
#include <QStringList>
#include <QtQml/qqmlregistration.h>

namespace attnbook {

class AttentionCellModel;

class MatrixTableModel : public QAbstractTableModel {
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(attnbook::AttentionCellModel* cell READ cell WRITE setCell NOTIFY cellChanged)
    Q_PROPERTY(QString matrix READ matrix WRITE setMatrix NOTIFY matrixChanged)
    Q_PROPERTY(int head READ head WRITE setHead NOTIFY headChanged)
    Q_PROPERTY(int digits READ digits WRITE setDigits NOTIFY digitsChanged)
    Q_PROPERTY(bool editable READ editable NOTIFY shapeChanged)
    Q_PROPERTY(bool perHead READ perHead NOTIFY shapeChanged)
    Q_PROPERTY(int rows READ rows NOTIFY shapeChanged)
    Q_PROPERTY(int columns READ columns NOTIFY shapeChanged)
    Q_PROPERTY(QStringList rowLabels READ rowLabels NOTIFY labelsChanged)
    Q_PROPERTY(QStringList columnLabels READ columnLabels NOTIFY labelsChanged)
    // Characters in the longest entry as shown, for sizing the columns
    // (estimated from the digits for tables too large to measure each time).
    Q_PROPERTY(int widestEntry READ widestEntry NOTIFY labelsChanged)

  public:
    enum Role {
        ValueRole = Qt::UserRole + 1, // the double; undefined for a blocked score
        BlockedRole,                  // a masked entry (score −∞, weight exactly 0)
        EditTextRole,                 // the exact number, for editing
        FocusRole,                    // the row the worked arithmetic follows
    };
    Q_ENUM(Role)

    explicit MatrixTableModel(QObject* parent = nullptr);

    AttentionCellModel* cell() const { return cell_; }
    void setCell(AttentionCellModel* cell);
    QString matrix() const { return matrix_; }
    void setMatrix(const QString& matrix);
    int head() const { return head_; }
    void setHead(int head);
    int digits() const { return digits_; }
    void setDigits(int digits);
    bool editable() const { return editable_; }
    bool perHead() const;
    int rows() const { return table_.rows(); }
    int columns() const { return table_.columns(); }
    QStringList rowLabels() const { return rowLabels_; }
    QStringList columnLabels() const { return columnLabels_; }
    int widestEntry() const { return widestEntry_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

    // Sets one entry from typed text; "" when applied, else why not.
    Q_INVOKABLE QString setValue(int row, int column, const QString& text);
    Q_INVOKABLE double valueAt(int row, int column) const;
    Q_INVOKABLE QString textAt(int row, int column) const;
    // The matrix as tab-separated text for a spreadsheet: a first line of
    // column labels (after an empty corner), then each row's label and
    // numbers, lines ending in "\n". `asShown`: rounded as the table shows
    // them; else every digit that reads back to the same double. An ASCII
    // minus, and "-inf" for a blocked score, which spreadsheets read.
    Q_INVOKABLE QString tabSeparated(bool asShown) const;
    // The same, put on the clipboard.
    Q_INVOKABLE void copyTabSeparated(bool asShown) const;

  Q_SIGNALS:
    void cellChanged();
    void matrixChanged();
    void headChanged();
    void digitsChanged();
    void shapeChanged();
    void labelsChanged();

  private:
    // Re-reads the cell: same shape → one dataChanged; new shape → a reset.
    void refresh();

    QPointer<AttentionCellModel> cell_;
    QString matrix_ = QStringLiteral("weights");
    int head_ = 0;
    int digits_ = 4;
    bool editable_ = false;
    int focusRow_ = -1;
    int widestEntry_ = 1;
    // Where the numbers are, in the cell's result (core/present/matrix_table.h).
    ShownMatrix table_;
    QStringList rowLabels_;
    QStringList columnLabels_;
};

} // namespace attnbook
