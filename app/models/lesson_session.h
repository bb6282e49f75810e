#pragma once
// An open lesson in the window, adapted to QML: a LiveLesson (core/live/live_lesson.h: the
// lesson and its data-file source, what was computed, the working document with kept edits,
// the prose pieces and their rebinding after a what-if, Keep) presented as list models — the
// column of cells, the outline of headings and the problem list — and the cell models it makes
// from the computed cells. An edit to a cell recomputes that cell only; the live lesson says
// which prose pieces and quizzes quote it, and only those are written again.
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
#include "core/live/live_lesson.h"

#include <QObject>
#include <QtQml/qqmlregistration.h>

#include <functional>
#include <map>
#include <memory>

namespace attnbook {

class AttentionCellModel;
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
    // Ctrl+Z, one timeline for the lesson (core/live/undo_timeline.h): the latest what-if in
    // whichever cell (`undoCellId` names it), else the document's last edit.
    Q_PROPERTY(bool canUndo READ canUndo NOTIFY undoChanged)
    Q_PROPERTY(QString undoCellId READ undoCellId NOTIFY undoChanged)

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
    const Lesson& lesson() const { return live_.lesson(); }
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
    bool canUndo() const;
    // The cell whose what-if Undo takes back; "" when Undo takes back a document edit, or nothing.
    QString undoCellId() const;
    // Takes back the latest what-if or, with none left, the document's last edit.
    Q_INVOKABLE void undo();
    // The working copy of the document, with kept edits: what a save would write.
    Q_INVOKABLE QString documentText() const;
    // A new lesson from the bundled template, with no file yet.
    Q_INVOKABLE void newLesson();

    // For the editor: the working document, what was computed, and where
    // each row of the cell list sits in the document.
    const Document& working() const { return live_.working(); }
    const LessonResults& results() const { return live_.results(); }
    using RowPlace = attnbook::RowPlace;
    RowPlace rowPlace(int row) const { return live_.rowPlace(row); }
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
    void undoChanged();
    // News of something done that the window should say once (a file written beside the
    // lesson).
    void notice(const QString& text);

  private:
    // Shows what live_ holds now: its rows, outline and problems, with a model for each cell.
    void present(const QString& path);
    // present() around a re-read of the same lesson: the view keeps its place.
    void rebuild(const std::function<void()>& read, const QString& path);
    void clearCells();
    void makeAttentionModels();
    CellListModel::Row proseRow(const LessonRow& place,
                                std::vector<OutlineModel::Heading>& headings, int row) const;
    CellListModel::Row cellRow(const LessonRow& place, const CellBlock& block);
    // The model that shows `cell`, or nullptr when it cannot be shown live.
    QObject* makeCellModel(const LessonCell& cell);
    QObject* makeQuizModel(const LessonCell& cell, const QuizCellSpec& quiz);
    QObject* makeTransformerModel(const LessonCell& cell, const TransformerCellSpec& spec,
                                  const ComputedCell& computed);
    template <class Model> void wire(Model* model, const std::string& id);
    void presentProblems();
    void setNames(const QString& path);
    // Writes again the prose rows and quizzes a cell's what-if changed.
    void show(const Rebound& rebound);
    void cellUpdatingChanged();
    std::optional<std::string> keep(const std::string& id,
                                    const std::vector<std::pair<std::string, std::string>>& keys);
    // Keep on a cell that trains (docs/training.md, "Keep"): the weights on show into a file
    // beside the lesson, the cell reading them; one Undo step. "" when kept, else why not.
    std::string keepTrainedWeights(const std::string& id, const TransformerConfig& shown,
                                   bool replace);
    // The file Keep would write for a cell (`fileName` beside the lesson) is there already.
    bool besideLesson(const std::string& fileName) const;

    CellListModel* cells_;
    ProblemListModel* problems_;
    OutlineModel* outline_;

    LiveLesson live_;
    std::map<std::string, QObject*> cellModels_;
    std::map<std::string, AttentionCellModel*> attention_;
    std::map<std::string, QuizCellModel*> quizzes_;
    std::vector<TransformerCellModel*> transformers_;

    DocumentEditor* editor_;
    DocumentSaver* saver_;
    bool loaded_ = false;
    bool updating_ = false;
    bool rebuilding_ = false;
    QString title_, subtitle_, author_, filePath_, fileName_;
};

} // namespace attnbook
