#pragma once
// Where to save, asked with Qt's own save dialog (QFileDialog: the desktop's dialog where there
// is one, Qt's otherwise), for Save As, exports and figures alike:
//   - the name the user typed survives moving between folders;
//   - choosing a filter ("PNG image") sets the name's extension, and so the format written;
//   - the accept button says Save, and Enter saves;
//   - replacing an existing file is always asked first: the chosen file by the dialog, and any
//     other file the save would write (an answer key beside a worksheet) here, by name.
// QtQuick.Dialogs' FileDialog of Qt 6.4 did none of these reliably: navigating into a folder
// replaced the typed name with that folder's first file, and Save then overwrote it unasked.

#include "app/models/file_url.h"

#include <QtCore/QObject>
#include <QtCore/QString>
#include <QtCore/QStringList>
#include <QtCore/QUrl>
#include <QtQml/qqmlregistration.h>

namespace attnbook {

// `fileName` with the extension `suffix` ("png"): its own replaced when it has one of `known`
// (the dialog's other filters), else added. "figure.svg" → "figure.png".
QString withExtension(const QString& fileName, const QString& suffix, const QStringList& known);

// Those of `paths` that exist (a link to a file counts), for the Replace question.
QStringList existingFiles(const QStringList& paths);

class SaveDialog : public QObject {
    Q_OBJECT
    QML_ELEMENT
    QML_SINGLETON

    // The open lesson's file: where a dialog asked without a folder starts (Main.qml binds it).
    Q_PROPERTY(QString lessonPath MEMBER lessonPath_ NOTIFY lessonPathChanged)

  public:
    explicit SaveDialog(QObject* parent = nullptr) : QObject(parent) {}

    // Asks where to save. `filters` are "Name (*.ext)" and `suffixes` their extensions, one
    // each; the name starts as `fileName` in `folder` (a folder, or a file whose folder is
    // meant, as a path or a file: URL; the user's documents when empty or built in). Returns the
    // chosen path with its filter's extension, or "" when cancelled (also when the user declines to
    // replace a file).
    Q_INVOKABLE QString ask(const QString& title, const QString& folder, const QString& fileName,
                            const QStringList& filters, const QStringList& suffixes);

    // Asks "Replace?" for those of `paths` that exist besides `chosen` (which the dialog has
    // asked about): true when none exist or the user agrees.
    Q_INVOKABLE bool confirmOthers(const QStringList& paths, const QString& chosen);

    // The folder the last export was saved in, remembered across sessions; "" when none.
    Q_INVOKABLE static QString lastExportFolder();
    Q_INVOKABLE static void rememberExportFolder(const QString& path);

    // After a save: opens the file in the desktop's program for it, or its folder.
    Q_INVOKABLE static bool openFile(const QString& path);
    Q_INVOKABLE static bool showFolder(const QString& path);

  Q_SIGNALS:
    void lessonPathChanged();

  private:
    QString lessonPath_;
};

} // namespace attnbook
