#include "app/window/open_dialog.h"

#include "app/window/file_dialog_place.h"

#include <QtWidgets/QFileDialog>

namespace attnbook {

QString OpenDialog::ask(const QString& title, const QString& folder, const QStringList& filters) {
    QFileDialog dialog(nullptr, title, dialogStartFolder(folder));
    dialog.setAcceptMode(QFileDialog::AcceptOpen);
    dialog.setFileMode(QFileDialog::ExistingFile);
    dialog.setLabelText(QFileDialog::Accept, tr("Open"));
    dialog.setNameFilters(filters);
    if (runDialogAbove(dialog) != QDialog::Accepted || dialog.selectedFiles().isEmpty()) {
        return {};
    }
    return dialog.selectedFiles().constFirst();
}

} // namespace attnbook
