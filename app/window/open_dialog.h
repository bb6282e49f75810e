#pragma once
// Which lesson to open, asked with the same Qt file dialog as Save As (save_dialog.h): it has a
// file-name field, and a path typed there is the file opened (QtQuick.Dialogs' FileDialog of
// Qt 6.4 had no name field, and a typed path opened the file selected in the list instead).

#include <QtCore/QObject>
#include <QtCore/QString>
#include <QtCore/QStringList>
#include <QtQml/qqmlregistration.h>

namespace attnbook {

class OpenDialog : public QObject {
    Q_OBJECT
    QML_ELEMENT
    QML_SINGLETON

  public:
    explicit OpenDialog(QObject* parent = nullptr) : QObject(parent) {}

    // Asks for an existing file, starting in `folder` (or the folder of the file it names);
    // `filters` are "Name (*.ext *.ext)". The chosen path, or "" when cancelled.
    Q_INVOKABLE QString ask(const QString& title, const QString& folder,
                            const QStringList& filters);
};

} // namespace attnbook
