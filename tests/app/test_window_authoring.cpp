// Authoring in the window, through the session's editor and saver: saves
// that keep every byte, edits that touch only their lines, undo back to the
// exact original, failed saves that leave the document unsaved, recovery
// copies offered after a crash, renames that carry bindings, File → New.
#include "tests/test_files.h"

#include "app/models/document_editor.h"
#include "app/models/document_saver.h"
#include "app/models/lesson_session.h"
#include "core/document/lesson.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace attnbook;

namespace {

QStringList linesOf(const QString& text) {
    return text.split(u'\n');
}

} // namespace

class TestWindowAuthoring : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QTemporaryDir recoveryDir_;

    QString copyOf(const QString& source, const QString& name = {}) {
        const QString target = dir_.filePath(name.isEmpty() ? QFileInfo(source).fileName() : name);
        QFile::remove(target);
        if (!QFile::copy(source, target)) {
            qFatal("cannot copy %s", qPrintable(source));
        }
        QFile(target).setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        return target;
    }
    QString windowLesson() {
        return copyOf(QStringLiteral(ATTNBOOK_SOURCE_DIR "/tests/app/fixtures/window.md"));
    }
    void prepare(LessonSession& session) {
        session.saver()->setRecoveryFolder(recoveryDir_.path());
    }

  private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void saveWithoutEditsKeepsEveryByte() {
        const QDir documents(QStringLiteral(ATTNBOOK_SOURCE_DIR "/documents"));
        for (const QString& name : documents.entryList({QStringLiteral("*.md")})) {
            const QString path = copyOf(documents.filePath(name));
            const QByteArray before = readAll(path);
            LessonSession session;
            prepare(session);
            session.open(path);
            QVERIFY(!session.unsavedChanges());
            QVERIFY2(session.saver()->save(), qPrintable(session.saver()->error()));
            QCOMPARE(readAll(path), before);
        }
    }

    void aCellEditChangesOnlyItsLines() {
        const QString path = windowLesson();
        const QByteArray before = readAll(path);
        LessonSession session;
        prepare(session);
        QVERIFY(session.open(path));
        DocumentEditor* editor = session.editor();
        QString body = editor->cellSource(QStringLiteral("colour"));
        QVERIFY(body.contains(QStringLiteral("heads: 1")));
        body.replace(QStringLiteral("heads: 1"), QStringLiteral("heads: 2"));
        QSignalSpy dirty(&session, &LessonSession::unsavedChangesChanged);
        QCOMPARE(editor->setCellSource(QStringLiteral("colour"), body), QString());
        QCOMPARE(dirty.count(), 1);
        QVERIFY(session.unsavedChanges());
        QCOMPARE(editor->undoText(), QStringLiteral("Edit colour"));
        QVERIFY(session.saver()->save());
        QVERIFY(!session.unsavedChanges());
        const QStringList a = linesOf(QString::fromUtf8(before));
        const QStringList b = linesOf(QString::fromUtf8(readAll(path)));
        QCOMPARE(a.size(), b.size());
        QStringList changed;
        for (int i = 0; i < a.size(); ++i) {
            if (a[i] != b[i]) {
                changed << b[i];
            }
        }
        QCOMPARE(changed, QStringList{QStringLiteral("heads: 2")});
    }

    void proseEditChangesOnlyItsLines() {
        LessonSession session;
        prepare(session);
        QVERIFY(session.open(windowLesson()));
        const QString before = session.documentText();
        const int row =
            session.cells()->rowOfLine(27); // "Nothing here changes when the cell does."
        QCOMPARE(session.cells()->row(row).kind, QStringLiteral("prose"));
        QString text = session.editor()->proseSource(row);
        QVERIFY2(text.contains(QStringLiteral("Nothing here changes")), qPrintable(text));
        text.replace(QStringLiteral("Nothing here changes"), QStringLiteral("Nothing here moves"));
        QCOMPARE(session.editor()->setProse(row, text), QString());
        QString expected = before;
        expected.replace(QStringLiteral("Nothing here changes"),
                         QStringLiteral("Nothing here moves"));
        if (session.documentText() != expected) {
            qWarning().noquote() << session.documentText();
        }
        QCOMPARE(session.documentText(), expected);
        // The preview replaces the bindings, the source keeps them.
        QVERIFY(session.editor()
                    ->previewMarkdown(QStringLiteral("{{colour.head[0].weights[0][1]:4}}"))
                    .contains(QStringLiteral("0.2327")));
    }

    void undoReturnsTheExactOriginal() {
        LessonSession session;
        prepare(session);
        QVERIFY(session.open(windowLesson()));
        const QString original = session.documentText();
        DocumentEditor* editor = session.editor();
        QCOMPARE(editor->insertBelow(0, QStringLiteral("attention")), QString());
        QCOMPARE(editor->insertBelow(-1, QStringLiteral("prose")), QString());
        QCOMPARE(editor->insertBelow(session.cells()->rowOfCell(QStringLiteral("colour")),
                                     QStringLiteral("quiz")),
                 QString());
        QCOMPARE(editor->insertBelow(0, QStringLiteral("chart")), QString());
        QVERIFY(session.cell(QStringLiteral("chart1"))); // a chart that computes
        QCOMPARE(session.problems()->errorCount(), 0);
        QCOMPARE(editor->duplicate(QStringLiteral("colour")), QString());
        QCOMPARE(editor->move(QStringLiteral("blue_share"), -1), QString());
        QCOMPARE(editor->rename(QStringLiteral("colour"), QStringLiteral("hue")), QString());
        QCOMPARE(session.cell(QStringLiteral("colour")), nullptr);
        QVERIFY(session.cell(QStringLiteral("hue")));
        QVERIFY(session.cell(QStringLiteral("quiz1")));
        // The kept edit of a cell goes through the same history.
        auto* cell = session.cell(QStringLiteral("hue"));
        QVERIFY(QMetaObject::invokeMethod(cell, "setHeads", Q_ARG(int, 2)));
        QString refusal;
        QVERIFY(QMetaObject::invokeMethod(cell, "keep", Q_RETURN_ARG(QString, refusal)));
        QCOMPARE(refusal, QString());
        QCOMPARE(editor->undoText(), QStringLiteral("Set hue.heads"));
        QCOMPARE(editor->remove(QStringLiteral("attention1")), QString());
        QVERIFY(session.documentText() != original);
        while (editor->canUndo()) {
            editor->undo();
        }
        QCOMPARE(session.documentText(), original);
        QVERIFY(!session.unsavedChanges());
        editor->redo();
        QVERIFY(session.unsavedChanges());
        QVERIFY(session.cell(QStringLiteral("attention1")));
    }

    void aFailedSaveLeavesTheDocumentUnsaved() {
        const QString path = windowLesson();
        const QByteArray before = readAll(path);
        LessonSession session;
        prepare(session);
        QVERIFY(session.open(path));
        QCOMPARE(session.editor()->insertBelow(0, QStringLiteral("prose")), QString());
        for (const QString& target :
             {dir_.filePath(QStringLiteral("missing/folder/x.md")), QStringLiteral("/sys/x.md")}) {
            QVERIFY(!session.saver()->saveAs(target));
            QVERIFY2(session.saver()->error().contains(target),
                     qPrintable(session.saver()->error()));
            QVERIFY(session.unsavedChanges());
            QCOMPARE(session.filePath(), path);
            QVERIFY(!QFile::exists(target));
        }
        QCOMPARE(readAll(path), before);
        // A folder that cannot be written: the lesson file itself stays as it was.
        QFile::setPermissions(dir_.path(), QFileDevice::ReadOwner | QFileDevice::ExeOwner);
        const bool saved = session.saver()->save();
        QFile::setPermissions(dir_.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                               QFileDevice::ExeOwner);
        if (!saved) { // root writes anyway
            QVERIFY(!session.saver()->error().isEmpty());
            QVERIFY(session.unsavedChanges());
            QCOMPARE(readAll(path), before);
        }
    }

    void recoveryIsOfferedAfterACrash() {
        const QString path = windowLesson();
        const QByteArray before = readAll(path);
        QString edited;
        {
            LessonSession session;
            prepare(session);
            QVERIFY(session.open(path));
            QCOMPARE(session.editor()->insertBelow(0, QStringLiteral("quiz")), QString());
            edited = session.documentText();
            session.saver()->autosave();
        } // a crash: never saved
        QCOMPARE(readAll(path), before);
        {
            LessonSession session;
            prepare(session);
            QVERIFY(session.open(path));
            QVERIFY(session.saver()->recoveryAvailable());
            session.saver()->restoreRecovery();
            QCOMPARE(session.documentText(), edited);
            QVERIFY(session.unsavedChanges());
            QVERIFY(session.editor()->canUndo());
            QVERIFY(session.saver()->save());
        }
        LessonSession again;
        prepare(again);
        QVERIFY(again.open(path));
        QVERIFY(!again.saver()->recoveryAvailable()); // saving discarded the copy
        // Discard drops it too.
        QCOMPARE(again.editor()->insertBelow(0, QStringLiteral("prose")), QString());
        again.saver()->autosave();
        LessonSession third;
        prepare(third);
        QVERIFY(third.open(path));
        QVERIFY(third.saver()->recoveryAvailable());
        third.saver()->discardRecovery();
        LessonSession fourth;
        prepare(fourth);
        QVERIFY(fourth.open(path));
        QVERIFY(!fourth.saver()->recoveryAvailable());
    }

    // An edit's copy was kept after Undo took the lesson back to its saved text, so the next
    // open offered to "restore" an edit the author had undone (and test_readingMode, pressing
    // Space on that offer, restored it into the fixture).
    void undoingBackToTheSavedTextDropsTheRecoveryCopy() {
        const QString path = windowLesson();
        const QByteArray before = readAll(path);
        {
            LessonSession session;
            prepare(session);
            QVERIFY(session.open(path));
            QCOMPARE(session.editor()->insertBelow(0, QStringLiteral("quiz")), QString());
            session.saver()->autosave();
            LessonSession meanwhile;
            prepare(meanwhile);
            QVERIFY(meanwhile.open(path));
            QVERIFY(meanwhile.saver()->recoveryAvailable()); // the copy is there
            QVERIFY(session.editor()->canUndo());
            session.editor()->undo();
            QVERIFY(!session.unsavedChanges());
        }
        QCOMPARE(readAll(path), before);
        LessonSession again;
        prepare(again);
        QVERIFY(again.open(path));
        QVERIFY(!again.saver()->recoveryAvailable());
    }

    // The recovery copy came 30 s after an edit, so a window killed 5 s after Keep
    // lost it. It is written within seconds, by the timer alone.
    void theRecoveryCopyIsWrittenWithinSeconds() {
        const QString path = windowLesson();
        QString edited;
        {
            LessonSession session;
            prepare(session);
            QVERIFY(session.open(path));
            QCOMPARE(session.editor()->insertBelow(0, QStringLiteral("quiz")), QString());
            edited = session.documentText();
            QTest::qWait(DocumentSaver::kAutosaveMs + 1000); // then a crash: never saved
        }
        LessonSession after;
        prepare(after);
        QVERIFY(after.open(path));
        QVERIFY(after.saver()->recoveryAvailable());
        after.saver()->restoreRecovery();
        QCOMPARE(after.documentText(), edited);
        after.saver()->discardRecovery();
    }

    // A copy was offered only when that same file was opened again; a window opened
    // on another lesson (or on none) now offers to open the lesson with unsaved edits.
    void anotherLessonsRecoveryCopyIsOffered() {
        const QString path = windowLesson();
        const QString other = copyOf(QStringLiteral(ATTNBOOK_SOURCE_DIR "/documents/guide.md"));
        {
            LessonSession session;
            prepare(session);
            QVERIFY(session.open(path));
            QCOMPARE(session.editor()->insertBelow(0, QStringLiteral("quiz")), QString());
            session.saver()->autosave();
        } // a crash: never saved
        LessonSession elsewhere;
        prepare(elsewhere);
        QVERIFY(elsewhere.open(other));
        QVERIFY(!elsewhere.saver()->recoveryAvailable()); // nothing of its own
        QCOMPARE(elsewhere.saver()->otherRecoveries(),
                 QStringList{QFileInfo(path).absoluteFilePath()});
        // Opening it there offers the restore, and no longer as another lesson's.
        QVERIFY(elsewhere.open(path));
        QVERIFY(elsewhere.saver()->recoveryAvailable());
        QVERIFY(elsewhere.saver()->otherRecoveries().isEmpty());
        // Not now: not offered again in this session; the copy is kept.
        QVERIFY(elsewhere.open(other));
        QCOMPARE(elsewhere.saver()->otherRecoveries().size(), 1);
        elsewhere.saver()->dismissOtherRecoveries();
        QVERIFY(elsewhere.saver()->otherRecoveries().isEmpty());
        QVERIFY(elsewhere.open(other));
        QVERIFY(elsewhere.saver()->otherRecoveries().isEmpty());
        // A copy equal to the file (saved since elsewhere), or of a lesson that is gone, is not
        // offered; Discard drops the copy and its path.
        LessonSession owner;
        prepare(owner);
        QVERIFY(owner.open(path));
        owner.saver()->discardRecovery();
        LessonSession fresh;
        prepare(fresh);
        QVERIFY(fresh.open(other));
        QVERIFY(fresh.saver()->otherRecoveries().isEmpty());
        QVERIFY(QDir(recoveryDir_.path()).entryList(QDir::Files).isEmpty());
    }

    void changedOnDiskIsOfferedAndNeverOverwrittenSilently() {
        const QString path = windowLesson();
        LessonSession session;
        prepare(session);
        QVERIFY(session.open(path));
        QCOMPARE(session.editor()->insertBelow(0, QStringLiteral("prose")), QString());
        QFile other(path);
        QVERIFY(other.open(QIODevice::Append));
        other.write("\nAnother program wrote this.\n");
        other.close();
        const QByteArray theirs = readAll(path);
        QTRY_VERIFY(session.saver()->changedOnDisk());
        // Saving refuses to overwrite the other program's version unasked.
        QVERIFY(!session.saver()->save());
        QCOMPARE(readAll(path), theirs);
        QVERIFY(session.unsavedChanges());
        // Keep mine: the next save overwrites.
        session.saver()->keepMine();
        QVERIFY(session.saver()->save());
        QCOMPARE(readAll(path), session.documentText().toUtf8());
        // Reload reads the other program's version.
        QVERIFY(other.open(QIODevice::Append));
        other.write("\nAgain.\n");
        other.close();
        QTRY_VERIFY(session.saver()->changedOnDisk());
        session.saver()->reload();
        QCOMPARE(session.documentText().toUtf8(), readAll(path));
        QVERIFY(!session.unsavedChanges());
        QVERIFY(!session.saver()->changedOnDisk());
    }

    void renameCarriesBindings() {
        LessonSession session;
        prepare(session);
        QVERIFY(session.open(windowLesson()));
        QCOMPARE(session.editor()->rename(QStringLiteral("colour"), QStringLiteral("hue")),
                 QString());
        const QString text = session.documentText();
        QVERIFY(text.contains(QStringLiteral("{{hue.head[0].weights[0][1]:4}}")));
        QVERIFY(!text.contains(QStringLiteral("{{colour.head")));
        QCOMPARE(session.problems()->errorCount(), 0);
        QVERIFY(session.cells()->row(0).markdown.contains(QStringLiteral("0.2327")));
    }

    void cellSourceErrorsAtTheirLine() {
        LessonSession session;
        prepare(session);
        QVERIFY(session.open(windowLesson()));
        DocumentEditor* editor = session.editor();
        QCOMPARE(editor->checkCellSource(QStringLiteral("colour"),
                                         editor->cellSource(QStringLiteral("colour"))),
                 QString());
        const QString broken = QStringLiteral("tokens: [red, blue\nheads: 1\n");
        const QString message = editor->checkCellSource(QStringLiteral("colour"), broken);
        QVERIFY2(message.startsWith(QStringLiteral("window.md:1")), qPrintable(message));
        const int line = editor->checkCellSourceLine(QStringLiteral("colour"), broken);
        QVERIFY(line >= 0);
        // The editor's gutter numbers the body's lines as the file does: the line it marks is
        // the line the message names.
        const QString fileLine = message.section(u':', 1, 1);
        QCOMPARE(QString::number(editor->cellBodyFirstLine(QStringLiteral("colour")) + line),
                 fileLine);
    }

    void newLessonPassesTheCheck() {
        LessonSession session;
        prepare(session);
        session.newLesson();
        QVERIFY(!session.hasFile());
        QVERIFY(!session.unsavedChanges());
        QCOMPARE(session.problems()->count(), 0);
        QVERIFY(!session.saver()->save()); // no file yet: the window asks where
        QCOMPARE(session.editor()->insertBelow(session.cells()->count() - 1,
                                               QStringLiteral("attention")),
                 QString());
        QCOMPARE(
            session.editor()->insertBelow(session.cells()->count() - 1, QStringLiteral("quiz")),
            QString());
        QCOMPARE(session.problems()->count(), 0);
        const QString target = dir_.filePath(QStringLiteral("new.md"));
        QVERIFY(session.saver()->saveAs(target));
        QCOMPARE(session.filePath(), target);
        QVERIFY(!session.unsavedChanges());
        const Lesson lesson = parseLesson(readAll(target).toStdString(), "new.md");
        AttentionEngine engine;
        const LessonResults results = computeLesson(lesson, engine);
        QVERIFY(!hasErrors(lesson.diagnostics));
        QVERIFY(!hasErrors(results.diagnostics));
        QVERIFY(checkLesson(lesson, results).empty());
    }

    // Saving a lesson that now fails check said nothing, though every export
    // of it would be refused. The save goes through, and says what is wrong.
    void savingALessonThatFailsCheckSaysSo() {
        LessonSession session;
        prepare(session);
        QVERIFY(session.open(windowLesson()));
        QVERIFY(session.saver()->save());
        QCOMPARE(session.saver()->savedWithErrors(), QString());
        const std::string bytes = session.working().serialize();
        session.editor()->replaceAll(QStringLiteral("A binding to a cell that is gone"),
                                     bytes + "\nRed gives {{gone.output[0][0]}}.\n");
        QVERIFY(session.problems()->errorCount() > 0);
        QVERIFY(session.saver()->save());
        const QString warning = session.saver()->savedWithErrors();
        QVERIFY2(warning.startsWith(QStringLiteral("Saved, but the lesson no longer passes check: "
                                                   "window.md:")),
                 qPrintable(warning));
        QVERIFY2(warning.contains(QStringLiteral("gone")), qPrintable(warning));
        QVERIFY(warning.contains(QStringLiteral("export")));
        session.editor()->replaceAll(QStringLiteral("Fixed"), bytes);
        QVERIFY(session.saver()->save());
        QCOMPARE(session.saver()->savedWithErrors(), QString());
    }

    void bindingPathsListTheResults() {
        LessonSession session;
        prepare(session);
        QVERIFY(session.open(windowLesson()));
        const QStringList paths = session.editor()->bindingPaths(QStringLiteral("weights[0]"));
        QVERIFY(paths.contains(QStringLiteral("colour.head[0].weights[0][1]")));
        // Case ignored, as the author types it.
        QCOMPARE(session.editor()->bindingPaths(QStringLiteral("WEIGHTS[0]")), paths);
    }
};

QTEST_MAIN(TestWindowAuthoring)
#include "test_window_authoring.moc"
