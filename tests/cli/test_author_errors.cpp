// The errors an author meets, as `attnbook check` prints them: one cause,
// one error, in plain words, at the place to fix, with a suggestion where one exists.
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct Run {
    int exitCode = -1;
    QByteArray err;
};

// A lesson with one attention cell `colour` of three tokens, and `prose` after it (line 10).
QByteArray colourLesson(const QByteArray& tokens, const QByteArray& prose) {
    return "# Colours\n\n```attention colour\ntokens: " + tokens +
           "\nvocab:\n  red: [1, 0, 0, 0]\n  blue: [0, 1, 0, 0]\n```\n\n" + prose + "\n";
}

} // namespace

class TestAuthorErrors : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    // `check` on a lesson written to lesson.md; its stderr with the path written "f.md".
    Run check(const QByteArray& lesson) {
        const QString path = dir_.filePath(QStringLiteral("lesson.md"));
        QFile f(path);
        f.open(QIODevice::WriteOnly);
        f.write(lesson);
        f.close();
        QProcess process;
        process.start(QStringLiteral(ATTNBOOK_EXECUTABLE), {QStringLiteral("check"), path});
        process.waitForFinished(120000);
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
                process.readAllStandardError().replace(path.toUtf8(), "f.md")};
    }

  private Q_SLOTS:
    // A misspelt cell id in prose names the cell meant.
    void misspeltCellIdSuggestsTheCell() {
        const Run run =
            check(colourLesson("[red, blue, red]", "Blue gets {{coluor.head[0].weights[0][1]}}."));
        QCOMPARE(run.exitCode, 3);
        QCOMPARE(run.err, QByteArray("f.md:10:11: error: binding {{coluor.head[0].weights[0][1]}}: "
                                     "no cell 'coluor' to bind to — did you mean 'colour'?\n"));
    }

    // A misspelt key of a path names the key meant, from the keys the cell has there.
    void misspeltKeySuggestsTheKey() {
        const Run run =
            check(colourLesson("[red, blue, red]", "Blue gets {{colour.head[0].weigths[0][1]}}."));
        QCOMPARE(run.exitCode, 3);
        QCOMPARE(run.err,
                 QByteArray("f.md:10:11: error: binding {{colour.head[0].weigths[0][1]}}: "
                            "colour.head[0] has no 'weigths' — did you mean 'weights'?\n"));
    }

    // One token taken from the tokens line: every binding that read the third token fails for
    // that one reason. One error, at the first of them, counting the others (it was one each).
    void oneWrongTokensLineIsOneError() {
        const QByteArray prose =
            "The last red gives {{colour.head[0].weights[2][0]}} to the first,\n"
            "keeps {{colour.head[0].weights[2][2]}}, and outputs\n"
            "{{colour.output[2]}}.{{? colour.output[2][0] > 0}}\n";
        QCOMPARE(check(colourLesson("[red, blue, red]", prose)).exitCode, 0);
        const Run run = check(colourLesson("[red, blue]", prose));
        QCOMPARE(run.exitCode, 3);
        QCOMPARE(run.err,
                 QByteArray("f.md:10:20: error: this and 3 more bindings (to line 12) read past "
                            "the end of colour's lists: binding {{colour.head[0].weights[2][0]}}: "
                            "colour.head[0].weights has 2 entries, so [2] is out of range\n"));
    }

    // yaml-cpp noticed an unclosed '[' where the next key starts ("end of sequence flow not
    // found" at line 5); the error is at the '[' itself, in plain words.
    void unclosedListAtItsBracket() {
        const Run run = check(colourLesson("[red, blue, red", "Nothing bound."));
        QCOMPARE(run.exitCode, 3);
        QCOMPARE(run.err, QByteArray("f.md:4:9: error: a list opened with '[' on line 4 is not "
                                     "closed with ']'\n"));
    }

    void unclosedMapAtItsBrace() {
        const Run run = check("# Chart\n\n```chart c\ntitle: T\n"
                              "x: {label: n, var: n, from: 1, to: 4\ny: {label: c}\n"
                              "series:\n  - {label: a, y: \"n\"}\n```\n");
        QCOMPARE(run.exitCode, 3);
        QCOMPARE(run.err, QByteArray("f.md:5:4: error: a map opened with '{' on line 5 is not "
                                     "closed with '}'\n"));
    }

    void strayClosingBracket() {
        const Run run = check(colourLesson("[red, blue, red]]", "Nothing bound."));
        QCOMPARE(run.exitCode, 3);
        QCOMPARE(run.err, QByteArray("f.md:4:25: error: this ']' or '}' closes nothing that is "
                                     "open\n"));
    }
};

QTEST_GUILESS_MAIN(TestAuthorErrors)
#include "test_author_errors.moc"
