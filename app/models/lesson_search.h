#pragma once
// Find in the lesson (Ctrl+F) for QML. The search is core's (core/live/lesson_search.h: hits,
// occurrences, case folding, the current hit); this gives it each row's shown text, as the
// window shows it: a prose row as plain text (bindings replaced by their values, the Markdown
// marks gone, as its TextEdit holds it), a cell by its id and title, a quiz by its question
// and choices, an attention cell by its tokens (what-if tokens included). The current hit is a
// row and the k-th occurrence in that row's text (searchText), which is what the window
// scrolls to and highlights.

#include "core/live/lesson_search.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QtQml/qqmlregistration.h>

#include <string>
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
    using Hit = LessonFind::Hit; // occurrence: the k-th in searchText(row)

    explicit LessonSearch(QObject* parent = nullptr);

    LessonSession* session() const { return session_; }
    void setSession(LessonSession* session);
    QString text() const { return QString::fromStdString(find_.text()); }
    int count() const { return int(find_.hits().size()); }
    int current() const { return find_.current(); }
    int currentRow() const { return find_.currentHit().row; }
    int currentOccurrence() const { return find_.currentHit().occurrence; }
    QString status() const;
    const std::vector<Hit>& hits() const { return find_.hits(); }

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
    // Every row's searchText.
    std::vector<std::string> rowTexts() const;
    // currentChanged, when the current hit is no longer `was`.
    void announce(int was);

    QPointer<LessonSession> session_;
    LessonFind find_;
    mutable QHash<QString, QString> plainCache_;
};

} // namespace attnbook
