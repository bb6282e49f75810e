// The command line's words for counts: "1 name", "1 variant", never
// "1 names" or "name(s)". Run as a process, as a teacher runs it.
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

class TestCliWords : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    // `attnbook export` with `arguments` after the lesson; its stdout, the folder written "D".
    QByteArray exportLesson(const QString& lesson, const QStringList& arguments) {
        QProcess process;
        process.start(QStringLiteral(ATTNBOOK_EXECUTABLE),
                      QStringList{QStringLiteral("export"), lesson} + arguments);
        process.waitForFinished(300000);
        [&] { QCOMPARE(process.exitCode(), 0); }();
        return process.readAllStandardOutput().replace(dir_.path().toUtf8(), "D");
    }
    QString rosterOf(const QByteArray& names) {
        const QString path = dir_.filePath(QStringLiteral("roster.txt"));
        QFile f(path);
        f.open(QIODevice::WriteOnly);
        f.write(names);
        return path;
    }

  private Q_SLOTS:
    void aRosterOfOneIsOneName() {
        const QByteArray out =
            exportLesson(QStringLiteral(ATTNBOOK_SOURCE_DIR "/tests/app/fixtures/window.md"),
                         {QStringLiteral("--worksheet"), dir_.filePath(QStringLiteral("one.pdf")),
                          QStringLiteral("--roster"), rosterOf("Ann\n")});
        QVERIFY2(out.contains("D/one-roster.csv: the roster, 1 name\n"), out.constData());
    }
    void aRosterOfTwoIsTwoNames() {
        const QByteArray out =
            exportLesson(QStringLiteral(ATTNBOOK_SOURCE_DIR "/tests/app/fixtures/window.md"),
                         {QStringLiteral("--worksheet"), dir_.filePath(QStringLiteral("two.pdf")),
                          QStringLiteral("--roster"), rosterOf("Ann\nBen\n")});
        QVERIFY2(out.contains("D/two-roster.csv: the roster, 2 names\n"), out.constData());
    }
    // A lesson whose cells vary (attention.md), asked for one variant.
    void oneVariantIsOneVariant() {
        const QByteArray out =
            exportLesson(QStringLiteral(ATTNBOOK_SOURCE_DIR "/documents/attention.md"),
                         {QStringLiteral("--worksheet"), dir_.filePath(QStringLiteral("v.pdf")),
                          QStringLiteral("--variants"), QStringLiteral("1")});
        QVERIFY2(out.contains("D/v.pdf: the worksheet in 1 variant\n"), out.constData());
        QVERIFY2(!out.contains("1 variants"), out.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliWords)
#include "test_cli_words.moc"
