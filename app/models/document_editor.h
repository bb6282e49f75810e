#pragma once
// Every edit an author makes in the window, recorded in one undo history (EditHistory): prose
// rewritten, a cell's YAML replaced, cells inserted, duplicated, deleted, moved and renamed.
// The edits and the YAML editor's check are core's (core/live/authoring_edits.h,
// cell_source_check.h); this adapts them to QML. After each edit the session re-reads the
// lesson from the new bytes.

#include "app/window/edit_history.h"

#include <QObject>
#include <QStringList>
#include <QtQml/qqmlregistration.h>

#include <string>

namespace attnbook {

struct AuthoringEdit;
class LessonSession;

class DocumentEditor : public QObject {
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("the editor belongs to a LessonSession")
    Q_PROPERTY(bool dirty READ dirty NOTIFY dirtyChanged)
    Q_PROPERTY(bool canUndo READ canUndo NOTIFY historyChanged)
    Q_PROPERTY(bool canRedo READ canRedo NOTIFY historyChanged)
    Q_PROPERTY(QString undoText READ undoText NOTIFY historyChanged)
    Q_PROPERTY(QString redoText READ redoText NOTIFY historyChanged)

  public:
    explicit DocumentEditor(LessonSession* session);
    ~DocumentEditor() override;

    bool dirty() const { return history_.isDirty(); }
    bool canUndo() const;
    bool canRedo() const;
    QString undoText() const; // "Set colour.heads", the menu adds "Undo"
    QString redoText() const;

    // A new document: no history, nothing unsaved.
    void reset();
    void markSaved();
    // "Keep": the session already changed its working copy; record it.
    void recordKept(const QString& name, std::string before, std::string after);
    // An edit made elsewhere (a restored recovery copy): apply and record it.
    void replaceAll(const QString& name, const std::string& after);

    Q_INVOKABLE void undo();
    Q_INVOKABLE void redo();

    // Prose rows: the Markdown as typed (bindings unreplaced, "\n" line
    // ends), a preview with the bindings' values, and the edit.
    Q_INVOKABLE QString proseSource(int row) const;
    Q_INVOKABLE QString previewMarkdown(const QString& markdown) const;
    // The first binding of `markdown` that would be an error, where it is ("line 2, column 5:
    // {{tiny.nxt}}: …"), or "" (core/live/prose_check.h).
    Q_INVOKABLE QString proseProblem(const QString& markdown) const;
    Q_INVOKABLE QString setProse(int row, const QString& markdown);

    // A cell's YAML body, its first problem as FILE:LINE:COLUMN: message
    // (read by the lesson reader, as saving and reopening would), and the edit.
    Q_INVOKABLE QString cellSource(const QString& id) const;
    Q_INVOKABLE QString checkCellSource(const QString& id, const QString& body) const;
    Q_INVOKABLE int checkCellSourceLine(const QString& id, const QString& body) const;
    // The file's line of the cell body's first line (the line after its fence), so that the YAML
    // editor numbers its lines as the file and the problem message do; 1 for no such cell.
    Q_INVOKABLE int cellBodyFirstLine(const QString& id) const;
    Q_INVOKABLE QString setCellSource(const QString& id, const QString& body);

    // Structure. `kind` is prose, attention or quiz; `row` −1 inserts at the top.
    Q_INVOKABLE QString insertBelow(int row, const QString& kind);
    Q_INVOKABLE QString duplicate(const QString& id);
    Q_INVOKABLE QString remove(const QString& id);
    Q_INVOKABLE QString move(const QString& id, int direction);
    Q_INVOKABLE QString rename(const QString& id, const QString& newId);

    // Paths a binding may use, from the computed results ("colour.head[0].weights[0][1]"),
    // those containing `filter`, at most `limit`.
    Q_INVOKABLE QStringList bindingPaths(const QString& filter, int limit = 400) const;

    // The row to show after the last structural edit (an inserted cell), or −1.
    Q_INVOKABLE int lastEditedRow() const { return lastEditedRow_; }

  Q_SIGNALS:
    void dirtyChanged();
    void historyChanged();
    // An edit was made: the view scrolls to `row` (−1: stay).
    void edited(int row);

  private:
    // Applies an edit of the working document and records it; returns why it was refused.
    QString commit(const AuthoringEdit& edit);

    LessonSession* session_;
    EditHistory history_;
    int lastEditedRow_ = -1;
};

} // namespace attnbook
