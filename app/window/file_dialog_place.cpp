#include "app/window/file_dialog_place.h"

#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtCore/QStandardPaths>
#include <QtGui/QGuiApplication>
#include <QtGui/QWindow>
#include <QtWidgets/QDialog>

namespace attnbook {

// The folder the dialog opens in: `place` itself, or the folder of the file it names (the
// lesson), else the user's documents (a lesson built into attnbook, ":/documents/...").
QString dialogStartFolder(const QString& place) {
    const QString path = localFilePath(place);
    if (!path.isEmpty() && !path.startsWith(QLatin1Char(':'))) {
        const QFileInfo info(path);
        if (info.isDir()) {
            return info.absoluteFilePath();
        }
        if (info.absoluteDir().exists()) {
            return info.absolutePath();
        }
    }
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    return QFileInfo(documents).isDir() ? documents : QDir::homePath();
}

// Shows `dialog` modally above the window it was asked from, and gives that window the
// keyboard back afterwards (a dialog of QML, such as the export dialog, then still answers
// Esc and its shortcuts). Returns the dialog's result.
int runDialogAbove(QDialog& dialog) {
    QWindow* parent = QGuiApplication::focusWindow();
    if (parent) {
        dialog.winId(); // makes its QWindow
        if (QWindow* handle = dialog.windowHandle()) {
            handle->setTransientParent(parent);
        }
    }
    const int result = dialog.exec();
    if (parent) {
        parent->requestActivate();
    }
    return result;
}

} // namespace attnbook
