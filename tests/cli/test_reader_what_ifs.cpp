// A what-if a reader can make never makes a lesson unusable. Every setting the cells'
// controls let a reader reach in the shipped lessons (core/live/reader_what_ifs.h: each
// control's values one at a time, removing, replacing and swapping tokens), given to `attnbook
// compute --set` as the keys the window's Keep would write, exits 0; a binding it breaks is
// listed under "claims" as not holding. An author's edit that breaks a binding still fails.
#include "core/live/reader_what_ifs.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

#include <memory>

using namespace attnbook;

namespace {

struct Run {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

QStringList computeArguments(const QString& lesson, const ReaderWhatIf& whatIf) {
    QStringList arguments{QStringLiteral("compute"), lesson};
    for (size_t i = 0; i < whatIf.keys.size(); ++i) {
        arguments << QStringLiteral("--set") << QString::fromStdString(whatIf.setText(i));
    }
    return arguments;
}

// Runs every argument list through the executable, two at a time (the machine's cores).
std::vector<Run> runAll(const std::vector<QStringList>& all) {
    std::vector<Run> runs(all.size());
    constexpr size_t kAtOnce = 2;
    for (size_t first = 0; first < all.size(); first += kAtOnce) {
        std::vector<std::unique_ptr<QProcess>> batch;
        for (size_t i = first; i < std::min(all.size(), first + kAtOnce); ++i) {
            batch.push_back(std::make_unique<QProcess>());
            batch.back()->start(QStringLiteral(ATTNBOOK_EXECUTABLE), all[i]);
        }
        for (size_t k = 0; k < batch.size(); ++k) {
            QProcess& process = *batch[k];
            process.waitForFinished(120000);
            runs[first + k] = {process.exitStatus() == QProcess::NormalExit ? process.exitCode()
                                                                            : -1,
                               process.readAllStandardOutput(), process.readAllStandardError()};
        }
    }
    return runs;
}

Run runAttnbook(const QStringList& arguments) {
    return runAll({arguments}).front();
}

QString lessonPath(const char* name) {
    return QStringLiteral(ATTNBOOK_SOURCE_DIR "/documents/") + QLatin1String(name);
}

QJsonArray claimsOf(const Run& run) {
    return QJsonDocument::fromJson(run.out).object().value("claims").toArray();
}

QJsonObject claimAt(const QJsonArray& claims, int line, const QString& expr) {
    for (const QJsonValue& claim : claims) {
        const QJsonObject o = claim.toObject();
        if (o.value("line").toInt() == line && o.value("expr").toString() == expr) {
            return o;
        }
    }
    return {};
}

} // namespace

class TestReaderWhatIfs : public QObject {
    Q_OBJECT

  private Q_SLOTS:
    // The sweep: every reader-reachable setting of every shipped lesson computes.
    void everyReaderSettingOfTheShippedLessonsComputes() {
        size_t total = 0;
        for (const char* name :
             {"attention.md", "guide.md", "real-head.md", "transformer.md", "transformers.md"}) {
            const QString path = lessonPath(name);
            const Lesson lesson = loadLesson(path.toStdString());
            QVERIFY2(lesson.diagnostics.empty(), name);
            std::vector<ReaderWhatIf> whatIfs;
            for (const LessonCell& cell : lesson.cells) {
                for (ReaderWhatIf& w : readerWhatIfs(cell)) {
                    whatIfs.push_back(std::move(w));
                }
            }
            std::vector<QStringList> arguments;
            for (const ReaderWhatIf& w : whatIfs) {
                arguments.push_back(computeArguments(path, w));
            }
            const std::vector<Run> runs = runAll(arguments);
            int unresolved = 0; // bindings a setting took away, listed rather than refused
            for (size_t i = 0; i < runs.size(); ++i) {
                for (const QJsonValue& claim : claimsOf(runs[i])) {
                    unresolved += claim.toObject().contains("unresolved");
                }
                const QString what =
                    QStringLiteral("%1, %2 %3: exit %4\n%5")
                        .arg(QLatin1String(name), QString::fromStdString(whatIfs[i].cellId),
                             QString::fromStdString(whatIfs[i].label))
                        .arg(runs[i].exitCode)
                        .arg(QString::fromUtf8(runs[i].err));
                QVERIFY2(runs[i].exitCode == 0, qPrintable(what));
                QVERIFY2(QJsonDocument::fromJson(runs[i].out).isObject(), qPrintable(what));
            }
            qInfo("%s: %zu reader settings, %d unresolved bindings listed", name, runs.size(),
                  unresolved);
            total += runs.size();
        }
        // attention 34, guide 13, real-head 49, transformer 16, transformers 3 when written:
        // a sweep that found nothing to try would pass without proving anything.
        QVERIFY2(total >= 100, qPrintable(QString::number(total)));
    }

    // guide.md's `try.tokens=[red]` (the tokens are a control there): the sentence's and the
    // quiz's share of blue no longer resolve, so compute lists them, and the quiz has no answer.
    void aBrokenBindingIsListedNotRefused() {
        const Run run = runAttnbook({QStringLiteral("compute"), lessonPath("guide.md"),
                                     QStringLiteral("--set"), QStringLiteral("try.tokens=[red]")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY2(run.err.isEmpty(), run.err.constData());
        const QJsonArray claims = claimsOf(run);
        const QString why = QStringLiteral("try.head[0].weights[0] has 1 entries, so [1] is out "
                                           "of range");
        const QString noRow = QStringLiteral("try.tokens has 1 entries, so [1] is out of range");
        const QString share = QStringLiteral("try.head[0].weights[0][1]");
        const QString second = QStringLiteral("try.tokens[1]");
        // The sentence's share and second word, its claim, the quiz's question (the second
        // word), answer and explanation.
        QCOMPARE(claimAt(claims, 48, share).value("unresolved").toString(), why);
        QCOMPARE(claimAt(claims, 48, second).value("unresolved").toString(), noRow);
        const QJsonObject claim =
            claimAt(claims, 50,
                    QStringLiteral("try.head[0].weights[0][0] > try.head[0].weights[0][1] && "
                                   "try.tokens[0] != try.tokens[1]"));
        QCOMPARE(claim.value("holds").toBool(true), false);
        QCOMPARE(claim.value("unresolved").toString(), why);
        QCOMPARE(claimAt(claims, 70, second).value("unresolved").toString(), noRow);
        QCOMPARE(claimAt(claims, 73, share).value("unresolved").toString(), why);
        QCOMPARE(claimAt(claims, 75, share).value("unresolved").toString(), why);
        for (const QJsonValue& c : claims) {
            QCOMPARE(c.toObject().value("holds").toBool(true), false);
        }
        // The quiz explanation's claim that names the three tokens.
        QCOMPARE(claimAt(claims, 75,
                         QStringLiteral("try.n == 3 && try.tokens[0] == \"red\" && try.tokens[1] "
                                        "== \"blue\" && try.tokens[2] == \"red\""))
                     .value("unresolved")
                     .toString(),
                 noRow);
        // ...and the claim that the cell has three tokens, which is false but resolves.
        QCOMPARE(claims.size(), 8);
        QVERIFY(!claims[0].toObject().contains("unresolved"));
        const QJsonArray cells = QJsonDocument::fromJson(run.out).object().value("cells").toArray();
        for (const QJsonValue& cell : cells) {
            if (cell.toObject().value("id") == QStringLiteral("first_share")) {
                QVERIFY(cell.toObject().value("answer").isNull());
            }
        }
        // As written, nothing is unresolved and its three claims hold.
        const QJsonArray asWritten =
            claimsOf(runAttnbook({QStringLiteral("compute"), lessonPath("guide.md")}));
        QCOMPARE(asWritten.size(), 3);
        for (const QJsonValue& c : asWritten) {
            QCOMPARE(c.toObject().value("holds").toBool(), true);
            QVERIFY(!c.toObject().contains("unresolved"));
        }
    }

    // attention.md's two_heads has no controls: one head is an author's edit, which breaks the
    // sentences about its second head and is refused as before, at their lines.
    void anAuthorsEditThatBreaksABindingIsRefused() {
        const Run run = runAttnbook({QStringLiteral("compute"), lessonPath("attention.md"),
                                     QStringLiteral("--set"), QStringLiteral("two_heads.heads=1")});
        QCOMPARE(run.exitCode, 3);
        QVERIFY(run.out.isEmpty());
        // Both sentences read the second head: one cause, one error.
        QVERIFY2(run.err.contains(": error: this and 1 more binding (to line ") &&
                     run.err.contains(") read past the end of two_heads's lists: binding "
                                      "{{two_heads.head[1].weights[0][0]}}: two_heads.head has "
                                      "1 entries, so [1] is out of range\n"),
                 run.err.constData());
        QCOMPARE(run.err.count("two_heads"), 3); // the one error names it three times
        // A reader's setting mixed with an author's edit is an author's edit.
        const Run mixed = runAttnbook({QStringLiteral("compute"), lessonPath("guide.md"),
                                       QStringLiteral("--set"), QStringLiteral("try.tokens=[red]"),
                                       QStringLiteral("--set"), QStringLiteral("try.heads=1")});
        QCOMPARE(mixed.exitCode, 3);
        QVERIFY2(mixed.err.contains(":48:1: error: this and 4 more bindings (to line 75) read past "
                                    "the end of try's lists: binding "
                                    "{{try.head[0].weights[0][1]}}"),
                 mixed.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestReaderWhatIfs)
#include "test_reader_what_ifs.moc"
