// `attnbook` as a user runs it: exit codes, JSON, messages (cli.md).
#include "tests/test_files.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

namespace {

struct Run {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

Run attnbook(const QStringList& arguments) {
    QProcess process;
    process.start(QStringLiteral(ATTNBOOK_EXECUTABLE), arguments);
    process.waitForFinished(120000);
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
            process.readAllStandardOutput(), process.readAllStandardError()};
}

QString lessonPath(const char* name) {
    return QStringLiteral(ATTNBOOK_SOURCE_DIR "/documents/") + QLatin1String(name);
}

QJsonObject cellOf(const QByteArray& json, const QString& id) {
    const QJsonArray cells = QJsonDocument::fromJson(json).object().value("cells").toArray();
    for (const QJsonValue& cell : cells) {
        if (cell.toObject().value("id").toString() == id) {
            return cell.toObject();
        }
    }
    return {};
}

double at(const QJsonObject& cell, const QString& key, int row, int col) {
    return cell.value(key).toArray().at(row).toArray().at(col).toDouble();
}

const char* kSmall = "# Small\n\n```attention colour\ntokens: [red, blue, red]\nvocab:\n"
                     "  red: [1, 0, 0, 0]\n  blue: [0, 1, 0, 0]\n```\n\n"
                     "Blue gets {{colour.head[0].weights[0][1]}}.\n";

} // namespace

class TestCli : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    QString write(const QString& name, const QByteArray& bytes) {
        QFile f(dir_.filePath(name));
        f.open(QIODevice::WriteOnly);
        f.write(bytes);
        return f.fileName();
    }

  private Q_SLOTS:
    void versionAndHelp() {
        const Run version = attnbook({"--version"});
        QCOMPARE(version.exitCode, 0);
        QVERIFY(version.out.startsWith("attnbook "));
        const Run help = attnbook({"--help"});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains("attnbook compute FILE"));
    }

    void computePrintsTheSpecNumbers() {
        const Run run = attnbook({"compute", write("small.md", kSmall)});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.err.isEmpty());
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(run.out, &error);
        QCOMPARE(error.error, QJsonParseError::NoError);
        QCOMPARE(doc.object().value("title").toString(), QStringLiteral("Small"));
        const QJsonObject cell = cellOf(run.out, "colour");
        QCOMPARE(cell.value("kind").toString(), QStringLiteral("attention"));
        QCOMPARE(cell.value("scale").toDouble(), 0.5);
        QCOMPARE(cell.value("d_o").toInt(), 4);
        const QJsonObject head = cell.value("head").toArray().at(0).toObject();
        QVERIFY(std::abs(at(head, "weights", 0, 1) - 0.2327) < 5e-5);
        QVERIFY(std::abs(at(cell, "output", 1, 0) - 0.5481) < 5e-5);
        QVERIFY(cell.value("gradcheck").toObject().value("max_rel_error").toDouble() < 1e-6);
        QVERIFY(cell.value("grad").toObject().contains("b_O"));
    }

    void setIsAWhatIfThatLeavesTheFile() {
        const QString path = write("whatif.md", kSmall);
        const Run heads =
            attnbook({"compute", path, "--set", "colour.heads=2", "--cell", "colour"});
        QCOMPARE(heads.exitCode, 0);
        QVERIFY(std::abs(at(cellOf(heads.out, "colour"), "output", 0, 0) - 0.8022) < 5e-5);
        const Run causal = attnbook({"compute", path, "--set", "colour.mask=causal"});
        QCOMPARE(causal.exitCode, 0);
        const QJsonObject head = cellOf(causal.out, "colour").value("head").toArray()[0].toObject();
        QVERIFY(head.value("scores").toArray()[0].toArray()[1].isNull()); // blocked
        QVERIFY(std::abs(at(head, "weights", 1, 0) - 0.3775) < 5e-5);
        QCOMPARE(readAll(path), QByteArray(kSmall));

        const Run bad = attnbook({"compute", path, "--set", "colour.heads=3"});
        QCOMPARE(bad.exitCode, 3);
        QVERIFY(bad.out.isEmpty());
        QCOMPARE(bad.err.trimmed(),
                 QByteArray("--set colour.heads: error: 3 heads do not divide the model width 4"));
        const Run broken = attnbook({"compute", path, "--set", "colour.heads=[1"});
        QCOMPARE(broken.exitCode, 3);
        QVERIFY(broken.err.startsWith("--set colour.heads: error: "));
        QCOMPARE(attnbook({"compute", path, "--set", "nope.heads=1"}).exitCode, 3);
        QCOMPARE(attnbook({"compute", path, "--set", "colour-heads"}).exitCode, 2);
    }

    void invalidDocumentsExitThreeWithFileLineColumn() {
        const QString path = write("bad.md", "# Bad\n\n```attention c\ntokens: [red, green]\n"
                                             "vocab: {red: [1, 0]}\n```\n");
        const Run run = attnbook({"compute", path});
        QCOMPARE(run.exitCode, 3);
        QVERIFY(run.out.isEmpty());
        QCOMPARE(run.err.trimmed(),
                 (path + ":4:15: error: the token 'green' is not in the vocab").toUtf8());
        QCOMPARE(attnbook({"check", path}).exitCode, 3);
        const Run missing = attnbook({"compute", dir_.filePath("nothing.md")});
        QCOMPARE(missing.exitCode, 3);
        QVERIFY(missing.err.contains("no such file"));
    }

    // A claim that a --set makes false: compute lists it with holds: false; check on a
    // document whose claim is false as written exits 3 at the claim's line.
    void claimsAreListedByComputeAndEnforcedByCheck() {
        const QByteArray lesson = QByteArray(kSmall) +
                                  "\nThe two reds read the same.{{? near(colour.output[0][0], "
                                  "colour.output[2][0])}}\n";
        const QString path = write("claims.md", lesson);
        const Run plain = attnbook({"compute", path});
        QCOMPARE(plain.exitCode, 0);
        const QJsonArray claims = QJsonDocument::fromJson(plain.out).object()["claims"].toArray();
        QCOMPARE(claims.size(), 1);
        QCOMPARE(claims[0].toObject()["line"].toInt(), 12);
        QCOMPARE(claims[0].toObject()["holds"].toBool(), true);
        QCOMPARE(claims[0].toObject()["expr"].toString(),
                 QStringLiteral("near(colour.output[0][0], colour.output[2][0])"));

        const Run causal = attnbook({"compute", path, "--set", "colour.mask=causal"});
        QCOMPARE(causal.exitCode, 0);
        QCOMPARE(QJsonDocument::fromJson(causal.out)
                     .object()["claims"]
                     .toArray()[0]
                     .toObject()["holds"]
                     .toBool(),
                 false);
        const Run checkCausal = attnbook({"check", path, "--set", "colour.mask=causal"});
        QCOMPARE(checkCausal.exitCode, 3);
        QVERIFY2(
            checkCausal.err.contains(":12:28: error: claim is false: near(colour.output[0][0], "
                                     "colour.output[2][0]) (1.0000 vs 0.7673)"),
            checkCausal.err.constData());

        QByteArray falseAsWritten = lesson;
        falseAsWritten.replace("output[2][0]", "output[1][0]");
        const QString wrong = write("false-claim.md", falseAsWritten);
        const Run check = attnbook({"check", wrong});
        QCOMPARE(check.exitCode, 3);
        QVERIFY2(check.err.contains(":12:28: error: claim is false"), check.err.constData());
        const Run compute = attnbook({"compute", wrong});
        QCOMPARE(compute.exitCode, 3);
        QVERIFY(compute.out.isEmpty());
    }

    // Every reading command refuses a document with errors, a broken binding included:
    // exit 3, nothing on stdout, nothing written.
    void brokenBindingsAreRefusedEverywhere() {
        const QString path =
            write("broken.md", QByteArray(kSmall) + "\nGone: {{nothing.output[0]}}.\n");
        const Run compute = attnbook({"compute", path});
        QCOMPARE(compute.exitCode, 3);
        QVERIFY(compute.out.isEmpty());
        QVERIFY2(compute.err.contains(":12:7: error: binding {{nothing.output[0]}}"),
                 compute.err.constData());
        QCOMPARE(attnbook({"check", path}).exitCode, 3);
        for (const QString& option : {QStringLiteral("--pdf"), QStringLiteral("--bundle")}) {
            const QString out = dir_.filePath("broken-out" + option);
            const Run run = attnbook({"export", path, option, out});
            QCOMPARE(run.exitCode, 3);
            QVERIFY(!QFile::exists(out));
        }
    }

    void usageErrorsExitTwo() {
        QCOMPARE(attnbook({"compute"}).exitCode, 2);
        QCOMPARE(attnbook({"compute", "a.md", "--frobnicate"}).exitCode, 2);
        QCOMPARE(attnbook({"--teleport"}).exitCode, 2);
    }

    // check of a bundle verifies its web page by making it again, which needs fonts: it
    // aborted in a process without a QGuiApplication.
    void checkOfABundleVerifiesItWithoutCrashing() {
        const QString bundle = dir_.filePath(QStringLiteral("lesson.zip"));
        const Run made = attnbook({QStringLiteral("export"), lessonPath("training.md"),
                                   QStringLiteral("--bundle"), bundle});
        QCOMPARE(made.exitCode, 0);
        const Run checked = attnbook({QStringLiteral("check"), bundle});
        QVERIFY2(checked.exitCode == 0, checked.err.constData());
        QVERIFY2(checked.out.contains("no errors"), checked.out.constData());
    }

    void checkPassesTheShippedLessonsAndWarnsAboutStaleNumbers() {
        for (const char* name : {"attention.md", "transformers.md", "template.md"}) {
            const Run run = attnbook({"check", "--strict", lessonPath(name)});
            QVERIFY2(run.exitCode == 0, run.err.constData());
            QVERIFY2(run.err.isEmpty(), run.err.constData());
        }
        const QString stale = write("stale.md", QByteArray(kSmall) + "By hand: 0.2327.\n");
        const Run run = attnbook({"check", stale});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.err.contains(":11:10: warning: 0.2327 is typed by hand"));
        QVERIFY(run.err.contains("{{colour.head[0].weights[0][1]:4}}"));
        QCOMPARE(attnbook({"check", "--strict", stale}).exitCode, 3);
    }

    void checkFixBindsTypedNumbersAndChangesNoOtherByte() {
        const QByteArray typed =
            QByteArray(kSmall) + "By hand: 0.2327, and blue is [0, 1, 0, 0].\n";
        const QByteArray expected = QByteArray(kSmall) +
                                    "By hand: {{colour.head[0].weights[0][1]:4}}, and blue is "
                                    "{{colour.X0[1]:0}}.\n";
        for (const bool crlf : {false, true}) {
            QByteArray before = typed;
            QByteArray after = expected;
            if (crlf) {
                before.replace("\n", "\r\n");
                after.replace("\n", "\r\n");
            }
            const QString path = write(crlf ? "fix-crlf.md" : "fix.md", before);
            const Run run = attnbook({"check", path, "--fix"});
            QVERIFY2(run.exitCode == 0, run.err.constData());
            QCOMPARE(readAll(path), after);
            QVERIFY2(
                run.out.contains(":11:10: fixed: 0.2327 -> {{colour.head[0].weights[0][1]:4}}\n"),
                run.out.constData());
            QVERIFY(run.out.contains(":11:30: fixed: [0, 1, 0, 0] -> {{colour.X0[1]:0}}\n"));
            QVERIFY(run.out.contains(": 2 numbers bound\n"));
            QVERIFY(run.out.contains("no errors, 0 warnings")); // checked again after the fix
            // (not --strict: its what-if sweep would flag "Blue gets …", a sentence whose share
            // changes with every token edit the cell's default controls allow)
            const Run again = attnbook({"check", path, "--fix"});
            QCOMPARE(again.exitCode, 0);
            QVERIFY(again.out.contains(": nothing to fix\n"));
            QCOMPARE(readAll(path), after);
        }
        QCOMPARE(attnbook({"check", write("fix-set.md", typed), "--fix", "--set", "colour.heads=1"})
                     .exitCode,
                 2);
    }

    void aTypedNumberInAVaryingQuizIsAnError() {
        const QByteArray varying =
            "# Q\n\n```attention colour\ntokens: [red, blue, red]\nvocab:\n"
            "  red: [1, 0, 0, 0]\n  blue: [0, 1, 0, 0]\nworksheet:\n  vary:\n"
            "    vocab: {min: -2, max: 2}\n```\n\n```quiz q\ncell: colour\n"
            "question: \"Blue's share is 0.2327: how much is red's?\"\n"
            "answer: \"{{colour.head[0].weights[0][0]}}\"\n```\n";
        const QString path = write("varying.md", varying);
        const Run run = attnbook({"check", path});
        QCOMPARE(run.exitCode, 3);
        QVERIFY2(run.err.contains(":15:28: error: 0.2327 is typed by hand"), run.err.constData());
        QVERIFY(run.err.contains("false on every other variant"));
        const Run fix = attnbook({"check", path, "--fix"});
        QVERIFY2(fix.exitCode == 0, fix.err.constData());
        QVERIFY(readAll(path).contains(
            "question: \"Blue's share is {{colour.head[0].weights[0][1]:4}}: how much"));
    }

    // `check --what-ifs` (and --strict) reports a sentence a reader's what-if makes
    // false with no mark; a claim about the setting quiets it.
    void checkWhatIfsSweepsTheReadersSettings() {
        const QByteArray cell = "# Masked\n\n```attention colour\ntokens: [red, blue, red]\n"
                                "vocab:\n  red: [1, 0, 0, 0]\n  blue: [0, 1, 0, 0]\nmask: causal\n"
                                "controls: [mask]\n```\n\n";
        const QString bare =
            write("sweep.md", cell + "Because the mask is causal, red reads only itself.\n");
        const Run plain = attnbook({"check", bare});
        QCOMPARE(plain.exitCode, 0);
        QVERIFY2(plain.err.isEmpty(), plain.err.constData());
        const Run swept = attnbook({"check", bare, "--what-ifs"});
        QCOMPARE(swept.exitCode, 0);
        QVERIFY2(swept.err.contains(
                     "sweep.md:12:1: warning: this sentence may be false when colour.mask=none "
                     "(no mask) (it says 'mask'; the cell now gives mask: none)"),
                 swept.err.constData());
        QVERIFY(swept.out.contains("no errors, 1 warning"));
        QCOMPARE(attnbook({"check", bare, "--strict"}).exitCode, 3);

        const QString guarded =
            write("sweep-guarded.md", cell + "Because the mask is causal, red reads only "
                                             "itself.{{? colour.mask == \"causal\"}}\n");
        const Run quiet = attnbook({"check", guarded, "--strict"});
        QVERIFY2(quiet.exitCode == 0, quiet.err.constData());
        QVERIFY2(quiet.err.isEmpty(), quiet.err.constData());

        // With an error elsewhere the sweep still runs: the error first, then the sentence.
        const QString broken = write("sweep-broken.md", cell + "Because the mask is causal, red "
                                                               "reads only itself.\n\nIt gives "
                                                               "{{colour.outptu[0][0]}}.\n");
        const Run both = attnbook({"check", broken, "--what-ifs"});
        QCOMPARE(both.exitCode, 3);
        const qsizetype error = both.err.indexOf("sweep-broken.md:14:10: error: binding");
        const qsizetype sweep = both.err.indexOf("sweep-broken.md:12:1: warning: this sentence");
        QVERIFY2(error >= 0 && sweep > error, both.err.constData());
    }

    // --fix leaves a number that equals a constant of the cell (the scale) beside
    // numbers that vary (red's scores, when a reader removes a token).
    void checkFixDeclinesACoincidence() {
        const QByteArray varying =
            "# Q\n\n```attention colour\ntokens: [red, blue, red]\nvocab:\n"
            "  red: [1, 0, 0, 0]\n  blue: [0, 1, 0, 0]\nworksheet:\n  vary:\n"
            "    vocab: {min: -2, max: 2}\n```\n\n"
            "Red's scores are {{colour.head[0].scores[0]}}, which gives 0.5.\n";
        const QString path = write("coincidence.md", varying);
        const Run fix = attnbook({"check", path, "--fix"});
        QVERIFY2(fix.exitCode == 0, fix.err.constData());
        QVERIFY2(fix.err.contains(":13:60: warning: 0.5 not fixed: it equals colour.scale only "
                                  "by coincidence, it seems: when colour.tokens=[blue, red] "
                                  "(remove token 1 (red)), {{colour.head[0].scores[0]}} beside it "
                                  "becomes [0.5000, 0.0000] while colour.scale stays 0.5"),
                 fix.err.constData());
        QVERIFY(fix.out.contains(": nothing to fix\n"));
        // check advises what --fix does: the reason, not a binding to write.
        const Run check = attnbook({"check", path});
        QVERIFY2(check.err.contains(":13:60: warning: 0.5 is typed by hand, and it equals "
                                    "colour.scale only by coincidence, it seems: when "
                                    "colour.tokens=[blue, red]"),
                 check.err.constData());
        QVERIFY2(!check.err.contains("write {{colour.scale"), check.err.constData());
        QCOMPARE(readAll(path), varying);
    }

    void editWritesThroughTheSameWriter() {
        const QString path = write("edit.md", kSmall);
        const Run same = attnbook({"edit", path, "--out", dir_.filePath("same.md")});
        QCOMPARE(same.exitCode, 0);
        QCOMPARE(readAll(dir_.filePath("same.md")), QByteArray(kSmall));
        QCOMPARE(attnbook({"edit", path, "--set", "colour.heads=2"}).exitCode, 0);
        QByteArray expected(kSmall);
        expected.replace("  blue: [0, 1, 0, 0]\n", "  blue: [0, 1, 0, 0]\nheads: 2\n");
        QCOMPARE(readAll(path), expected);
        // A refused edit leaves the file as it was.
        QCOMPARE(attnbook({"edit", path, "--set", "colour.heads=3"}).exitCode, 3);
        QCOMPARE(readAll(path), expected);
        // An unwritable target: exit 1, the message names the path, nothing is left.
        const Run unwritable =
            attnbook({"edit", path, "--out", dir_.filePath("no/such/folder/out.md")});
        QCOMPARE(unwritable.exitCode, 1);
        QVERIFY(unwritable.err.contains("no/such/folder/out.md: cannot write"));
        const Run folder = attnbook({"edit", path, "--out", dir_.path()});
        QCOMPARE(folder.exitCode, 1);
        QVERIFY(folder.err.contains("it is a folder"));
        // A device is never replaced by the rename that finishes a save.
        const Run device = attnbook({"edit", path, "--out", "/dev/null"});
        QCOMPARE(device.exitCode, 1);
        QVERIFY(device.err.contains("not a regular file"));
        QVERIFY(QFileInfo("/dev/null").isSymLink() || !QFileInfo("/dev/null").isFile());
    }

    void newMakesALessonThatChecks() {
        const QString path = dir_.filePath("fresh.md");
        QCOMPARE(attnbook({"new", path}).exitCode, 0);
        QCOMPARE(readAll(path), readAll(lessonPath("template.md")));
        QCOMPARE(attnbook({"check", "--strict", path}).exitCode, 0);
        QCOMPARE(attnbook({"new", path}).exitCode, 1); // never overwrites
    }

    // The shipped lessons' claims hold as written, and a what-if on one cell falsifies only
    // sentences about that cell: with the colour example masked, "blue still gets something"
    // and "the two red tokens end up the same" are false; a sentence that reads no colour
    // value stays true.
    void shippedLessonClaimsFollowAWhatIf() {
        const auto claimsOf = [&](const QStringList& extra) {
            QStringList args{QStringLiteral("compute"), lessonPath("attention.md")};
            args += extra;
            const Run run = attnbook(args);
            if (run.exitCode != 0) {
                qWarning("%s", run.err.constData());
            }
            return QJsonDocument::fromJson(run.out).object()["claims"].toArray();
        };
        const QJsonArray asWritten = claimsOf({});
        QVERIFY(asWritten.size() >= 20);
        for (const QJsonValue& c : asWritten) {
            QVERIFY2(c.toObject()["holds"].toBool(), qPrintable(c.toObject()["expr"].toString()));
        }
        const QJsonArray masked =
            claimsOf({QStringLiteral("--set"), QStringLiteral("colour.mask=causal")});
        QCOMPARE(masked.size(), asWritten.size());
        QStringList falsified;
        for (const QJsonValue& c : masked) {
            const QString expr = c.toObject()["expr"].toString();
            if (!c.toObject()["holds"].toBool()) {
                falsified << expr;
                QVERIFY2(expr.contains(QStringLiteral("colour.")), qPrintable(expr));
            }
        }
        const auto falsifiedHas = [&](const char* part) {
            return std::any_of(falsified.begin(), falsified.end(),
                               [&](const QString& e) { return e.contains(QLatin1String(part)); });
        };
        QVERIFY(falsifiedHas("colour.head[0].weights[0][1] > 0"));
        QVERIFY(falsifiedHas("near(colour.output[0][0], colour.output[2][0])"));
        QVERIFY(!falsifiedHas("positional.")); // the positional section reads no colour value
    }

    // A transformer's reader views (docs/transformer.md, "Reader views") are --set words of
    // compute, never of edit: the lesson has no place for them.
    void readerViewsAreWhatIfsOfComputeOnly() {
        const QString lesson = lessonPath("transformer.md");
        const Run asWritten = attnbook({"compute", lesson, "--cell", "playground"});
        QCOMPARE(asWritten.exitCode, 0);
        QCOMPARE(cellOf(asWritten.out, "playground").value("layers_run").toInt(), 2);
        const Run one = attnbook({"compute", lesson, "--cell", "playground", "--set",
                                  "playground.view.layers=1", "--set", "playground.view.ffn=off"});
        QVERIFY2(one.exitCode == 0, one.err.constData());
        const QJsonObject cell = cellOf(one.out, "playground");
        QCOMPARE(cell.value("layers_run").toInt(), 1);
        QVERIFY(cell.value("probs") != cellOf(asWritten.out, "playground").value("probs"));

        const Run bad = attnbook({"compute", lesson, "--set", "playground.view.layers=3"});
        QCOMPARE(bad.exitCode, 3);
        QCOMPARE(bad.err.trimmed(), QByteArray("--set playground.view.layers: error: view.layers "
                                               "takes a number of layers from 1 to 2, not '3'"));

        const char* small = "# Views\n\n```transformer t\ntokens: [a, b]\nvocab:\n"
                            "  a: [1, 0]\n  b: [0, 1]\nlayers:\n"
                            "  - attention: {heads: 1, mask: causal}\n    ffn: none\n```\n";
        const QString copy = write("views.md", small);
        QCOMPARE(attnbook({"compute", copy, "--set", "t.view.norm=off"}).exitCode, 0);
        const Run edit = attnbook({"edit", copy, "--set", "t.view.norm=off"});
        QCOMPARE(edit.exitCode, 3);
        QCOMPARE(edit.err.trimmed(),
                 QByteArray("--set t.view.norm: error: a reader's view is not part of the lesson, "
                            "so edit does not write it (compute --set shows it)"));
        QCOMPARE(readAll(copy), QByteArray(small));
    }

    void shippedLessonsGiveTheBriefsFigures() {
        const Run run = attnbook({"compute", lessonPath("attention.md")});
        QCOMPARE(run.exitCode, 0);
        const Run soup = attnbook({"compute", lessonPath("transformers.md")});
        QCOMPARE(soup.exitCode, 0);
        QVERIFY(QJsonDocument::fromJson(run.out).object().value("cells").toArray().size() >= 10);
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
