#pragma once
// An open lesson in the window: reads it (a .md, a bundle, or the bundled
// default lesson), computes it, and presents it as list models — the column
// of cells, the outline of headings and the problem list. An edit to an
// attention cell recomputes that cell only, then rewrites just the prose
// and quizzes that quote it.
//
// Authoring goes through two helpers it owns: the DocumentEditor (every
// edit of the document's bytes, one undo history) and the DocumentSaver
// (the file on disk, saves, autosaved recovery copies). After each edit the
// session re-reads the lesson from the edited bytes, so line numbers stay
// right. "Keep" applies a cell's edits to the working copy through the
// cell editor and records them in the same history.

#include "app/models/cell_list_model.h"
#include "app/models/outline_model.h"
#include "app/models/problem_list_model.h"
#include "app/models/prose_rows.h"
#include "core/document/lesson.h"

#include <QObject>
#include <QtQml/qqmlregistration.h>

#include <map>
#include <memory>

namespace attnbook {

class AttentionCellModel;
class JsonSelection;
class QuizCellModel;
class TransformerCellModel;
class DocumentEditor;
class DocumentSaver;

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
    Q_PROPERTY(attnbook::DocumentEditor* editor READ editor CONSTANT)
    Q_PROPERTY(attnbook::DocumentSaver* saver READ saver CONSTANT)
    Q_PROPERTY(bool hasFile READ hasFile NOTIFY opened)
    // Some cell's numbers are being computed on the worker after an edit.
    Q_PROPERTY(bool updating READ updating NOTIFY updatingChanged)

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
    // The lesson as last read from the document (what-ifs are the cells' own).
    const Lesson& lesson() const { return lesson_; }
    bool unsavedChanges() const;
    bool hasFile() const;
    CellListModel* cells() const { return cells_; }
    ProblemListModel* problems() const { return problems_; }
    OutlineModel* outline() const { return outline_; }
    DocumentEditor* editor() const { return editor_; }
    DocumentSaver* saver() const { return saver_; }
    bool updating() const { return updating_; }
    // Re-reading the lesson after an edit of its bytes (within applyBytes): `opened` then
    // announces the same lesson edited, not another one.
    bool rebuilding() const { return rebuilding_; }

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
    // A new lesson from the bundled template, with no file yet.
    Q_INVOKABLE void newLesson();

    // For the editor: the working document, what was computed, and where
    // each row of the cell list sits in the document.
    const Document& working() const { return working_; }
    const LessonResults& results() const { return results_; }
    struct RowPlace {
        int segment = -1;   // index in working().segments
        int lineOffset = 0; // prose: first line of the row within its segment
        std::string text;   // prose: the row's exact bytes
        bool lastInSegment = true;
    };
    RowPlace rowPlace(int row) const;
    // Re-reads the lesson from `bytes` (an edit, undo or redo) keeping its path.
    void applyBytes(const std::string& bytes);
    // After Save As: the lesson's new path. Its data files now come from the new folder (a
    // lesson that reads some is read again from there).
    void setPath(const QString& path);
    // Re-reads the lesson from the file on disk (Reload).
    void reloadFromBytes(const std::string& bytes);
    QString withBindings(const QString& markdown) const;

  Q_SIGNALS:
    void opened();
    void unsavedChangesChanged();
    // Around a re-read after an edit: the view keeps its place.
    void aboutToRebuild();
    void rebuilt();
    // The document's bytes changed: an edit, undo or redo, Keep, a restored recovery copy, a
    // reload. Not a what-if, which changes numbers but not the document (what exports read).
    void edited();
    void updatingChanged();

  private:
    void present(Lesson lesson, const QString& path);
    void openBytes(const QString& path, const std::string& bytes, const QString& displayName);
    void clearCells();
    void computeCells();
    void attentionRecomputed(const std::string& id);
    // A transformer cell's what-if: its JSON and the prose and quizzes that quote it follow.
    void transformerRecomputed(const std::string& id);
    // The prose rows and quizzes that quote cell `id`, written again from results_.
    void rebindQuotes(const std::string& id);
    void cellUpdatingChanged();
    QString proseMarkdown(const ProsePieceRow& row) const;
    // A bound value as prose shows it: its text, a dash with a mark when a reader's what-if
    // took it away, or the binding as written when the author's own cell gives no value.
    std::optional<std::string> boundMarkdown(const Binding& binding) const;
    // Whether a reader's what-if changed a cell that `binding` reads.
    // Whether a binding reads what a transformer cell is still computing for a what-if (its
    // gradients, their check, its generation): the prose shows "…" until they arrive.
    bool awaitsRest(const Binding& binding) const;
    bool readsEditedCell(const Binding& binding) const;
    // The mark of a sentence a what-if made false, `detail` on hover.
    std::string whatIfMark(const std::string& detail) const;
    std::string claimMark(const Binding& claim) const;
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
    std::vector<int> proseRow_;       // cell-list row of each prose piece
    std::vector<RowPlace> rowPlaces_; // where each cell-list row sits in working_
    std::map<std::string, QObject*> cellModels_;
    std::map<std::string, AttentionCellModel*> attention_;
    std::vector<QuizCellModel*> quizzes_;
    std::vector<TransformerCellModel*> transformers_;
    std::set<std::string> quotedCells_;   // cells that prose or quizzes bind to
    std::set<std::string> gradientCells_; // … and bind to a gradient or its check
    std::map<std::string, std::shared_ptr<JsonSelection>> quotedPaths_; // what they read

    DocumentEditor* editor_;
    DocumentSaver* saver_;
    bool loaded_ = false;
    bool updating_ = false;
    bool rebuilding_ = false;
    QString title_, subtitle_, author_, filePath_, fileName_;
    // The folder the lesson's {file: PATH} values are read from (lesson_.files); empty when
    // they come from a bundle, from the executable, or from nowhere (a new lesson).
    QString dataFolder_;
};

} // namespace attnbook
