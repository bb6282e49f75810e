// A hostile round, replayed: every defect it found, as the user met it, through
// the real `attnbook` process. Each test failed on the main of that day.
#include "tests/test_files.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <unistd.h>

namespace {

struct Run {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    qint64 ms = 0;
};

// Runs attnbook with no display and a settings folder of its own (HOME and XDG_CONFIG_HOME in
// `home`), so that nothing here touches the user's recent files.
Run attnbook(const QStringList& arguments, const QString& home = {},
             const QString& stdoutFile = {}) {
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(QStringLiteral("DISPLAY"));
    environment.remove(QStringLiteral("WAYLAND_DISPLAY"));
    environment.remove(QStringLiteral("QT_QPA_PLATFORM"));
    environment.remove(QStringLiteral("XDG_RUNTIME_DIR"));
    if (!home.isEmpty()) {
        environment.insert(QStringLiteral("HOME"), home);
        environment.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/.config"));
    }
    process.setProcessEnvironment(environment);
    if (!stdoutFile.isEmpty()) {
        process.setStandardOutputFile(stdoutFile);
    }
    QElapsedTimer timer;
    timer.start();
    process.start(QStringLiteral(ATTNBOOK_EXECUTABLE), arguments);
    if (!process.waitForFinished(60000)) {
        process.kill();
        process.waitForFinished();
        return {-2, {}, "timed out", timer.elapsed()};
    }
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
            process.readAllStandardOutput(), process.readAllStandardError(), timer.elapsed()};
}

const char* kLesson = "# Small\n\n```attention colour\ntokens: [red, blue, red]\nvocab:\n"
                      "  red: [1, 0, 0, 0]\n  blue: [0, 1, 0, 0]\n```\n\n"
                      "```quiz q\nquestion: Which?\nchoices: [a, b]\nanswer: 0\n```\n";

bool isRegular(const QString& path) {
    struct stat info {};
    return ::lstat(QFile::encodeName(path).constData(), &info) == 0 && S_ISREG(info.st_mode);
}

bool isFifo(const QString& path) {
    struct stat info {};
    return ::lstat(QFile::encodeName(path).constData(), &info) == 0 && S_ISFIFO(info.st_mode);
}

} // namespace

class TestHostile : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    QString write(const QString& name, const QByteArray& bytes) {
        QFile f(dir_.filePath(name));
        f.open(QIODevice::WriteOnly);
        f.write(bytes);
        return f.fileName();
    }
    QString fifo(const QString& name) {
        const QString path = dir_.filePath(name);
        QFile::remove(path);
        ::mkfifo(QFile::encodeName(path).constData(), 0600);
        return path;
    }
    QString link(const QString& name, const QString& target) {
        const QString path = dir_.filePath(name);
        QFile::remove(path);
        QFile::link(target, path);
        return path;
    }

  private Q_SLOTS:
    // Defect 1: shot renamed its PNG over whatever --out named.
    void shotNeverReplacesADeviceAFifoOrItsLesson() {
        const QString lesson = write("shot.md", kLesson);
        const QString pipe = fifo("shot.fifo");
        const Run overPipe = attnbook({"shot", lesson, "--out", pipe});
        QCOMPARE(overPipe.exitCode, 1);
        QVERIFY2(overPipe.err.contains("FIFO"), overPipe.err.constData());
        QVERIFY(isFifo(pipe));

        const Run overLesson = attnbook({"shot", lesson, "--out", lesson});
        QCOMPARE(overLesson.exitCode, 1);
        QVERIFY2(overLesson.err.contains("name the same file"), overLesson.err.constData());
        QCOMPARE(readAll(lesson), QByteArray(kLesson));

        const QString toLesson = link("page.png", lesson);
        const Run throughLink = attnbook({"shot", lesson, "--out", toLesson});
        QCOMPARE(throughLink.exitCode, 1);
        QCOMPARE(readAll(lesson), QByteArray(kLesson));
        QVERIFY(QFileInfo(toLesson).isSymLink());

        if (::geteuid() == 0) { // a device node of our own: the test never risks /dev/null
            const QString device = dir_.filePath("null");
            QVERIFY(::mknod(QFile::encodeName(device).constData(), S_IFCHR | 0666, makedev(1, 3)) ==
                    0);
            const Run overDevice = attnbook({"shot", lesson, "--out", device});
            QCOMPARE(overDevice.exitCode, 1);
            QVERIFY2(overDevice.err.contains("device"), overDevice.err.constData());
            struct stat info {};
            QVERIFY(::lstat(QFile::encodeName(device).constData(), &info) == 0);
            QVERIFY(S_ISCHR(info.st_mode));
        }
    }

    // Defect 2: an output that is a link to the lesson, or to another output; the roster CSV
    // derived from the worksheet's name.
    void exportComparesResolvedOutputsAndDerivedNames() {
        const QString lesson = write("lesson.md", kLesson);
        const QString toLesson = link("out.pdf", lesson);
        const Run pdf = attnbook({"export", lesson, "--pdf", toLesson});
        QVERIFY(pdf.exitCode != 0);
        QVERIFY2(pdf.err.contains("name the same file"), pdf.err.constData());
        QCOMPARE(readAll(lesson), QByteArray(kLesson));

        const QString sheet = write("sheet.pdf", "the old worksheet");
        const QString toSheet = link("key.pdf", sheet);
        const Run key = attnbook({"export", lesson, "--worksheet", sheet, "--answers", toSheet});
        QVERIFY(key.exitCode != 0);
        QVERIFY2(key.err.contains("name the same file"), key.err.constData());
        QCOMPARE(readAll(sheet), QByteArray("the old worksheet"));

        // A lesson named like the roster CSV the worksheet would write beside it.
        const QString names = write("names.txt", "Ada\nGrace\n");
        const QString rosterLesson = write("ws-roster.csv", kLesson);
        const Run roster = attnbook(
            {"export", rosterLesson, "--worksheet", dir_.filePath("ws.pdf"), "--roster", names});
        QVERIFY(roster.exitCode != 0);
        QVERIFY2(roster.err.contains("name the same file"), roster.err.constData());
        QCOMPARE(readAll(rosterLesson), QByteArray(kLesson));
        // ... and an answer key of that name.
        const Run keyNamed =
            attnbook({"export", lesson, "--worksheet", dir_.filePath("ws.pdf"), "--answers",
                      dir_.filePath("ws-roster.csv"), "--roster", names});
        QVERIFY(keyNamed.exitCode != 0);
        QCOMPARE(readAll(rosterLesson), QByteArray(kLesson));
        QVERIFY(!QFileInfo::exists(dir_.filePath("ws.pdf")));

        // A FIFO or a folder as an output: exit 1 with the reason, nothing written.
        const Run overPipe = attnbook({"export", lesson, "--pdf", fifo("out.fifo")});
        QCOMPARE(overPipe.exitCode, 1);
        QVERIFY2(overPipe.err.contains("FIFO"), overPipe.err.constData());
    }

    // Defect 6: a FIFO as FILE or as --roster is refused at once, never waited on.
    void fifoInputsAreRefusedAtOnce() {
        const QString lesson = write("fifo-in.md", kLesson);
        for (const QString& name : {QStringLiteral("in.md"), QStringLiteral("in.zip")}) {
            const Run run = attnbook({"check", fifo(name)});
            QCOMPARE(run.exitCode, 3);
            QVERIFY2(run.err.contains("not a regular file"), run.err.constData());
        }
        const Run roster = attnbook({"export", lesson, "--worksheet", dir_.filePath("r.pdf"),
                                     "--roster", fifo("names.fifo")});
        QCOMPARE(roster.exitCode, 2);
        QVERIFY2(roster.err.contains("not a regular file"), roster.err.constData());
        QVERIFY(roster.ms < 20000);
    }

    // Defect 10: edit in place keeps the mode (and, as root, the owner) of the file; --out
    // refuses a FIFO at once; new never writes through a dangling link.
    void editKeepsOwnerGroupAndMode() {
        const QString lesson = write("kept.md", kLesson);
        QVERIFY(::chmod(QFile::encodeName(lesson).constData(), 0640) == 0);
        const bool root = ::geteuid() == 0;
        if (root) {
            QVERIFY(::chown(QFile::encodeName(lesson).constData(), 65534, 65534) == 0);
        }
        const Run run = attnbook({"edit", lesson, "--set", "colour.heads=2"});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(readAll(lesson).contains("heads: 2"));
        struct stat info {};
        QVERIFY(::stat(QFile::encodeName(lesson).constData(), &info) == 0);
        QCOMPARE(int(info.st_mode & 07777), 0640);
        if (root) {
            QCOMPARE(int(info.st_uid), 65534);
            QCOMPARE(int(info.st_gid), 65534);
        }
        const Run overPipe = attnbook({"edit", lesson, "--out", fifo("edit.fifo")});
        QCOMPARE(overPipe.exitCode, 1);
        QVERIFY(isFifo(dir_.filePath("edit.fifo")));

        const QString dangling = link("dangling.md", dir_.filePath("elsewhere.md"));
        const Run fresh = attnbook({"new", dangling});
        QCOMPARE(fresh.exitCode, 1);
        QVERIFY(!QFileInfo::exists(dir_.filePath("elsewhere.md")));
    }

    // Defects 5 and 7: the limits of the cost model are flags of check and compute.
    void costLimitsAreFlags() {
        const QString lesson = write("limits.md", kLesson);
        const Run tight = attnbook({"compute", lesson, "--max-json", "1K"});
        QCOMPARE(tight.exitCode, 3);
        QVERIFY2(tight.err.contains("limits.md:3:1: error: cell 'colour' is too costly to "
                                    "compute: about "),
                 tight.err.constData());
        QVERIFY2(tight.err.contains("--max-json"), tight.err.constData());
        QCOMPARE(attnbook({"check", lesson, "--max-memory", "64M", "--max-work", "1e9"}).exitCode,
                 0);
        const Run bad = attnbook({"check", lesson, "--max-work", "lots"});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("--max-work takes a positive number"), bad.err.constData());
    }

    // Defect 10: a failed write to stdout is a failed output.
    void checkIntoAFullDiskFails() {
        if (!QFileInfo::exists("/dev/full")) {
            QSKIP("no /dev/full here");
        }
        const QString lesson = write("full.md", kLesson);
        const Run run = attnbook({"check", lesson}, {}, QStringLiteral("/dev/full"));
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("standard output"), run.err.constData());
    }

    // Defect 10: export says nothing on stderr when it succeeds (no QStandardPaths warning).
    void exportIsQuietWithoutARuntimeFolder() {
        const QString lesson = write("quiet.md", kLesson);
        const Run run = attnbook({"export", lesson, "--pdf", dir_.filePath("quiet.pdf")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.err.isEmpty(), run.err.constData());
    }

    // shot once replaced the lesson's data files (its matrix, its vocab labels,
    // or a link to either) with a PNG and exited 0; export and edit refused the same names.
    void shotNeverReplacesTheLessonsDataFiles() {
        const QByteArray embedding = "1,0,0,0\n0,1,0,0\n";
        const QByteArray labels = "red\nblue\n";
        const QString lesson = write("data.md", "# Data\n\n```attention colour\n"
                                                "tokens: [red, blue, red]\n"
                                                "vocab: {file: emb.csv, labels: words.txt}\n```\n");
        const QString matrix = write("emb.csv", embedding);
        const QString words = write("words.txt", labels);
        const QString toMatrix = link("figure.png", matrix);
        for (const QString& target : {matrix, words, toMatrix}) {
            const Run run = attnbook({"shot", lesson, "--out", target});
            QCOMPARE(run.exitCode, 1);
            QVERIFY2(run.err.contains("name the same file"), run.err.constData());
        }
        QCOMPARE(readAll(matrix), embedding);
        QCOMPARE(readAll(words), labels);
        QVERIFY(QFileInfo(toMatrix).isSymLink());
    }

    // Costs that grew faster than the lesson. Each took from 15 s to
    // over 100 s before; each now takes a few seconds (the bound leaves room for a busy CI).
    void largeTablesBindingsClaimsAndProseStayFast() {
        const QString home = dir_.filePath("home-costs");
        QByteArray table = "# Table\n\n|";
        for (int c = 0; c < 50; ++c) {
            table += " c" + QByteArray::number(c) + " |";
        }
        table += "\n|" + QByteArray("---|").repeated(50) + "\n";
        for (int r = 0; r < 250; ++r) {
            table += "|" + QByteArray(" v |").repeated(50) + "\n";
        }
        const QByteArray cell = "```attention a\ntokens: [red, blue, red]\nvocab:\n"
                                "  red: [1, 0, 0, 0]\n  blue: [0, 1, 0, 0]\n```\n\n";
        const QByteArray paragraph =
            QByteArray("Attention lets each token gather information from the others. ")
                .repeated(12) +
            "\n\n";
        QByteArray seriesLines;
        for (int i = 0; i < 4000; ++i) {
            seriesLines += "  - {label: s" + QByteArray::number(i) + ", y: \"n^2/" +
                           QByteArray::number(i + 1) + " + n\"}\n";
        }
        const struct {
            const char* name;
            QByteArray lesson;
            QStringList command;
            qint64 beforeMs;
        } cases[] = {
            {"table.md", table, {"export", "--pdf", "table.pdf"}, 100000}, // 50 × 250 cells
            {"bindings.md",
             "# B\n\n" + cell + QByteArray("{{a.d_k}} ").repeated(300000) + "\n",
             {"check"},
             46000},
            {"claims.md",
             "# C\n\n" + cell + QByteArray("{{? a.d_k > 1}} ").repeated(100000) + "\n",
             {"check"},
             15000},
            {"prose.md",
             "# P\n\n" + paragraph.repeated((4 << 20) / paragraph.size()),
             {"export", "--pdf", "prose.pdf"},
             124000}, // 4 MiB of prose
            // sum(n, n, …) with 5,000 terms, and a chart of 144 KB (4,000 series)
            {"sum.md",
             "# S\n\n```chart c\nx: {var: n, from: 1, to: 4}\nseries:\n  - {label: a, y: \"sum(" +
                 QByteArray("n, ").repeated(4999) + "n)\"}\n```\n",
             {"compute"},
             54000},
            {"series.md",
             "# S\n\n```chart c\nx: {var: n, from: 1, to: 4, points: 64}\nseries:\n" + seriesLines +
                 "```\n",
             {"check"},
             31000},
        };
        for (const auto& c : cases) {
            const QString lesson = write(QString::fromLatin1(c.name), c.lesson);
            QStringList arguments{c.command.first(), lesson};
            for (qsizetype i = 1; i < c.command.size(); ++i) {
                arguments << (c.command[i].endsWith(".pdf") ? dir_.filePath(c.command[i])
                                                            : c.command[i]);
            }
            const Run run = attnbook(arguments, home);
            qInfo("%s: %s in %lld ms (before: %lld ms)", c.name, qPrintable(c.command.first()),
                  run.ms, c.beforeMs);
            QVERIFY2(run.exitCode == 0, run.err.left(500).constData());
            QVERIFY2(run.ms < 20000, c.name);
        }
    }

    // Defect 10: shot never adds its FILE to the window's Open Recent.
    void shotLeavesRecentFilesAlone() {
        QTemporaryDir home;
        const QString lesson = write("recent.md", kLesson);
        const Run run =
            attnbook({"shot", lesson, "--out", dir_.filePath("recent.png")}, home.path());
        QCOMPARE(run.exitCode, 0);
        QVERIFY(isRegular(dir_.filePath("recent.png")));
        QDirIterator it(home.path(), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString settings = it.next();
            QVERIFY2(!readAll(settings).contains("recent.md"), qPrintable(settings));
        }
    }
};

QTEST_GUILESS_MAIN(TestHostile)
#include "test_hostile.moc"
