#pragma once
// An open lesson in the window: reads it (a .md, a bundle, or the bundled
// default lesson), computes it, and presents it as list models — the column
// of cells, the outline of headings and the problem list. An edit to an
// attention cell recomputes that cell only, then rewrites just the prose
// and quizzes that quote it.
//
// Nothing here writes the lesson file. "Keep" applies a cell's edits to a
// working copy of the document through the cell editor and marks it
// unsaved, so saving (and an undo stack over the same edits) can be added
// on top.

#include "cell_list_model.h"
#include "lesson.h"
#include "outline_model.h"
#include "problem_list_model.h"
#include "prose_rows.h"

#include <QObject>
#include <QtQml/qqmlregistration.h>

#include <map>
#include <memory>

namespace attnbook {

class AttentionCellModel;
class QuizCellModel;

class LessonSession : public QObject {
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(bool loaded READ loaded NOTIFY opened)
    Q_PROPERTY(QString title READ title NOTIFY opened)
    Q_PROPERTY(QString subtitle READ subtitle NOTIFY opened)
    Q_PROPERTY(QString author READ author NOTIFY opened)
    Q_PROPERTY(QString filePath READ filePath NOTIFY opened)
    Q_PROPERTY(QString fileName READ fileName NOTIFY opened)
    Q_PROPERTY(bool bundled READ bundled NOTIFY opened)
    Q_PROPERTY(bool unsavedChanges READ unsavedChanges NOTIFY unsavedChangesChanged)
    Q_PROPERTY(attnbook::CellListModel* cells READ cells CONSTANT)
    Q_PROPERTY(attnbook::ProblemListModel* problems READ problems CONSTANT)
    Q_PROPERTY(attnbook::OutlineModel* outline READ outline CONSTANT)

  public:
    explicit LessonSession(QObject* parent = nullptr);
    ~LessonSession() override;

    static QString bundledLessonPath() { return QStringLiteral(":/documents/attention.md"); }

    bool loaded() const { return loaded_; }
    QString title() const { return title_; }
    QString subtitle() const { return subtitle_; }
    QString author() const { return author_; }
    QString filePath() const { return filePath_; }
    QString fileName() const { return fileName_; }
    bool bundled() const { return filePath_ == bundledLessonPath(); }
    bool unsavedChanges() const { return unsavedChanges_; }
    CellListModel* cells() const { return cells_; }
    ProblemListModel* problems() const { return problems_; }
    OutlineModel* outline() const { return outline_; }

    // Opens a lesson file, a bundle or a file:// URL; an empty path opens the
    // bundled lesson. A lesson with errors still opens: the problems list
    // them and the valid cells show. Returns false when it has errors.
    Q_INVOKABLE bool open(const QString& pathOrUrl);
    // Opens a lesson given as text (tests and previews); `name` is its path.
    bool openText(const QString& name, const std::string& bytes);
    // The model behind cell `id` (AttentionCellModel, QuizCellModel, ChartCellModel).
    Q_INVOKABLE QObject* cell(const QString& id) const;
    // The working copy of the document, with kept edits: what a save would write.
    Q_INVOKABLE QString documentText() const;

  Q_SIGNALS:
    void opened();
    void unsavedChangesChanged();

  private:
    void present(Lesson lesson, const QString& path);
    void clearCells();
    void computeCells();
    void attentionRecomputed(const std::string& id);
    QString proseMarkdown(const ProsePieceRow& row) const;
    QString textWithBindings(const std::string& text) const;
    std::optional<std::string> keep(const std::string& id,
                                    const std::vector<std::pair<std::string, std::string>>& keys);

    CellListModel* cells_;
    ProblemListModel* problems_;
    OutlineModel* outline_;

    Lesson lesson_;
    Document working_; // the document with kept edits
    LessonResults results_;
    std::vector<ProsePieceRow> prose_;
    std::vector<int> proseRow_; // cell-list row of each prose piece
    std::map<std::string, QObject*> cellModels_;
    std::map<std::string, AttentionCellModel*> attention_;
    std::vector<QuizCellModel*> quizzes_;
    std::set<std::string> quotedCells_;   // cells that prose or quizzes bind to
    std::set<std::string> gradientCells_; // … and bind to a gradient or its check

    bool loaded_ = false;
    bool unsavedChanges_ = false;
    QString title_, subtitle_, author_, filePath_, fileName_;
};

} // namespace attnbook
