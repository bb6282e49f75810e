// A lesson in the window reads its {file: PATH} values from its own source — the
// folder it was opened from, the bundle it came in, nothing for a new one — through every
// re-read: the YAML editor's check before Apply, the re-read after an edit, the export render,
// and Save As, which moves it to the new folder's files. Nothing of one lesson's source is
// left for the next lesson to find.
#include "tests/test_files.h"

#include "app/models/document_editor.h"
#include "app/models/document_saver.h"
#include "app/models/export_controller.h"
#include "app/models/lesson_session.h"
#include "app/models/problem_list_model.h"
#include "exports/export_request.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace attnbook;

namespace {

const QString kDocuments = QStringLiteral(ATTNBOOK_SOURCE_DIR "/documents");
const QStringList kRealHeadData = {"c_attn.npy", "emb.npy", "pos.npy", "vocab.txt", "w_o.csv"};
// The head cell's views, and an edit of them that leaves every binding resolving.
const QString kViews = QStringLiteral("views: [heatmap, shares, matrices]");
const QString kFewerViews = QStringLiteral("views: [heatmap, shares]");

// documents/real-head.md and its data files, copied into `folder` (the tests save over it).
bool copyRealHead(const QString& folder) {
    if (!QDir().mkpath(folder + QStringLiteral("/data/real-head"))) {
        return false;
    }
    for (const QString& name : kRealHeadData) {
        const QString from = kDocuments + QStringLiteral("/data/real-head/") + name;
        if (!QFile::copy(from, folder + QStringLiteral("/data/real-head/") + name)) {
            return false;
        }
    }
    return QFile::copy(kDocuments + QStringLiteral("/real-head.md"),
                       folder + QStringLiteral("/real-head.md"));
}

// Every problem the session lists, one per line.
QString problemText(const LessonSession& session) {
    QStringList lines;
    for (int i = 0; i < session.problems()->count(); ++i) {
        lines << session.problems()->problem(i).location + QStringLiteral(": ") +
                     session.problems()->problem(i).message;
    }
    return lines.join(u'\n');
}

// The head cell with fewer views, checked as the YAML editor checks before Apply.
QString checkFewerViews(const LessonSession& session) {
    QString body = session.editor()->cellSource(QStringLiteral("head"));
    body.replace(kViews, kFewerViews);
    return session.editor()->checkCellSource(QStringLiteral("head"), body);
}

QString applyFewerViews(LessonSession& session) {
    QString body = session.editor()->cellSource(QStringLiteral("head"));
    body.replace(kViews, kFewerViews);
    return session.editor()->setCellSource(QStringLiteral("head"), body);
}

bool render(ExportController& controller) {
    QSignalSpy finished(&controller, &ExportController::renderFinished);
    if (!controller.renderPreview() || !finished.wait(120000)) {
        qWarning() << "no render:" << controller.error();
        return false;
    }
    if (!finished.at(0).at(0).toBool()) {
        qWarning() << "render failed:" << controller.error();
    }
    return finished.at(0).at(0).toBool();
}

// The working directory, put back when this goes (a failed QVERIFY returns early).
class WorkingDirectory {
  public:
    WorkingDirectory() : before_(QDir::currentPath()) {}
    ~WorkingDirectory() { QDir::setCurrent(before_); }
    WorkingDirectory(const WorkingDirectory&) = delete;
    WorkingDirectory& operator=(const WorkingDirectory&) = delete;

  private:
    QString before_;
};

} // namespace

class TestLessonDataFiles : public QObject {
    Q_OBJECT

  private Q_SLOTS:
    // real-head.md opened by a relative path, then attnbook's working directory changes: its
    // data files are still those beside it — in the check before Apply, after the edit, in the
    // saved file opened again. (Its folder was kept as "copy/" and looked up against the
    // working directory at each read.)
    void realHeadOpenedFromAnotherWorkingDirectory() {
        const WorkingDirectory restore;
        QTemporaryDir root, elsewhere;
        QVERIFY(copyRealHead(root.filePath(QStringLiteral("copy"))));
        QVERIFY(QDir::setCurrent(root.path()));
        LessonSession session;
        QVERIFY2(session.open(QStringLiteral("copy/real-head.md")),
                 qPrintable(problemText(session)));
        QVERIFY(QDir::setCurrent(elsewhere.path()));

        QCOMPARE(checkFewerViews(session), QString());
        QCOMPARE(applyFewerViews(session), QString());
        QVERIFY2(session.problems()->errorCount() == 0, qPrintable(problemText(session)));
        QVERIFY(session.documentText().contains(kFewerViews));
        QVERIFY2(session.saver()->save(),
                 qPrintable(session.saver()->property("error").toString()));

        const QString saved = root.filePath(QStringLiteral("copy/real-head.md"));
        QVERIFY(readAll(saved).contains(kFewerViews.toUtf8()));
        LessonSession reopened;
        QVERIFY2(reopened.open(saved), qPrintable(problemText(reopened)));
    }

    // Save As into a folder without the data files: the lesson now reads that folder's files
    // (none), at once, as opening it there would; the check before Apply says so too. (It kept
    // the old folder's files until the next edit.)
    void saveAsMovesTheLessonToTheNewFoldersFiles() {
        QTemporaryDir root;
        QVERIFY(copyRealHead(root.filePath(QStringLiteral("copy"))));
        LessonSession session;
        QVERIFY2(session.open(root.filePath(QStringLiteral("copy/real-head.md"))),
                 qPrintable(problemText(session)));
        QVERIFY(QDir().mkpath(root.filePath(QStringLiteral("bare"))));
        QVERIFY(session.saver()->saveAs(root.filePath(QStringLiteral("bare/real-head.md"))));
        QVERIFY2(session.problems()->errorCount() > 0, "the new folder has no data files");
        QVERIFY2(problemText(session).contains(
                     QStringLiteral("data/real-head/emb.npy: no such file in the lesson's folder")),
                 qPrintable(problemText(session)));
        QVERIFY2(checkFewerViews(session).contains(QStringLiteral("no such file")),
                 qPrintable(checkFewerViews(session)));
        // … and back beside its files: clean again.
        QVERIFY(session.saver()->saveAs(root.filePath(QStringLiteral("copy/again.md"))));
        QVERIFY2(session.problems()->errorCount() == 0, qPrintable(problemText(session)));
        QCOMPARE(checkFewerViews(session), QString());
    }

    // Save As elsewhere says which data files the new folder lacks, and copies them along with
    // their relative paths: the lesson saved there opens with no error. A different file of the
    // same name already there is never replaced: nothing is written, and the file is named.
    void saveAsElsewhereCarriesTheDataFiles() {
        QTemporaryDir root;
        QVERIFY(copyRealHead(root.filePath(QStringLiteral("copy"))));
        LessonSession session;
        QVERIFY2(session.open(root.filePath(QStringLiteral("copy/real-head.md"))),
                 qPrintable(problemText(session)));
        const QString moved = root.filePath(QStringLiteral("moved/lesson.md"));
        QVERIFY(QDir().mkpath(root.filePath(QStringLiteral("moved"))));
        QStringList expected;
        for (const QString& name : kRealHeadData) {
            expected << QStringLiteral("data/real-head/") + name;
        }
        QStringList leftBehind = session.saver()->dataFilesLeftBehind(moved);
        leftBehind.sort();
        QCOMPARE(leftBehind, expected);
        // Beside its own files, nothing is left behind.
        QCOMPARE(session.saver()->dataFilesLeftBehind(root.filePath(QStringLiteral("copy/b.md"))),
                 QStringList());

        // A different emb.npy is in the way: refused, the lesson not written, nothing copied.
        const QString clash = root.filePath(QStringLiteral("clash/lesson.md"));
        QVERIFY(QDir().mkpath(root.filePath(QStringLiteral("clash/data/real-head"))));
        QVERIFY(writeAll(root.filePath(QStringLiteral("clash/data/real-head/emb.npy")), "other"));
        QVERIFY(!session.saver()->saveAsWithDataFiles(clash));
        QVERIFY2(session.saver()->error().contains(QStringLiteral("emb.npy is already there")),
                 qPrintable(session.saver()->error()));
        QVERIFY(!QFile::exists(clash));
        QVERIFY(!QFile::exists(root.filePath(QStringLiteral("clash/data/real-head/pos.npy"))));
        QCOMPARE(readAll(root.filePath(QStringLiteral("clash/data/real-head/emb.npy"))),
                 QByteArray("other"));

        // Copied along: the same bytes under the same relative paths, and the lesson clean.
        QVERIFY2(session.saver()->saveAsWithDataFiles(moved), qPrintable(session.saver()->error()));
        for (const QString& path : expected) {
            QCOMPARE(readAll(root.filePath(QStringLiteral("moved/") + path)),
                     readAll(root.filePath(QStringLiteral("copy/") + path)));
        }
        QCOMPARE(session.filePath(), moved);
        QVERIFY2(session.problems()->errorCount() == 0, qPrintable(problemText(session)));
        QCOMPARE(session.saver()->dataFilesLeftBehind(moved), QStringList());
    }

    // A new lesson reads nothing; saved beside data files, it reads them at once: the check
    // before Apply finds them. (It kept reading nothing until the next edit.)
    void aNewLessonSavedBesideItsFilesReadsThem() {
        QTemporaryDir root;
        QVERIFY(copyRealHead(root.path()));
        LessonSession session;
        session.newLesson();
        session.editor()->replaceAll(
            QStringLiteral("Paste"),
            readAll(root.filePath(QStringLiteral("real-head.md"))).toStdString());
        QVERIFY2(problemText(session).contains(QStringLiteral("this lesson has no folder yet")),
                 qPrintable(problemText(session)));
        QVERIFY(session.saver()->saveAs(root.filePath(QStringLiteral("new.md"))));
        QVERIFY2(session.problems()->errorCount() == 0, qPrintable(problemText(session)));
        QCOMPARE(checkFewerViews(session), QString());
    }

    // A bundle's data files are its lesson's: found by the check before Apply, the re-read
    // after the edit and the export render, from any working directory. A lesson read later
    // under the bundle's path does not find them (they stayed registered for that path for as
    // long as the process ran).
    void aBundlesFilesAreItsLessonsAlone() {
        const WorkingDirectory restore;
        QTemporaryDir root, elsewhere;
        QVERIFY(copyRealHead(root.filePath(QStringLiteral("copy"))));
        const QString md = root.filePath(QStringLiteral("copy/real-head.md"));
        ExportRequest request;
        request.bundle = true;
        RenderedExport rendered;
        const ExportResult made =
            renderExport(readAll(md).toStdString(), md.toStdString(),
                         dataFilesBeside(md.toStdString()), request, &rendered);
        QVERIFY2(made.ok(), qPrintable(made.error));
        const QString zip = root.filePath(QStringLiteral("real-head.zip"));
        QVERIFY(writeAll(zip, rendered.part(QStringLiteral("bundle"))->bytes));
        QVERIFY(QDir(root.filePath(QStringLiteral("copy"))).removeRecursively());
        QVERIFY(QDir::setCurrent(elsewhere.path()));

        LessonSession session;
        QVERIFY2(session.open(zip), qPrintable(problemText(session)));
        QCOMPARE(checkFewerViews(session), QString());
        QCOMPARE(applyFewerViews(session), QString());
        QVERIFY2(session.problems()->errorCount() == 0, qPrintable(problemText(session)));
        ExportController controller;
        controller.setSession(&session);
        QVERIFY(render(controller));

        LessonSession other;
        QVERIFY(!other.openText(zip, session.documentText().toStdString()));
        QVERIFY2(problemText(other).contains(QStringLiteral("no such file in the lesson's folder")),
                 qPrintable(problemText(other)));
    }
};

QTEST_MAIN(TestLessonDataFiles)
#include "test_lesson_data_files.moc"
