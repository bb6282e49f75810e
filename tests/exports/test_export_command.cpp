// `attnbook export`: bundles round-trip and verify, and the exit codes of cli.md — 0 done,
// 1 an output that cannot be written (and nothing partial left, earlier files intact), 2 usage,
// 3 an invalid document — in process, and once through the real executable with no display.
#include "tests/test_files.h"

#include "app/cli/command_line.h"
#include "app/cli/exit_code.h"
#include "app/cli/export_command.h"
#include "exports/bundle/bundle_writer.h"
#include "exports/lesson_bundle.h"
#include "files/bundle_reader.h"
#include "files/lesson_source.h"
#include "tests/exports/pdf_text.h"

#include <QtCore/QCryptographicHash>
#include <QtCore/QDirIterator>
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtGui/QImage>
#include <QtTest>

#include <sys/stat.h>

using namespace attnbook;

namespace {

const QString kLesson = QStringLiteral(ATTNBOOK_SOURCE_DIR "/documents/attention.md");

int exportWith(const QStringList& arguments) {
    return runExportCommand(QStringList{QStringLiteral("export")} + arguments);
}

QStringList filesIn(const QString& folder) {
    return QDir(folder).entryList(QDir::Files | QDir::Hidden | QDir::System, QDir::Name);
}

std::string computeJson(const std::string& path) {
    const Lesson lesson = openLessonSource(path);
    AttentionEngine engine;
    return lessonJson(lesson, computeLesson(lesson, engine)).dump();
}

} // namespace

class TestExportCommand : public QObject {
    Q_OBJECT

  private Q_SLOTS:
    // A lesson whose cells read files: the bundle carries them as
    // data/files/PATH with their hashes, and reopens identically once the
    // lesson's folder is gone, `set:` entries over a file's numbers included.
    void aBundleCarriesTheFilesCellsRead() {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("lesson"));
        const QString data = folder + QStringLiteral("/data/real-head");
        QVERIFY(QDir().mkpath(data));
        const QString source = QStringLiteral(ATTNBOOK_SOURCE_DIR "/documents");
        QVERIFY(QFile::copy(source + QStringLiteral("/real-head.md"),
                            folder + QStringLiteral("/real-head.md")));
        const QStringList files = {QStringLiteral("emb.npy"), QStringLiteral("vocab.txt"),
                                   QStringLiteral("pos.npy"), QStringLiteral("c_attn.npy"),
                                   QStringLiteral("w_o.csv")};
        for (const QString& name : files) {
            QVERIFY(QFile::copy(source + QStringLiteral("/data/real-head/") + name,
                                data + u'/' + name));
        }
        const QString md = folder + QStringLiteral("/real-head.md");
        const QString zip = dir.filePath(QStringLiteral("real-head.zip"));
        // With an entry kept over the file's: the bundle reads it the same.
        QByteArray text = readAll(md);
        const QByteArray reference = "W_V: {file: data/real-head/c_attn.npy, cols: [16, 24], "
                                     "transpose: true";
        QVERIFY(text.contains(reference + "}\n"));
        text.replace(reference + "}\n", reference + ", set: [[0, 3, -0.5]]}\n");
        QFile::remove(md);
        QVERIFY(writeAll(md, text));
        const std::string before = computeJson(md.toStdString());
        QVERIFY(before.find("\"head\"") != std::string::npos);
        QVERIFY(before != computeJson(ATTNBOOK_SOURCE_DIR "/documents/real-head.md"));
        QCOMPARE(exportWith({md, QStringLiteral("--bundle"), zip}), int(ExitDone));

        QString error;
        const std::optional<Bundle> bundle = readBundle(zip, &error); // checks every sha256
        QVERIFY2(bundle, qPrintable(error));
        const QJsonObject hashes = bundle->manifest.value(QStringLiteral("entries")).toObject();
        for (const QString& name : files) {
            const QString entry = QStringLiteral("data/files/data/real-head/") + name;
            QVERIFY2(bundle->entries.count(entry), qPrintable(entry));
            QCOMPARE(bundle->entries.at(entry), readAll(data + u'/' + name));
            QCOMPARE(hashes.value(entry).toString(),
                     QString::fromLatin1(QCryptographicHash::hash(readAll(data + u'/' + name),
                                                                  QCryptographicHash::Sha256)
                                             .toHex()));
        }

        QVERIFY(QDir(folder).removeRecursively());
        QVERIFY(!QFile::exists(md));
        QCOMPARE(computeJson(zip.toStdString()), before);
        // The unpacked lesson alone, with no files beside it, cannot compute.
        const Lesson orphan = parseLesson(bundle->lesson().toStdString(), md.toStdString());
        QVERIFY(hasErrors(orphan.diagnostics));
    }

    void aBundleRoundTrips() {
        QTemporaryDir dir;
        const QString zip = dir.filePath(QStringLiteral("lesson.zip"));
        QCOMPARE(exportWith({kLesson, QStringLiteral("--bundle"), zip}), int(ExitDone));

        QString error;
        const std::optional<Bundle> bundle = readBundle(zip, &error); // checks every sha256
        QVERIFY2(bundle, qPrintable(error));
        QCOMPARE(bundle->lesson(), readAll(kLesson));
        const QJsonObject hashes = bundle->manifest.value(QStringLiteral("entries")).toObject();
        QCOMPARE(hashes.size(), int(bundle->entries.size()));
        for (const char* name :
             {"lesson.pdf", "worksheet.pdf", "answers.pdf", "data/colour.json",
              "data/colour/head0_weights.csv", "data/two_heads/head1_context.csv",
              "data/colour/grad_W_Q.csv", "data/shared_weights.json", "figures/colour-heatmap.png",
              "figures/two_heads-heatmap.png", "lesson.ipynb"}) {
            QVERIFY2(bundle->entries.count(QString::fromLatin1(name)), name);
            QVERIFY(hashes.contains(QString::fromLatin1(name)));
        }
        QVERIFY(bundle->entries.at(QStringLiteral("lesson.pdf")).startsWith("%PDF-"));
        // lesson.ipynb is what `export --notebook` writes, byte for byte, with its hash.
        const QString notebook = dir.filePath(QStringLiteral("lesson.ipynb"));
        QCOMPARE(exportWith({kLesson, QStringLiteral("--notebook"), notebook}), int(ExitDone));
        QCOMPARE(bundle->entries.at(QStringLiteral("lesson.ipynb")), readAll(notebook));
        QCOMPARE(
            hashes.value(QStringLiteral("lesson.ipynb")).toString(),
            QString::fromLatin1(
                QCryptographicHash::hash(readAll(notebook), QCryptographicHash::Sha256).toHex()));
        QImage heatmap;
        QVERIFY(heatmap.loadFromData(
            bundle->entries.at(QStringLiteral("figures/colour-heatmap.png")), "PNG"));
        QVERIFY(heatmap.width() > 200);
        QCOMPARE(
            QString::fromUtf8(bundle->entries.at(QStringLiteral("data/colour/head0_weights.csv")))
                .split(QStringLiteral("\r\n"))[1],
            QStringLiteral("red,0.38365173119055074,0.23269653761889864,0.38365173119055074"));

        // Opening the bundle reads its lesson: computing gives the same JSON as the .md.
        const std::string fromMd = computeJson(kLesson.toStdString());
        QCOMPARE(computeJson(zip.toStdString()), fromMd);
        // data/ID.json is that cell's part of it.
        const Lesson lesson = openLessonSource(kLesson.toStdString());
        AttentionEngine engine;
        const LessonResults results = computeLesson(lesson, engine);
        QCOMPARE(bundle->entries.at(QStringLiteral("data/colour.json")).toStdString(),
                 results.cell("colour")->json.dump() + "\n");
    }

    // The template's HTML comments reached the PDF with their words run
    // together and a literal -->. Authors' notes never reach students: not in the PDF, not in
    // the notebook; the lesson file keeps them.
    void aNewLessonsNotesStayOutOfItsExports() {
        QTemporaryDir dir;
        const QString lesson = dir.filePath(QStringLiteral("x.md"));
        QCOMPARE(runCommandLine({QStringLiteral("new"), lesson}), int(ExitDone));
        QVERIFY(readAll(lesson).contains("<!--"));
        const QString pdf = dir.filePath(QStringLiteral("x.pdf"));
        QCOMPARE(exportWith({lesson, QStringLiteral("--pdf"), pdf}), int(ExitDone));
        const QString text = pdfPageTexts(readAll(pdf)).join(u'\n');
        QVERIFY(text.contains(QStringLiteral("A first look at attention")));
        for (const char* note : {"<!--", "-->", "Replace the title", "cell fence"}) {
            QVERIFY2(!text.contains(QString::fromLatin1(note)), note);
        }
        const QString notebook = dir.filePath(QStringLiteral("x.ipynb"));
        QCOMPARE(exportWith({lesson, QStringLiteral("--notebook"), notebook}), int(ExitDone));
        const QByteArray cells = readAll(notebook);
        QVERIFY(cells.contains("A first look at attention"));
        QVERIFY(!cells.contains("<!--") && !cells.contains("Replace the title"));
    }

    // A bundle whose lesson.ipynb or lesson.html was changed (and its manifest hashed again, so
    // the bundle reads) passed `check`; both are made from the lesson, so both are compared.
    void aTamperedDerivedFileFailsCheck_data() {
        QTest::addColumn<QString>("entry");
        QTest::addColumn<QByteArray>("before");
        QTest::addColumn<QByteArray>("after");
        // The notebook's text is data in a JSON string: the tamper is its escaped line break.
        QTest::newRow("notebook") << QStringLiteral("lesson.ipynb")
                                  << QByteArray("import numpy as np")
                                  << QByteArray("import numpy as np\\nimport os");
        QTest::newRow("web page") << QStringLiteral("lesson.html") << QByteArray("</body>")
                                  << QByteArray("<script>fetch('https://example.org/')</script>"
                                                "</body>");
    }
    void aTamperedDerivedFileFailsCheck() {
        QFETCH(QString, entry);
        QFETCH(QByteArray, before);
        QFETCH(QByteArray, after);
        QTemporaryDir dir;
        const QString zip = dir.filePath(QStringLiteral("lesson.zip"));
        QCOMPARE(exportWith({kLesson, QStringLiteral("--bundle"), zip}), int(ExitDone));
        QCOMPARE(runCommandLine({QStringLiteral("check"), zip}), int(ExitDone));
        QString error;
        std::optional<Bundle> bundle = readBundle(zip, &error);
        QVERIFY2(bundle, qPrintable(error));
        std::vector<BundleEntry> entries;
        for (const auto& [name, bytes] : bundle->entries) {
            QByteArray changed = bytes;
            if (name == entry) {
                changed.replace(before, after);
                QVERIFY(changed != bytes);
            }
            entries.push_back({name, changed});
        }
        const QString tampered = dir.filePath(QStringLiteral("tampered.zip"));
        QVERIFY2(writeBundle(tampered, {QStringLiteral("Attention"), QStringLiteral("0"), {}},
                             entries, &error),
                 qPrintable(error));
        QVERIFY(readBundle(tampered, &error)); // every hash matches its entry
        QCOMPARE(runCommandLine({QStringLiteral("check"), tampered}), int(ExitInvalidDocument));
        const Lesson lesson = openLessonSource(tampered.toStdString());
        AttentionEngine engine;
        const LessonResults results = computeLesson(lesson, engine);
        QVERIFY(bundleDerivedFileProblem(tampered, lesson, results)
                    .find(entry.toStdString() + " is not") == 0);
        QCOMPARE(bundleDerivedFileProblem(zip, lesson, results), std::string());
    }

    void aDamagedBundleIsOneErrorNamingIt() {
        QTemporaryDir dir;
        const QString zip = dir.filePath(QStringLiteral("lesson.zip"));
        QCOMPARE(exportWith({kLesson, QStringLiteral("--bundle"), zip}), int(ExitDone));
        QByteArray bytes = readAll(zip);
        const qsizetype at = bytes.indexOf("lesson.md") + 200; // inside lesson.md's data
        bytes[at] = char(bytes[at] ^ 0x5a);
        QVERIFY(writeAll(zip, bytes));
        const Lesson lesson = openLessonSource(zip.toStdString());
        QCOMPARE(lesson.diagnostics.size(), size_t(1));
        QCOMPARE(lesson.diagnostics[0].line, 0);
        QVERIFY(lesson.diagnostics[0].message.find("cannot open the bundle lesson.zip: ") == 0);
        QVERIFY(lesson.cells.empty());
        // As a command: exit 3, nothing written.
        QCOMPARE(exportWith({zip, QStringLiteral("--pdf"), dir.filePath(QStringLiteral("x.pdf"))}),
                 int(ExitInvalidDocument));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("x.pdf"))));
    }

    void everyOutputAtOnce() {
        QTemporaryDir dir;
        const QString roster = dir.filePath(QStringLiteral("names.txt"));
        QVERIFY(writeAll(roster, "# class 4b\nAda\n\nGrace\n"));
        QCOMPARE(
            exportWith({kLesson, QStringLiteral("--pdf"), dir.filePath(QStringLiteral("l.pdf")),
                        QStringLiteral("--paper"), QStringLiteral("letter"),
                        QStringLiteral("--worksheet"), dir.filePath(QStringLiteral("w.pdf")),
                        QStringLiteral("--answers"), dir.filePath(QStringLiteral("k.pdf")),
                        QStringLiteral("--variants=3"), QStringLiteral("--seed"),
                        QStringLiteral("11"), QStringLiteral("--roster"), roster,
                        QStringLiteral("--bundle"), dir.filePath(QStringLiteral("b.zip")),
                        QStringLiteral("--notebook"), dir.filePath(QStringLiteral("n.ipynb"))}),
            int(ExitDone));
        QCOMPARE(filesIn(dir.path()), (QStringList{"b.zip", "k.pdf", "l.pdf", "n.ipynb",
                                                   "names.txt", "w-roster.csv", "w.pdf"}));
        QVERIFY(readAll(dir.filePath(QStringLiteral("n.ipynb"))).startsWith("{\n \"cells\": ["));
        QVERIFY(readAll(dir.filePath(QStringLiteral("w-roster.csv")))
                    .startsWith("name,variant,seed,hash\r\nAda,1,11,"));
    }

    void anUnwritableOutputExitsOneAndLeavesNothing() {
        QTemporaryDir dir;
        const QString earlier = dir.filePath(QStringLiteral("earlier.pdf"));
        QVERIFY(writeAll(earlier, "an earlier export"));
        // A folder that does not exist, a target that is a folder, a pipe (QSaveFile would
        // rename its file over it, as over a device).
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("folder.pdf")));
        const QString pipe = dir.filePath(QStringLiteral("pipe.pdf"));
        QVERIFY(::mkfifo(QFile::encodeName(pipe).constData(), 0600) == 0);
        for (const QString& bad : {dir.filePath(QStringLiteral("missing/out.pdf")),
                                   dir.filePath(QStringLiteral("folder.pdf")), pipe}) {
            QCOMPARE(exportWith({kLesson, QStringLiteral("--pdf"), bad}), int(ExitOutputFailed));
            // The good outputs of the same call are not written either, and earlier files stay.
            QCOMPARE(exportWith({kLesson, QStringLiteral("--worksheet"), earlier,
                                 QStringLiteral("--answers"), bad}),
                     int(ExitOutputFailed));
            QCOMPARE(exportWith({kLesson, QStringLiteral("--pdf"), earlier,
                                 QStringLiteral("--bundle"), bad}),
                     int(ExitOutputFailed));
            QCOMPARE(exportWith({kLesson, QStringLiteral("--pdf"), earlier,
                                 QStringLiteral("--notebook"), bad}),
                     int(ExitOutputFailed));
        }
        QCOMPARE(readAll(earlier), QByteArray("an earlier export"));
        QCOMPARE(filesIn(dir.path()),
                 (QStringList{"earlier.pdf", "pipe.pdf"})); // no temporary file
        QVERIFY(!QFileInfo(pipe).isFile());
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("missing"))));
    }

    void usageErrorsExitTwo() {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("o.pdf"));
        const QList<QStringList> calls = {
            {},
            {kLesson},
            {kLesson, QStringLiteral("--pdf")},
            {kLesson, QStringLiteral("--pdf"), out, QStringLiteral("--pdf"), out},
            {kLesson, QStringLiteral("--pdf"), out, QStringLiteral("--answers"), out + "k"},
            {kLesson, QStringLiteral("--pdf"), out, QStringLiteral("--paper"),
             QStringLiteral("a5")},
            {kLesson, QStringLiteral("--worksheet"), out, QStringLiteral("--variants"),
             QStringLiteral("0")},
            {kLesson, QStringLiteral("--worksheet"), out, QStringLiteral("--seed"),
             QStringLiteral("-1")},
            {kLesson, QStringLiteral("--worksheet"), out, QStringLiteral("--answers"), out},
            {kLesson, QStringLiteral("--pdf"), kLesson},
            {kLesson, QStringLiteral("--notebook")},
            {kLesson, QStringLiteral("--notebook"), kLesson},
            {kLesson, QStringLiteral("--notebook"), out, QStringLiteral("--variants"),
             QStringLiteral("2")},
            {kLesson, QStringLiteral("--worksheet"), out, QStringLiteral("--roster"),
             dir.filePath(QStringLiteral("none.txt"))},
            {kLesson, QStringLiteral("--pdf"), out, QStringLiteral("--colour")},
            {kLesson, kLesson, QStringLiteral("--pdf"), out},
            {kLesson, QStringLiteral("--pdf"), out, QStringLiteral("--max-memory"),
             QStringLiteral("3X")},
            {kLesson, QStringLiteral("--pdf"), out, QStringLiteral("--max-work"),
             QStringLiteral("-5")},
        };
        for (const QStringList& call : calls) {
            QVERIFY2(exportWith(call) == ExitUsage, qPrintable(call.join(u' ')));
        }
        QVERIFY(filesIn(dir.path()).isEmpty());
        // The limits compute and check take (docs/command-line.md), export takes too.
        QCOMPARE(exportWith({kLesson, QStringLiteral("--pdf"), out, QStringLiteral("--max-memory"),
                             QStringLiteral("2G"), QStringLiteral("--max-work"),
                             QStringLiteral("4e10")}),
                 int(ExitDone));
    }

    void anInvalidDocumentExitsThree() {
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bad.md"));
        QVERIFY(writeAll(
            bad, "# Bad\n\n```attention c\ntokens: [a]\nvocab:\n  a: [1, 0]\nheads: 3\n```\n"));
        QCOMPARE(exportWith({bad, QStringLiteral("--pdf"), dir.filePath(QStringLiteral("o.pdf"))}),
                 int(ExitInvalidDocument));
        QCOMPARE(exportWith(
                     {bad, QStringLiteral("--notebook"), dir.filePath(QStringLiteral("o.ipynb"))}),
                 int(ExitInvalidDocument));
        QCOMPARE(filesIn(dir.path()), QStringList{"bad.md"});
        // A worksheet with no workable variant fails the whole export: the lesson PDF asked for
        // in the same call is not written either.
        const QString tied = dir.filePath(QStringLiteral("tied.md"));
        QVERIFY(writeAll(
            tied, "# Tied\n\n```attention c\ntokens: [a, b]\nvocab:\n  a: [1, 0]\n  b: [0, 1]\n"
                  "worksheet:\n  blank: [weights]\n  vary:\n    vocab: {min: 1, max: 1}\n```\n"));
        QCOMPARE(exportWith({tied, QStringLiteral("--pdf"), dir.filePath(QStringLiteral("t.pdf")),
                             QStringLiteral("--worksheet"), dir.filePath(QStringLiteral("w.pdf")),
                             QStringLiteral("--variants"), QStringLiteral("2")}),
                 int(ExitInvalidDocument));
        QCOMPARE(filesIn(dir.path()), (QStringList{"bad.md", "tied.md"}));
        // A lesson with nothing for a worksheet: a usage error, not an empty PDF.
        const QString plain = dir.filePath(QStringLiteral("plain.md"));
        QVERIFY(writeAll(plain, "# Plain\n\nJust prose.\n"));
        QCOMPARE(exportWith(
                     {plain, QStringLiteral("--worksheet"), dir.filePath(QStringLiteral("w.pdf"))}),
                 int(ExitUsage));
    }

    void theExecutableRunsWithoutADisplay() {
        QTemporaryDir dir;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("WAYLAND_DISPLAY"));
        env.remove(QStringLiteral("QT_QPA_PLATFORM"));
        const auto run = [&](const QStringList& arguments) {
            QProcess process;
            process.setProcessEnvironment(env);
            process.start(QStringLiteral(ATTNBOOK_BINARY), arguments);
            if (!process.waitForFinished(120000)) {
                return -1;
            }
            return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2;
        };
        const QString pdf = dir.filePath(QStringLiteral("lesson.pdf"));
        QCOMPARE(run({QStringLiteral("export"), kLesson, QStringLiteral("--pdf"), pdf}), 0);
        QVERIFY(readAll(pdf).startsWith("%PDF-"));
        QCOMPARE(run({QStringLiteral("export"), kLesson, QStringLiteral("--pdf"),
                      dir.filePath(QStringLiteral("no/x.pdf"))}),
                 1);
        QCOMPARE(run({QStringLiteral("export"), kLesson}), 2);
    }
};

QTEST_MAIN(TestExportCommand)
#include "test_export_command.moc"
