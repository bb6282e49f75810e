// Authoring never loses work: atomic saves that fail cleanly, one undo
// history back to the exact bytes, recovery after a crash, files changed
// on disk, renames that carry bindings along (reliability.md §12–14).
#include "tests/test_files.h"

#include "app/window/edit_history.h"
#include "core/document/cell_editor.h"
#include "core/document/cell_rename.h"
#include "core/document/lesson.h"
#include "files/lesson_file.h"
#include "files/recovery_store.h"

#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <random>
#include <sys/resource.h>

using namespace attnbook;

namespace {

QByteArray shippedLesson() {
    return readAll(QStringLiteral(ATTNBOOK_SOURCE_DIR "/documents/attention.md"));
}

} // namespace

class TestAuthoring : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

  private Q_SLOTS:
    void openAndSaveWithoutEditsIsByteIdentical() {
        const QString path = dir_.filePath("lesson.md");
        QVERIFY(writeAll(path, shippedLesson()));
        LessonFile file;
        QString error;
        QVERIFY(file.open(path, &error));
        const Lesson lesson = parseLesson(file.savedBytes().toStdString(), path.toStdString());
        QCOMPARE(file.save(QByteArray::fromStdString(lesson.document.serialize()), &error),
                 LessonFile::SaveResult::Saved);
        QCOMPARE(readAll(path), shippedLesson());
    }

    void aFailedSaveLeavesTheOriginalWhole() {
        const QString path = dir_.filePath("full-disk.md");
        const QByteArray original = "# Short\n";
        QVERIFY(writeAll(path, original));
        LessonFile file;
        QString error;
        QVERIFY(file.open(path, &error));
        // A full disk: the process may write no file over 1000 bytes.
        std::signal(SIGXFSZ, SIG_IGN);
        rlimit saved{};
        getrlimit(RLIMIT_FSIZE, &saved);
        rlimit tiny = saved;
        tiny.rlim_cur = 1000;
        setrlimit(RLIMIT_FSIZE, &tiny);
        const auto result = file.save(QByteArray(5000, 'y'), &error);
        setrlimit(RLIMIT_FSIZE, &saved);
        QCOMPARE(result, LessonFile::SaveResult::Failed);
        QVERIFY2(error.startsWith(path + ": cannot write: "), qPrintable(error));
        QCOMPARE(readAll(path), original);
        QCOMPARE(QDir(dir_.path()).entryList(QDir::Files | QDir::Hidden).filter("full-disk").size(),
                 1); // no temporary file left beside it
    }

    void saveAsIntoAnUnwritableFolderSaysWhy() {
        LessonFile file;
        file.adopt(QStringLiteral("attention.md"), shippedLesson());
        QString error;
        // sysfs refuses new files even to root: a read-only folder in CI too.
        QCOMPARE(file.saveAs(QStringLiteral("/sys/attnbook-lesson.md"), "# x\n", &error),
                 LessonFile::SaveResult::Failed);
        QVERIFY2(error.startsWith("/sys/attnbook-lesson.md: cannot write: "), qPrintable(error));
        QVERIFY(!file.hasFile());
        QCOMPARE(file.saveAs(dir_.filePath("missing/x.md"), "# x\n", &error),
                 LessonFile::SaveResult::Failed);
        QVERIFY2(error.contains("does not exist"), qPrintable(error));
    }

    void undoAfterAnySequenceReturnsTheExactBytes() {
        const std::string original = shippedLesson().toStdString();
        std::string current = original;
        EditHistory history([&](const std::string& bytes) { current = bytes; });
        const Lesson lesson = parseLesson(original, "attention.md");
        std::vector<std::string> ids;
        for (const LessonCell& cell : lesson.cells) {
            if (cell.attention()) {
                ids.push_back(cell.id);
            }
        }
        QVERIFY(ids.size() >= 3);
        std::mt19937 random(7);
        const std::vector<std::pair<std::string, std::string>> edits = {
            {"heads", "2"},
            {"mask", "causal"},
            {"positional", "sinusoidal"},
            {"tokens", "[blue, red, red]"},
            {"scale", "false"},
            {"focus", "2"}};
        for (int step = 0; step < 40; ++step) {
            Document doc = parseLesson(current, "attention.md").document;
            const std::string& id = ids[random() % ids.size()];
            const auto& [key, value] = edits[random() % edits.size()];
            QVERIFY(!setCellKey(doc, id, key, value));
            const std::string before = current;
            current = doc.serialize();
            history.record(QString::fromStdString("Set " + id + "." + key), before, current);
            QCOMPARE(history.isDirty(), current != original);
        }
        QVERIFY(history.stack().undoText().startsWith("Set "));
        while (history.stack().canUndo()) {
            history.stack().undo();
        }
        QCOMPARE(current, original);
        QVERIFY(!history.isDirty());
        while (history.stack().canRedo()) {
            history.stack().redo();
        }
        QVERIFY(current != original);
    }

    void recoveryCopyIsOfferedAfterACrash() {
        const QString folder = dir_.filePath("recovery");
        const QString lesson = dir_.filePath("crashy.md");
        QVERIFY(writeAll(lesson, "# On disk\n"));
        QProcess writer;
        writer.start(QStringLiteral(RECOVERY_WRITER), {folder, lesson});
        QVERIFY(writer.waitForReadyRead(30000));
        QCOMPARE(writer.readLine().trimmed(), QByteArray("ready"));
        QTest::qWait(150 + QRandomGenerator::global()->bounded(200)); // mid-write, most likely
        ::kill(pid_t(writer.processId()), SIGKILL);
        QVERIFY(writer.waitForFinished(10000));

        const RecoveryStore store(folder);
        const std::optional<QByteArray> recovered = store.find(lesson, readAll(lesson));
        QVERIFY(recovered.has_value());
        // Whole: one complete version, never empty or cut short.
        QVERIFY(recovered->startsWith("# version "));
        QVERIFY(recovered->endsWith("\nEND\n"));
        QCOMPARE(recovered->size(), recovered->indexOf('\n') + 1 + 300000 + 5);
        QCOMPARE(readAll(lesson), QByteArray("# On disk\n")); // the lesson is untouched
        // No temporary files pile up beside the copy... beyond the one being written.
        QVERIFY(QDir(folder).entryList(QDir::Files | QDir::Hidden).size() <= 2);
        store.discard(lesson);
        QVERIFY(!store.find(lesson, readAll(lesson)));
    }

    void aFileChangedOnDiskIsNoticedAgainAndAgain() {
        const QString path = dir_.filePath("watched.md");
        QVERIFY(writeAll(path, "# One\n"));
        LessonFile file;
        QString error;
        QVERIFY(file.open(path, &error));
        QSignalSpy changed(&file, &LessonFile::changedExternally);
        // Another editor's atomic save: write a new file, rename it over.
        QVERIFY(writeAll(path + ".tmp", "# Two\n"));
        QVERIFY(QFile::remove(path));
        QVERIFY(QFile::rename(path + ".tmp", path));
        QVERIFY(changed.wait(5000));
        QVERIFY(file.changedOnDisk());
        QCOMPARE(file.save("# Mine\n", &error), LessonFile::SaveResult::ChangedOnDisk);
        QCOMPARE(readAll(path), QByteArray("# Two\n"));
        QCOMPARE(file.save("# Mine\n", &error, true), LessonFile::SaveResult::Saved);
        QCOMPARE(readAll(path), QByteArray("# Mine\n"));
        // Watching goes on after the replacement.
        changed.clear();
        QVERIFY(writeAll(path, "# Three\n"));
        QVERIFY(changed.wait(5000));
    }

    void renamingACellCarriesItsBindings() {
        const std::string original = shippedLesson().toStdString();
        Lesson lesson = parseLesson(original, "attention.md");
        Document doc = lesson.document;
        QVERIFY(!renameCell(doc, "colour", "colours"));
        QVERIFY(renameCell(doc, "colours", "9bad").has_value());
        QVERIFY(renameCell(doc, "colours", "causal").has_value()); // taken
        const std::string renamed = doc.serialize();
        QVERIFY(renamed.find("{{colour.") == std::string::npos);
        QVERIFY(renamed.find("{{colours.") != std::string::npos);
        QVERIFY(renamed.find("```attention colours") != std::string::npos);
        const Lesson again = parseLesson(renamed, "attention.md");
        AttentionEngine engine;
        const LessonResults results = computeLesson(again, engine);
        QVERIFY(!hasErrors(again.diagnostics));
        QVERIFY(!hasErrors(results.diagnostics));
        QVERIFY(!hasErrors(checkLesson(again, results)));
    }
};

QTEST_GUILESS_MAIN(TestAuthoring)
#include "test_authoring.moc"
