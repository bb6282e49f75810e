#pragma once
// File → Export in the window: the open lesson as a lesson PDF, a worksheet with its answer key,
// a bundle, a Jupyter notebook or a web page (cli.md "export"), with the command line's options.
//
// Two steps: renderPreview() renders the session's working copy (the document with the edits
// kept so far; never a what-if) on a worker thread into a temporary folder, with progress and
// cancel(); save() writes what was rendered to the chosen path, the worksheet's key and roster
// beside it, atomically and all together (export_preview.h). The rules — the options, the name
// offered, the files a save writes, the inputs it may not replace, the summary — are the
// exports' (export_choice.h, export_request.h), shared with `attnbook export`: this class
// adapts them to QML.

#include "app/models/lesson_session.h"
#include "exports/export_choice.h"
#include "exports/export_preview.h"

#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QUrl>
#include <QtQml/qqmlregistration.h>

#include <atomic>
#include <memory>

namespace attnbook {

class ExportController : public QObject {
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(attnbook::LessonSession* session READ session WRITE setSession NOTIFY sessionChanged)
    Q_PROPERTY(Kind kind READ kind WRITE setKind NOTIFY optionsChanged)
    Q_PROPERTY(QString paper READ paper WRITE setPaper NOTIFY optionsChanged)
    Q_PROPERTY(bool answers READ answers WRITE setAnswers NOTIFY optionsChanged)
    Q_PROPERTY(int variants READ variants WRITE setVariants NOTIFY optionsChanged)
    Q_PROPERTY(QString seed READ seed WRITE setSeed NOTIFY optionsChanged)
    Q_PROPERTY(QString rosterPath READ rosterPath WRITE setRosterPath NOTIFY optionsChanged)
    Q_PROPERTY(QString rosterName READ rosterName NOTIFY optionsChanged)
    Q_PROPERTY(int rosterCount READ rosterCount NOTIFY optionsChanged)
    Q_PROPERTY(bool seedUsed READ seedUsed NOTIFY optionsChanged)
    Q_PROPERTY(QString rosterProblem READ rosterProblem NOTIFY optionsChanged)
    Q_PROPERTY(QString optionsProblem READ optionsProblem NOTIFY optionsChanged)
    Q_PROPERTY(bool renderOnChoice READ renderOnChoice WRITE setRenderOnChoice NOTIFY
                   renderOnChoiceChanged)
    Q_PROPERTY(bool exportable READ exportable NOTIFY lessonChanged)
    Q_PROPERTY(bool worksheetAvailable READ worksheetAvailable NOTIFY lessonChanged)
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)
    Q_PROPERTY(double progress READ progress NOTIFY progressChanged)
    Q_PROPERTY(QString stage READ stage NOTIFY progressChanged)
    Q_PROPERTY(bool previewReady READ previewReady NOTIFY previewChanged)
    Q_PROPERTY(bool previewCurrent READ previewCurrent NOTIFY previewChanged)
    Q_PROPERTY(QUrl previewUrl READ previewUrl NOTIFY previewChanged)
    Q_PROPERTY(QUrl answersPreviewUrl READ answersPreviewUrl NOTIFY previewChanged)
    Q_PROPERTY(QString previewSummary READ previewSummary NOTIFY previewChanged)
    Q_PROPERTY(QString error READ error NOTIFY statusChanged)
    Q_PROPERTY(QString message READ message NOTIFY statusChanged)

  public:
    // ExportKind's values, for QML.
    enum Kind { LessonPdf, Worksheet, Bundle, Notebook, WebPage };
    Q_ENUM(Kind)

    explicit ExportController(QObject* parent = nullptr);
    ~ExportController() override; // cancels a running render and waits for it

    LessonSession* session() const { return session_; }
    void setSession(LessonSession* session);

    Kind kind() const { return Kind(choice_.kind); }
    void setKind(Kind kind);
    QString paper() const { return choice_.paper; }
    void setPaper(const QString& paper);
    bool answers() const { return choice_.answers; }
    void setAnswers(bool answers);
    int variants() const { return choice_.variants; } // 0: the lesson's own numbers
    void setVariants(int variants);
    QString seed() const { return choice_.seed; }
    void setSeed(const QString& seed);
    QString rosterPath() const { return rosterPath_; } // a path or a file:// URL; "" for none
    void setRosterPath(const QString& pathOrUrl);
    QString rosterName() const; // the roster file's name ("class.txt"), or ""
    int rosterCount() const { return int(choice_.roster.size()); }
    bool seedUsed() const { return choice_.seedUsed(); }
    QString rosterProblem() const { return choice_.rosterProblem; }
    // Why the options cannot be rendered (a paper size or seed the command line would refuse,
    // an unreadable roster), or "".
    QString optionsProblem() const { return choice_.problem(); }
    // The export these options ask for, as the command line would ask it.
    ExportRequest request() const { return choice_.request(); }

    // While true (the dialog is open), a choice made in one click — the kind, the paper, the
    // answer key — renders its preview at once; typed options (variants, seed, roster) wait
    // for renderPreview(), or each keystroke would start a render.
    bool renderOnChoice() const { return renderOnChoice_; }
    void setRenderOnChoice(bool on);

    bool exportable() const { return session_ && session_->loaded(); } // a lesson is open
    // It has worksheet options or quizzes.
    bool worksheetAvailable() const { return exportable() && worksheetAvailable_; }

    bool busy() const { return busy_; }
    double progress() const { return progress_; }
    QString stage() const { return stage_; }

    bool previewReady() const { return !preview_.empty(); }
    bool previewCurrent() const { return previewReady() && previewCurrent_; }
    QUrl previewUrl() const;
    QUrl answersPreviewUrl() const;
    QString previewSummary() const { return previewSummary_; }

    QString error() const { return error_; }
    QString message() const { return message_; }

    // Renders the chosen export into the temporary folder, on a worker thread. Refused (false,
    // with `error`) while one runs, without an exportable lesson, or with a problem in the
    // options. The result arrives with renderFinished().
    Q_INVOKABLE bool renderPreview();
    // Asks the running render to stop; it finishes with renderFinished(false) and leaves the
    // previous preview, if any, as it was.
    Q_INVOKABLE void cancel();
    // Every file saving to PATH would write: the worksheet's key and roster sit beside it.
    Q_INVOKABLE QStringList targetsFor(const QString& pathOrUrl) const;
    // Writes the rendered preview to PATH (and its companions) atomically, all together.
    // False with `error` naming the path when a file cannot be written; then none was.
    Q_INVOKABLE bool save(const QString& pathOrUrl);

    // Where the save dialog starts, and the name it offers.
    Q_INVOKABLE QUrl suggestedFolder() const;
    Q_INVOKABLE QString suggestedFileName() const;

  Q_SIGNALS:
    void sessionChanged();
    void lessonChanged();
    void optionsChanged();
    void renderOnChoiceChanged();
    void busyChanged();
    void progressChanged();
    void previewChanged();
    void statusChanged();
    void renderFinished(bool ok);
    void saved(const QStringList& paths);

  private:
    template <typename T> void setOption(T& option, T value, bool oneClick);
    void optionsEdited();
    void choiceMade();
    bool refusedToRender();
    void lessonOpened();
    void documentEdited();
    void clearPreview();
    void setStatus(const QString& error, const QString& message);
    void applyProgress(int run, double fraction, const QString& stage);
    void finishRender();
    void keepRendered(PreviewOutcome out);

    QPointer<LessonSession> session_;
    ExportChoice choice_;
    QString rosterPath_; // as QML gave it
    bool worksheetAvailable_ = false;
    bool renderOnChoice_ = false;
    bool renderAgain_ = false; // a choice was made while a render ran: render it when it ends

    PreviewFiles preview_;
    QFutureWatcher<PreviewOutcome> watcher_;
    std::shared_ptr<std::atomic<bool>> cancel_;
    int run_ = 0;
    ExportKind renderingKind_ = ExportKind::LessonPdf;
    // Options and the document may change while a render runs: what it renders is what they
    // were when it started, current only if neither changed since.
    int optionsVersion_ = 0;
    int optionsAtRender_ = 0;
    int documentVersion_ = 0;
    int documentAtRender_ = 0;
    bool busy_ = false;
    double progress_ = 0;
    QString stage_;

    bool previewCurrent_ = false;
    QString previewSummary_;
    QString error_, message_;
};

} // namespace attnbook
