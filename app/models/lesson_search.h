#pragma once
// Find in the lesson (Ctrl+F): every place a text occurs in what a reader
// sees, row by row, in the lesson's order. A prose row is searched as it is
// shown (bindings replaced by their values, the Markdown marks gone); a
// cell by its id and title, a quiz by its question and choices, an
// attention cell by its tokens (what-if tokens included). Case is ignored.
// The current hit is a row and the k-th occurrence in that row's text
// (searchText), which is what the window scrolls to and highlights.

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QtQml/qqmlregistration.h>

#include <vector>

namespace attnbook {

class LessonSession;

class LessonSearch : public QObject {
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(attnbook::LessonSession* session READ session WRITE setSession NOTIFY sessionChanged)
    Q_PROPERTY(QString text READ text NOTIFY resultsChanged)
    Q_PROPERTY(int count READ count NOTIFY resultsChanged)
    // The hit shown, 0-based; -1 when there is none.
    Q_PROPERTY(int current READ current NOTIFY currentChanged)
    Q_PROPERTY(int currentRow READ currentRow NOTIFY currentChanged)
    Q_PROPERTY(int currentOccurrence READ currentOccurrence NOTIFY currentChanged)
    // "3 of 12", "no match" or "" (nothing typed).
    Q_PROPERTY(QString status READ status NOTIFY currentChanged)

  public:
    struct Hit {
        int row = -1;
        int occurrence = 0; // the k-th occurrence in searchText(row)
        bool operator==(const Hit&) const = default;
    };

    explicit LessonSearch(QObject* parent = nullptr);

    LessonSession* session() const { return session_; }
    void setSession(LessonSession* session);
    QString text() const { return text_; }
    int count() const { return int(hits_.size()); }
    int current() const { return current_; }
    int currentRow() const { return current_ >= 0 ? hits_[size_t(current_)].row : -1; }
    int currentOccurrence() const {
        return current_ >= 0 ? hits_[size_t(current_)].occurrence : -1;
    }
    QString status() const;
    const std::vector<Hit>& hits() const { return hits_; }

    // Searches for `text`; the current hit becomes the first at or after
    // row `fromRow` (where the reader is), else the first.
    Q_INVOKABLE void find(const QString& text, int fromRow = 0);
    // The next or the previous hit, wrapping around.
    Q_INVOKABLE void next();
    Q_INVOKABLE void previous();
    Q_INVOKABLE void clear();
    // What row `row` is searched in: the prose as plain text, a cell's
    // id, title, question, choices or tokens, one a line.
    Q_INVOKABLE QString searchText(int row) const;

    // The plain text a prose row shows for its Markdown (what the TextEdit holds).
    static QString plainText(const QString& markdown);

  Q_SIGNALS:
    void sessionChanged();
    void resultsChanged();
    void currentChanged();

  private:
    // The lesson changed under the hits (an edit, a what-if): search again,
    // keeping the current hit's place.
    void refresh();
    void collect();
    void setCurrent(int index);

    QPointer<LessonSession> session_;
    QString text_;
    std::vector<Hit> hits_;
    int current_ = -1;
    mutable QHash<QString, QString> plainCache_;
};

} // namespace attnbook
