#include "app/window/save_dialog.h"

#include "app/window/file_dialog_place.h"

#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtCore/QSettings>
#include <QtCore/QStandardPaths>
#include <QtGui/QDesktopServices>
#include <QtGui/QGuiApplication>
#include <QtGui/QWindow>
#include <QtWidgets/QFileDialog>
#include <QtWidgets/QMessageBox>
#include <QtWidgets/QPushButton>

namespace attnbook {
namespace {

const QString kExportFolderKey = QStringLiteral("export/lastFolder");

} // namespace

QString withExtension(const QString& fileName, const QString& suffix, const QStringList& known) {
    if (suffix.isEmpty()) {
        return fileName;
    }
    const qsizetype dot = fileName.lastIndexOf(QLatin1Char('.'));
    const qsizetype slash = fileName.lastIndexOf(QLatin1Char('/'));
    if (dot > slash + 1) {
        const QString own = fileName.mid(dot + 1);
        if (own.compare(suffix, Qt::CaseInsensitive) == 0) {
            return fileName;
        }
        if (known.contains(own, Qt::CaseInsensitive)) {
            return fileName.left(dot + 1) + suffix;
        }
    }
    return fileName + QLatin1Char('.') + suffix;
}

QStringList existingFiles(const QStringList& paths) {
    QStringList out;
    for (const QString& path : paths) {
        const QFileInfo info(localFilePath(path));
        if (!path.isEmpty() && (info.exists() || info.isSymLink())) {
            out << info.filePath();
        }
    }
    return out;
}

QString SaveDialog::ask(const QString& title, const QString& folder, const QString& fileName,
                        const QStringList& filters, const QStringList& suffixes) {
    QFileDialog dialog(nullptr, title, dialogStartFolder(folder.isEmpty() ? lessonPath_ : folder));
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.setFileMode(QFileDialog::AnyFile);
    dialog.setLabelText(QFileDialog::Accept, tr("Save"));
    dialog.setNameFilters(filters);
    // The filter chosen sets the extension: of the name shown (QFileDialog renames it when the
    // filter changes) and of a name typed without one (the default suffix).
    const auto suffixOf = [&](const QString& filter) {
        const qsizetype i = filters.indexOf(filter);
        return i >= 0 && i < suffixes.size() ? suffixes[i] : QString();
    };
    // It starts on the filter of the offered name's extension.
    qsizetype start = 0;
    for (qsizetype i = 0; i < suffixes.size(); ++i) {
        if (fileName.endsWith(QLatin1Char('.') + suffixes[i], Qt::CaseInsensitive)) {
            start = i;
            break;
        }
    }
    if (start < filters.size()) {
        dialog.selectNameFilter(filters[start]);
    }
    dialog.setDefaultSuffix(suffixes.value(start));
    QObject::connect(&dialog, &QFileDialog::filterSelected, &dialog,
                     [&](const QString& filter) { dialog.setDefaultSuffix(suffixOf(filter)); });
    dialog.selectFile(fileName);
    if (runDialogAbove(dialog) != QDialog::Accepted || dialog.selectedFiles().isEmpty()) {
        return {};
    }
    // The dialog asked before replacing the name it returns; a name that gets its filter's
    // extension only now is asked about here.
    const QString chosen = dialog.selectedFiles().constFirst();
    const QString path = withExtension(chosen, suffixOf(dialog.selectedNameFilter()), suffixes);
    if (path != chosen && !confirmOthers({path}, QString())) {
        return {};
    }
    return path;
}

bool SaveDialog::confirmOthers(const QStringList& paths, const QString& chosen) {
    QStringList others = existingFiles(paths);
    others.removeAll(QFileInfo(localFilePath(chosen)).filePath());
    if (others.isEmpty()) {
        return true;
    }
    QStringList names;
    for (const QString& path : others) {
        names << QFileInfo(path).fileName();
    }
    QMessageBox box(QMessageBox::Warning, tr("Replace?"),
                    others.size() == 1
                        ? tr("“%1” also exists and would be replaced.").arg(names.first())
                        : tr("These files also exist and would be replaced: %1.")
                              .arg(names.join(QStringLiteral(", "))),
                    QMessageBox::NoButton);
    box.setInformativeText(tr("Replacing overwrites what they hold now."));
    QPushButton* replace = box.addButton(tr("Replace"), QMessageBox::AcceptRole);
    box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(QMessageBox::Cancel);
    runDialogAbove(box);
    return box.clickedButton() == replace;
}

QString SaveDialog::lastExportFolder() {
    const QString folder = QSettings().value(kExportFolderKey).toString();
    return QFileInfo(folder).isDir() ? folder : QString();
}

void SaveDialog::rememberExportFolder(const QString& path) {
    QSettings().setValue(kExportFolderKey, QFileInfo(localFilePath(path)).absolutePath());
}

bool SaveDialog::openFile(const QString& path) {
    return QDesktopServices::openUrl(QUrl::fromLocalFile(localFilePath(path)));
}

bool SaveDialog::showFolder(const QString& path) {
    return QDesktopServices::openUrl(
        QUrl::fromLocalFile(QFileInfo(localFilePath(path)).absolutePath()));
}

} // namespace attnbook
