#pragma once
// File → Print… (Ctrl+P) and the export dialog's Print: paper that holds exactly what the lesson
// PDF holds. The lesson is rendered by the export route itself (renderExport, as `attnbook
// export --pdf` renders it) at the paper the system print dialog chose. Printed to a file (the
// dialog's Print to File), the file is that PDF itself: text, fonts, links and outline. Sent to
// a printer, each PDF page is drawn onto it: Qt's printer cannot take a PDF as it is, and
// QPdfDocument (QtPdf) renders a page only to an image, so a page goes to the printer as an image
// at up to 300 dpi: the same page, not a second layout of it.

#include "app/models/lesson_session.h"
#include "exports/paint/pdf_style.h"
#include "files/export_control.h"

#include <QObject>
#include <QPageLayout>
#include <QPointer>
#include <QUrl>
#include <QtQml/qqmlregistration.h>

class QPrinter;

namespace attnbook {

// The lesson paper for the printer's: Letter for the US sizes (Letter, Legal), A4 otherwise.
Paper paperForPrinter(const QPageLayout& layout);

// Draws every page of the PDF at `pdfPath` onto `printer`, one sheet per page, each scaled to
// fit its sheet and centred (1:1 when the sizes match). Page images are at most `dpi`. A printer
// that writes a PDF file gets the PDF's own bytes instead.
ExportResult printPdfPages(const QString& pdfPath, QPrinter& printer, int dpi = 300);

class LessonPrinter : public QObject {
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(attnbook::LessonSession* session READ session WRITE setSession NOTIFY sessionChanged)
    Q_PROPERTY(QString error READ error NOTIFY statusChanged)
    Q_PROPERTY(QString message READ message NOTIFY statusChanged)

  public:
    explicit LessonPrinter(QObject* parent = nullptr);

    LessonSession* session() const { return session_; }
    void setSession(LessonSession* session);
    QString error() const { return error_; }
    QString message() const { return message_; }

    // Shows the system print dialog; on Print renders the lesson PDF at the paper it chose and
    // prints it. False (with `error`) when it could not; false and no error when cancelled.
    Q_INVOKABLE bool printLesson();
    // Shows the print dialog for a rendered PDF (the export dialog's worksheet or key).
    Q_INVOKABLE bool printPdf(const QUrl& pdf, const QString& title);

    // What printLesson() does once the dialog said Print: the session's working copy (kept
    // edits included) through the export route, at paperForPrinter(printer), onto `printer`.
    ExportResult printLessonTo(QPrinter& printer);

  Q_SIGNALS:
    void sessionChanged();
    void statusChanged();

  private:
    bool finish(const ExportResult& result, const QString& what);

    QPointer<LessonSession> session_;
    QString error_, message_;
};

} // namespace attnbook
