#pragma once
// File → Export in the window: the open lesson as a lesson PDF, a worksheet with its answer key,
// a bundle, a Jupyter notebook or a web page (cli.md "export"), with the command line's options.
//
// An export happens in two steps. renderPreview() renders on a worker thread, reporting its
// progress through queued signals and stopping at cancel(), into a temporary folder: the PDF
// the dialog shows (for a bundle, the lesson.pdf inside it; a notebook and a web page have none,
// only their summary). save() then copies what was
// rendered to the chosen path — for a worksheet, the key and the roster CSV beside it — through
// the exports' atomic writer, all files together: a cancelled, failed or refused export leaves
// no file, partial or whole, and changes none that was there.
//
// What is exported is the session's working copy (documentText()): the document with the edits
// kept so far, read and computed afresh on the worker thread. It is read again only when its
// bytes change (LessonSession::edited), never for a what-if.

#include "app/models/lesson_session.h"
#include "exports/export_control.h"
#include "exports/export_request.h"
#include "exports/pdf_style.h"

#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QTemporaryDir>
#include <QUrl>
#include <QtQml/qqmlregistration.h>

#include <atomic>
#include <memory>
#include <vector>

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
    Q_PROPERTY(int rosterCount READ rosterCount NOTIFY optionsChanged)
    Q_PROPERTY(bool seedUsed READ seedUsed NOTIFY optionsChanged)
    Q_PROPERTY(QString rosterProblem READ rosterProblem NOTIFY optionsChanged)
    Q_PROPERTY(QString optionsProblem READ optionsProblem NOTIFY optionsChanged)
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
    enum Kind { LessonPdf, Worksheet, Bundle, Notebook, WebPage };
    Q_ENUM(Kind)

    explicit ExportController(QObject* parent = nullptr);
    ~ExportController() override; // cancels a running render and waits for it

    LessonSession* session() const { return session_; }
    void setSession(LessonSession* session);

    Kind kind() const { return kind_; }
    void setKind(Kind kind);
    QString paper() const { return paperText_; }
    void setPaper(const QString& paper);
    bool answers() const { return answers_; }
    void setAnswers(bool answers);
    int variants() const { return variants_; } // 0: the lesson's own numbers
    void setVariants(int variants);
    QString seed() const { return seed_; }
    void setSeed(const QString& seed);
    QString rosterPath() const { return rosterPath_; } // a path or a file:// URL; "" for none
    void setRosterPath(const QString& pathOrUrl);
    int rosterCount() const { return int(roster_.size()); }
    // Variants draw numbers from the seed; so does a roster, one variant per name.
    bool seedUsed() const { return variants_ > 0 || !roster_.isEmpty(); }
    QString rosterProblem() const { return rosterProblem_; }
    // Why the options cannot be rendered (a paper size or seed the command line would refuse,
    // an unreadable roster), or "".
    QString optionsProblem() const;
    // The export these options ask for, as the command line would ask it.
    ExportRequest request() const;

    bool exportable() const;         // a lesson is open and has no errors
    bool worksheetAvailable() const; // it has worksheet options or quizzes

    bool busy() const { return busy_; }
    double progress() const { return progress_; }
    QString stage() const { return stage_; }

    bool previewReady() const { return !files_.empty(); }
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
    // The answer key's path for a worksheet saved to PATH: "sheets.pdf" → "sheets-answers.pdf".
    static QString answersPathFor(const QString& worksheetPath);

  Q_SIGNALS:
    void sessionChanged();
    void lessonChanged();
    void optionsChanged();
    void busyChanged();
    void progressChanged();
    void previewChanged();
    void statusChanged();
    void renderFinished(bool ok);
    void saved(const QStringList& paths);

  public:
    // A rendered file in the temporary folder and what it is.
    struct RenderedFile {
        QString role; // "lesson", "worksheet", "answers", "roster", "bundle", "preview"
        QString path;
    };
    struct Outcome {
        int run = 0;
        ExportResult result;
        std::vector<RenderedFile> files;
        QString summary;
    };

  private:
    void optionsEdited();
    void lessonOpened();
    void documentEdited();
    void clearPreview();
    void setStatus(const QString& error, const QString& message);
    void applyProgress(int run, double fraction, const QString& stage);
    void finishRender();
    QString previewFile(const QString& role) const;
    std::string documentBytes() const;
    std::string filePath() const;
    std::shared_ptr<const DataFiles> dataFiles() const;

    QPointer<LessonSession> session_;
    Kind kind_ = LessonPdf;
    QString paperText_ = QStringLiteral("a4");
    bool answers_ = true;
    int variants_ = 0;
    QString seed_ = QStringLiteral("1");
    QString rosterPath_;
    QStringList roster_;
    QString rosterProblem_;
    bool worksheetAvailable_ = false;

    std::unique_ptr<QTemporaryDir> folder_;
    QFutureWatcher<Outcome> watcher_;
    std::shared_ptr<std::atomic<bool>> cancel_;
    int run_ = 0;
    Kind renderingKind_ = LessonPdf;
    int optionsVersion_ = 0;
    int optionsAtRender_ = 0;
    int documentVersion_ = 0;
    int documentAtRender_ = 0;
    bool busy_ = false;
    double progress_ = 0;
    QString stage_;

    std::vector<RenderedFile> files_;
    Kind renderedKind_ = LessonPdf;
    bool previewCurrent_ = false;
    QString previewSummary_;
    QString error_, message_;
};

} // namespace attnbook
