// The output policy (files/output_policy.h) and the input rules (docs/command-line.md): outputs
// resolved and compared by the file they are, only regular files written, owner and mode kept;
// inputs that are FIFOs refused at once; a bundle's lesson under the lesson limit.
#include "tests/test_files.h"

#include "exports/bundle/bundle_writer.h"
#include "exports/worksheet/worksheet_pdf.h"
#include "files/bundle_reader.h"
#include "files/output_policy.h"

#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace attnbook;

namespace {

QString write(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    f.write(bytes);
    return path;
}

QString makeFifo(const QString& path) {
    ::mkfifo(QFile::encodeName(path).constData(), 0600);
    return path;
}

} // namespace

class TestOutputPolicy : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    QString at(const QString& name) const { return dir_.filePath(name); }

  private Q_SLOTS:
    void linksResolveToTheFileTheyName() {
        const QString lesson = write(at("lesson.md"), "lesson");
        QFile::link(lesson, at("a.pdf"));
        QFile::link(at("a.pdf"), at("b.pdf")); // a chain
        QCOMPARE(resolvedOutputPath(at("b.pdf")), QFileInfo(lesson).canonicalFilePath());
        // A dangling link names its target: that is what QSaveFile would create.
        QFile::link("new.pdf", at("dangling.pdf"));
        QCOMPARE(resolvedOutputPath(at("dangling.pdf")),
                 QFileInfo(dir_.path()).canonicalFilePath() + "/new.pdf");
        // A loop resolves to nothing, and is refused.
        QFile::link(at("loop1"), at("loop2"));
        QFile::link(at("loop2"), at("loop1"));
        QVERIFY(resolvedOutputPath(at("loop1")).isEmpty());
        QVERIFY(outputProblem(at("loop1")).contains("loops"));
    }

    void clashesAreFoundThroughLinksAndHardLinks() {
        const QString lesson = write(at("clash.md"), "lesson");
        QFile::link(lesson, at("clash.pdf"));
        QVERIFY(outputsClash({at("clash.pdf")}, {lesson}).contains("name the same file"));
        QVERIFY(::link(QFile::encodeName(lesson).constData(),
                       QFile::encodeName(at("hard.pdf")).constData()) == 0);
        QVERIFY(outputsClash({at("hard.pdf")}, {lesson}).contains("name the same file"));
        // A folder reached through a link: two spellings of one new name.
        QDir(dir_.path()).mkdir("real");
        QFile::link(at("real"), at("alias"));
        QVERIFY(!outputsClash({at("real/x.pdf"), at("alias/x.pdf")}, {}).isEmpty());
        QVERIFY(outputsClash({at("real/x.pdf"), at("real/y.pdf")}, {lesson}).isEmpty());
        // Empty names and Qt resources among the inputs are no files.
        QVERIFY(outputsClash({at("z.pdf")}, {QString(), ":/documents/attention.md"}).isEmpty());
    }

    void onlyRegularFilesAndNewNamesAreWritten() {
        QVERIFY(outputProblem(makeFifo(at("pipe"))).contains("FIFO"));
        QVERIFY(outputProblem(dir_.path()).contains("it is a folder"));
        QVERIFY(outputProblem("/dev/null").contains("device"));
        QFile::link(at("pipe"), at("to-pipe.png"));
        QVERIFY(outputProblem(at("to-pipe.png")).contains("FIFO"));
        QVERIFY(outputProblem(at("missing/x.png")).contains("does not exist"));
        QVERIFY(outputProblem(at("new.png")).isEmpty());
        QString error;
        QVERIFY(!writeOutputFile(at("to-pipe.png"), "png", &error));
        QVERIFY(error.startsWith(at("to-pipe.png") + ": cannot write: "));
        struct stat info {};
        QVERIFY(::lstat(QFile::encodeName(at("pipe")).constData(), &info) == 0);
        QVERIFY(S_ISFIFO(info.st_mode));
    }

    void aReplacedFileKeepsItsModeAndTheLinkStays() {
        const QString target = write(at("kept.md"), "old");
        QVERIFY(::chmod(QFile::encodeName(target).constData(), 0604) == 0);
        QFile::link(target, at("kept-link.md"));
        QString error;
        QVERIFY2(writeOutputFile(at("kept-link.md"), "new", &error), qPrintable(error));
        QCOMPARE(readAll(target), QByteArray("new"));
        QVERIFY(QFileInfo(at("kept-link.md")).isSymLink());
        struct stat info {};
        QVERIFY(::stat(QFile::encodeName(target).constData(), &info) == 0);
        QCOMPARE(int(info.st_mode & 07777), 0604);
        // Nothing but the file itself is left in the folder.
        const QStringList left = QDir(dir_.path()).entryList({"kept*"}, QDir::Files | QDir::System);
        QCOMPARE(left, QStringList({"kept-link.md", "kept.md"}));
        // Hard links: the others keep the old bytes, and the writer says so.
        QVERIFY(::link(QFile::encodeName(target).constData(),
                       QFile::encodeName(at("kept-hard.md")).constData()) == 0);
        QString warning;
        QVERIFY(writeOutputFile(target, "newer", &error, &warning));
        QVERIFY2(warning.contains("hard link"), qPrintable(warning));
    }

    // Inputs: a FIFO given as a roster is refused at once, never waited on.
    void aFifoRosterIsRefusedAtOnce() {
        QElapsedTimer timer;
        timer.start();
        QString error;
        QVERIFY(!readRoster(makeFifo(at("roster.fifo")), &error));
        QVERIFY2(error.contains("not a regular file"), qPrintable(error));
        QVERIFY(timer.elapsed() < 5000);
    }

    // Inputs: the lesson inside a bundle has the limit of a lesson file (16 MiB).
    void aBundlesLessonHasTheLessonLimit() {
        // Text that deflate cannot squeeze past the ratio cap: random letters.
        QByteArray lesson(17 << 20, 'a');
        auto* random = QRandomGenerator::global();
        for (char& c : lesson) {
            c = char('a' + random->bounded(26));
        }
        BundleMetadata metadata;
        metadata.title = "big";
        metadata.appVersion = "test";
        QString error;
        QVERIFY2(writeBundle(at("big.zip"), metadata, {{"lesson.md", lesson}}, &error),
                 qPrintable(error));
        QVERIFY(!readBundle(at("big.zip"), &error));
        QVERIFY2(error.contains("for a lesson"), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestOutputPolicy)
#include "test_output_policy.moc"
