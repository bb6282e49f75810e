// Save As, exports and figures ask where to save through SaveDialog: the
// typed name survives moving into another folder, replacing an existing file is always asked
// (and refusing writes nothing), the filter sets the extension, the button says Save and Enter
// saves, and the other files an export writes (the answer key) are asked about by name. Each
// case drives the real dialog as a user would: keys typed into its name field, a double-click
// on a folder, Enter.
#include "app/window/save_dialog.h"

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtCore/QTimer>
#include <QtTest>
#include <QtWidgets/QAbstractItemView>
#include <QtWidgets/QApplication>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QFileDialog>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QListView>
#include <QtWidgets/QMessageBox>
#include <QtWidgets/QPushButton>

#include <functional>

using namespace attnbook;

namespace {

// Runs `act` on the next modal dialog that is not `previous`, once it is shown.
void whenModal(std::function<void(QWidget*)> act, QWidget* previous = nullptr) {
    auto* poll = new QTimer;
    poll->setInterval(20);
    QObject::connect(poll, &QTimer::timeout, [poll, act, previous] {
        QWidget* modal = QApplication::activeModalWidget();
        if (modal && modal != previous && modal->isVisible()) {
            poll->stop();
            poll->deleteLater();
            act(modal);
        }
    });
    poll->start();
}

void touch(const QString& path, const QByteArray& bytes = "old") {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(bytes);
}

QLineEdit* nameField(QWidget* dialog) {
    return dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
}

// Double-clicks `name` in the dialog's file list, once the folder has been read.
bool doubleClickEntry(QWidget* dialog, const QString& name) {
    auto* list = dialog->findChild<QListView*>(QStringLiteral("listView"));
    if (!list) {
        return false;
    }
    QModelIndex entry;
    for (int tries = 0; tries < 200 && !entry.isValid(); ++tries) {
        QTest::qWait(20);
        const QModelIndex root = list->rootIndex();
        for (int row = 0; row < list->model()->rowCount(root); ++row) {
            const QModelIndex index = list->model()->index(row, 0, root);
            if (index.data().toString() == name) {
                entry = index;
            }
        }
    }
    if (!entry.isValid()) {
        return false;
    }
    list->scrollTo(entry);
    const QPoint at = list->visualRect(entry).center();
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, at);
    QTest::mouseDClick(list->viewport(), Qt::LeftButton, {}, at);
    return true;
}

} // namespace

class TestSaveDialog : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

  private Q_SLOTS:
    void initTestCase() {
        QApplication::setAttribute(Qt::AA_DontUseNativeDialogs);
        QApplication::setOrganizationName(QStringLiteral("attnbook-tests"));
        QApplication::setApplicationName(QStringLiteral("attnbook-save-dialog-tests"));
        QVERIFY(dir_.isValid());
    }

    void anExtensionFollowsTheFilter() {
        const QStringList known{"svg", "png"};
        QCOMPARE(withExtension("figure.svg", "png", known), QString("figure.png"));
        QCOMPARE(withExtension("figure.png", "png", known), QString("figure.png"));
        QCOMPARE(withExtension("figure.PNG", "png", known), QString("figure.PNG"));
        QCOMPARE(withExtension("figure", "png", known), QString("figure.png"));
        QCOMPARE(withExtension("notes.txt", "png", known), QString("notes.txt.png"));
        QCOMPARE(withExtension("/a.b/figure", "svg", known), QString("/a.b/figure.svg"));
        QCOMPARE(withExtension(".svg", "png", known), QString(".svg.png"));
        QCOMPARE(withExtension("lesson.md", "", {}), QString("lesson.md"));
        // Conversions only: no file is read or written at these paths.
        QCOMPARE(localFilePath("file:///lessons/a%20b.md"), QString("/lessons/a b.md"));
        QCOMPARE(localFilePath("/lessons/a b.md"), QString("/lessons/a b.md"));
    }

    // The reproducer: Save As, type mylesson.md, double-click into a folder holding
    // attention.md, Save. The typed name stays, and attention.md is untouched.
    void theTypedNameSurvivesNavigation() {
        const QString folder = dir_.filePath("navigate");
        QDir().mkpath(folder + "/lessons");
        touch(folder + "/lessons/attention.md", "theirs");
        SaveDialog saver;
        bool driven = false;
        whenModal([&](QWidget* modal) {
            auto* dialog = qobject_cast<QFileDialog*>(modal);
            QVERIFY(dialog);
            auto* box = dialog->findChild<QDialogButtonBox*>(QStringLiteral("buttonBox"));
            QVERIFY(box);
            QString accept;
            for (QAbstractButton* button : box->buttons()) {
                if (box->buttonRole(button) == QDialogButtonBox::AcceptRole) {
                    accept = button->text();
                }
            }
            QCOMPARE(accept, QStringLiteral("Save"));
            QLineEdit* name = nameField(dialog);
            QVERIFY(name);
            name->selectAll();
            QTest::keyClicks(name, QStringLiteral("mylesson.md"));
            QVERIFY(doubleClickEntry(dialog, QStringLiteral("lessons")));
            QTRY_COMPARE(QDir(dialog->directory()).dirName(), QStringLiteral("lessons"));
            QTest::qWait(200); // the folder's files are listed
            QCOMPARE(name->text(), QStringLiteral("mylesson.md"));
            driven = true;
            QTest::keyClick(name, Qt::Key_Return); // Enter saves
        });
        const QString path = saver.ask("Save the lesson as", folder + "/lesson.md", "lesson.md",
                                       {"Lessons (*.md)"}, {"md"});
        QVERIFY(driven);
        QCOMPARE(path, folder + "/lessons/mylesson.md");
        QFile theirs(folder + "/lessons/attention.md");
        QVERIFY(theirs.open(QIODevice::ReadOnly));
        QCOMPARE(theirs.readAll(), QByteArray("theirs"));
    }

    // Choosing an existing file asks before replacing it; No keeps the dialog, Cancel gives "".
    void replacingAFileIsAsked() {
        const QString folder = dir_.filePath("replace");
        QDir().mkpath(folder);
        touch(folder + "/attention.md");
        SaveDialog saver;
        bool asked = false;
        whenModal([&](QWidget* modal) {
            auto* dialog = qobject_cast<QFileDialog*>(modal);
            QVERIFY(dialog);
            QLineEdit* name = nameField(dialog);
            name->selectAll();
            QTest::keyClicks(name, QStringLiteral("attention.md"));
            whenModal(
                [&, dialog](QWidget* question) {
                    auto* box = qobject_cast<QMessageBox*>(question);
                    QVERIFY(box);
                    QVERIFY2(box->text().contains(QStringLiteral("attention.md")),
                             qPrintable(box->text()));
                    asked = true;
                    box->button(QMessageBox::No)->click();
                    QTimer::singleShot(100, dialog, [dialog] {
                        QVERIFY(dialog->isVisible()); // still choosing
                        dialog->reject();
                    });
                },
                dialog);
            QTest::keyClick(name, Qt::Key_Return);
        });
        const QString path =
            saver.ask("Save the lesson as", folder, "lesson.md", {"Lessons (*.md)"}, {"md"});
        QVERIFY(asked);
        QCOMPARE(path, QString());
    }

    // "PNG image" turns figure.svg into figure.png: the name, and so the format written.
    void theFilterSetsTheExtension() {
        const QString folder = dir_.filePath("figures");
        QDir().mkpath(folder);
        SaveDialog saver;
        whenModal([&](QWidget* modal) {
            auto* dialog = qobject_cast<QFileDialog*>(modal);
            QVERIFY(dialog);
            QCOMPARE(nameField(dialog)->text(), QStringLiteral("head.svg"));
            auto* filters = dialog->findChild<QComboBox*>(QStringLiteral("fileTypeCombo"));
            QVERIFY(filters);
            filters->setCurrentIndex(1);
            Q_EMIT filters->activated(1);
            QTRY_COMPARE(nameField(dialog)->text(), QStringLiteral("head.png"));
            QTest::keyClick(nameField(dialog), Qt::Key_Return);
        });
        const QString path =
            saver.ask("Save the heatmap", folder, "head.svg",
                      {"SVG, vector (*.svg)", "PNG image (*.png)"}, {"svg", "png"});
        QCOMPARE(path, folder + "/head.png");
    }

    // A worksheet's answer key is written beside it: when it exists, it is asked about by name.
    void otherFilesAreAskedAboutByName() {
        const QString sheet = dir_.filePath("sheet.pdf");
        const QString key = dir_.filePath("sheet-answers.pdf");
        SaveDialog saver;
        QVERIFY(saver.confirmOthers({sheet, key}, sheet)); // neither exists
        touch(key);
        QString asked;
        whenModal([&](QWidget* modal) {
            auto* box = qobject_cast<QMessageBox*>(modal);
            QVERIFY(box);
            asked = box->text();
            box->button(QMessageBox::Cancel)->click();
        });
        QVERIFY(!saver.confirmOthers({sheet, key}, sheet));
        QVERIFY2(asked.contains(QStringLiteral("sheet-answers.pdf")), qPrintable(asked));
        whenModal([&](QWidget* modal) {
            auto* box = qobject_cast<QMessageBox*>(modal);
            QVERIFY(box);
            for (QAbstractButton* button : box->buttons()) {
                if (button->text() == QStringLiteral("Replace")) {
                    button->click();
                }
            }
        });
        QVERIFY(saver.confirmOthers({sheet, key}, sheet));
    }

    void theExportFolderIsRemembered() {
        const QString folder = dir_.filePath("handouts");
        QDir().mkpath(folder);
        SaveDialog::rememberExportFolder(folder + "/week1.pdf");
        QCOMPARE(SaveDialog::lastExportFolder(), folder);
        QDir(folder).removeRecursively();
        QCOMPARE(SaveDialog::lastExportFolder(), QString()); // gone: not offered
    }
};

QTEST_MAIN(TestSaveDialog)
#include "test_save_dialog.moc"
