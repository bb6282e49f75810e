// One route for every action: the window and the command line read, compute, check
// and export a lesson through the same code, so they agree on every problem, every gradient
// check and every exported byte. Each side is driven as a user drives it: the command line as
// the real `attnbook` process, the window through its session and its File → Export controller.
#include "tests/exports/pdf_text.h"
#include "tests/test_files.h"

#include "app/models/attention_cell_model.h"
#include "app/models/export_controller.h"
#include "app/models/lesson_session.h"

#include <quazip/quazip.h>
#include <quazip/quazipfile.h>

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <map>

using namespace attnbook;

namespace {

struct Run {
    int exitCode = -1;
    QByteArray out;
    QString errors;
};

Run runAttnbook(const QStringList& arguments) {
    QProcess process;
    process.start(QStringLiteral(ATTNBOOK_EXECUTABLE), arguments);
    if (!process.waitForFinished(300000)) {
        process.kill();
        return {};
    }
    return {process.exitCode(), process.readAllStandardOutput(),
            QString::fromUtf8(process.readAllStandardError())};
}

// "line:column: error|warning: message" for each problem, in the order given.
QStringList cliProblems(const QString& file) {
    const Run run = runAttnbook({QStringLiteral("check"), file});
    QStringList out;
    static const QRegularExpression line(
        QStringLiteral("^.*?:(\\d+):(\\d+): (error|warning): (.*)$"));
    for (const QString& text : run.errors.split(u'\n', Qt::SkipEmptyParts)) {
        const QRegularExpressionMatch m = line.match(text);
        out << (m.hasMatch() ? QStringLiteral("%1:%2: %3: %4")
                                   .arg(m.captured(1), m.captured(2), m.captured(3), m.captured(4))
                             : text);
    }
    return out;
}

QStringList windowProblems(const LessonSession& session) {
    QStringList out;
    const ProblemListModel* problems = session.problems();
    for (int i = 0; i < problems->count(); ++i) {
        const ProblemListModel::Problem& p = problems->problem(i);
        out << QStringLiteral("%1:%2: %3: %4")
                   .arg(p.line)
                   .arg(std::max(p.column, 1))
                   .arg(p.error ? QStringLiteral("error") : QStringLiteral("warning"), p.message);
    }
    return out;
}

QStringList sorted(QStringList list) {
    list.sort();
    return list;
}

std::map<QString, QByteArray> zipEntries(const QString& path) {
    std::map<QString, QByteArray> entries;
    QuaZip zip(path);
    if (!zip.open(QuaZip::mdUnzip)) {
        return entries;
    }
    for (bool more = zip.goToFirstFile(); more; more = zip.goToNextFile()) {
        QuaZipFile file(&zip);
        if (file.open(QIODevice::ReadOnly)) {
            entries[zip.getCurrentFileName()] = file.readAll();
        }
    }
    return entries;
}

bool render(ExportController& controller) {
    QSignalSpy finished(&controller, &ExportController::renderFinished);
    if (!controller.renderPreview() || !finished.wait(300000)) {
        qWarning() << "no render:" << controller.error();
        return false;
    }
    return finished.at(0).at(0).toBool();
}

QStringList lessons() {
    return {QStringLiteral(ATTNBOOK_SOURCE_DIR "/documents/attention.md"),
            QStringLiteral(ATTNBOOK_SOURCE_DIR "/documents/transformers.md"),
            QStringLiteral(ATTNBOOK_SOURCE_DIR "/documents/template.md")};
}

} // namespace

class OneRouteTest : public QObject {
    Q_OBJECT

  private Q_SLOTS:
    void initTestCase() {
        QApplication::setOrganizationName(QStringLiteral("attnbook-tests"));
        QApplication::setApplicationName(QStringLiteral("attnbook-one-route-tests"));
    }

    // Every shipped lesson and every broken fixture: the window lists exactly the problems
    // `attnbook check` prints, at the same lines and columns, in the same words.
    void sameProblemsAtTheSameLines_data() {
        QTest::addColumn<QString>("file");
        for (const QString& lesson : lessons()) {
            QTest::newRow(qPrintable(QFileInfo(lesson).fileName())) << lesson;
        }
        const QDir errors(QStringLiteral(ATTNBOOK_FIXTURES "/errors"));
        for (const QString& name : errors.entryList({QStringLiteral("*.md")}, QDir::Files)) {
            QTest::newRow(qPrintable(name)) << errors.filePath(name);
        }
    }
    void sameProblemsAtTheSameLines() {
        QFETCH(QString, file);
        LessonSession session;
        session.open(file);
        const QStringList cli = cliProblems(file);
        QCOMPARE(sorted(windowProblems(session)), sorted(cli));
        if (file.contains(QLatin1String("/errors/"))) {
            // Every fixture shows what it is named for: a warning, or else an error.
            const bool warning = file.endsWith(QLatin1String("_warning.md"));
            QVERIFY2((warning ? session.problems()->warningCount()
                              : session.problems()->errorCount()) > 0,
                     "a fixture must show its problem");
        }
    }

    // The gradient check the window shows for each cell is the one `compute` prints.
    void sameGradientCheck_data() {
        QTest::addColumn<QString>("file");
        for (const QString& lesson : lessons()) {
            QTest::newRow(qPrintable(QFileInfo(lesson).fileName())) << lesson;
        }
    }
    void sameGradientCheck() {
        QFETCH(QString, file);
        const Run run = runAttnbook({QStringLiteral("compute"), file});
        QCOMPARE(run.exitCode, 0);
        const QJsonArray cells = QJsonDocument::fromJson(run.out).object()["cells"].toArray();
        LessonSession session;
        QVERIFY(session.open(file));
        int compared = 0;
        for (const QJsonValue& value : cells) {
            const QJsonObject cell = value.toObject();
            if (cell["kind"].toString() != QLatin1String("attention")) {
                continue;
            }
            auto* model = qobject_cast<AttentionCellModel*>(session.cell(cell["id"].toString()));
            QVERIFY2(model, qPrintable(cell["id"].toString()));
            const double cli = cell["gradcheck"].toObject()["max_rel_error"].toDouble();
            QCOMPARE(model->maxRelError(), cli); // the very same double
            ++compared;
        }
        QVERIFY(compared > 0 || file.endsWith(QLatin1String("template.md")));
    }

    // The same lesson exported by the command line and by File → Export: the same pages of text,
    // and the same bundle entries byte for byte (the manifest's date and the PDFs' creation
    // dates aside).
    void sameExports() {
        QTemporaryDir dir;
        const QString lesson = lessons().front();
        const QString cliPdf = dir.filePath(QStringLiteral("cli.pdf"));
        const QString cliZip = dir.filePath(QStringLiteral("cli.zip"));
        const Run run = runAttnbook({QStringLiteral("export"), lesson, QStringLiteral("--pdf"),
                                     cliPdf, QStringLiteral("--bundle"), cliZip});
        QVERIFY2(run.exitCode == 0, qPrintable(run.errors));

        LessonSession session;
        QVERIFY(session.open(lesson));
        ExportController controller;
        controller.setSession(&session);
        controller.setKind(ExportController::LessonPdf);
        QVERIFY(render(controller));
        const QString windowPdf = dir.filePath(QStringLiteral("window.pdf"));
        QVERIFY2(controller.save(windowPdf), qPrintable(controller.error()));
        controller.setKind(ExportController::Bundle);
        QVERIFY(render(controller));
        const QString windowZip = dir.filePath(QStringLiteral("window.zip"));
        QVERIFY2(controller.save(windowZip), qPrintable(controller.error()));

        const QStringList cliPages = pdfPageTexts(readAll(cliPdf));
        QVERIFY(cliPages.size() > 3);
        QCOMPARE(pdfPageTexts(readAll(windowPdf)), cliPages);

        const std::map<QString, QByteArray> cli = zipEntries(cliZip);
        const std::map<QString, QByteArray> window = zipEntries(windowZip);
        QVERIFY(cli.size() > 5);
        QCOMPARE(window.size(), cli.size());
        for (const auto& [name, bytes] : cli) {
            QVERIFY2(window.count(name), qPrintable(name));
            if (name.endsWith(QLatin1String(".pdf"))) {
                QCOMPARE(pdfPageTexts(window.at(name)), pdfPageTexts(bytes));
            } else if (name != QLatin1String("manifest.json")) {
                QVERIFY2(window.at(name) == bytes, qPrintable(name));
            }
        }
    }

    // The transformer lesson: its PDF, its worksheet in 3 variants with the key, its
    // bundle and its notebook, from File → Export and from `attnbook export`, are the same
    // (page texts for PDFs, the creation dates aside; bytes for the rest).
    void transformerLessonSameExports() {
        QTemporaryDir dir;
        const QString lesson = QStringLiteral(ATTNBOOK_SOURCE_DIR "/documents/transformer.md");
        const auto cli = [&](const QString& name) {
            return dir.filePath(QStringLiteral("cli-") + name);
        };
        const Run run =
            runAttnbook({QStringLiteral("export"), lesson, QStringLiteral("--pdf"),
                         cli(QStringLiteral("t.pdf")), QStringLiteral("--worksheet"),
                         cli(QStringLiteral("w.pdf")), QStringLiteral("--answers"),
                         cli(QStringLiteral("w-answers.pdf")), QStringLiteral("--variants"),
                         QStringLiteral("3"), QStringLiteral("--seed"), QStringLiteral("5"),
                         QStringLiteral("--bundle"), cli(QStringLiteral("t.zip")),
                         QStringLiteral("--notebook"), cli(QStringLiteral("t.ipynb"))});
        QVERIFY2(run.exitCode == 0, qPrintable(run.errors));

        LessonSession session;
        QVERIFY(session.open(lesson));
        ExportController controller;
        controller.setSession(&session);
        const auto window = [&](ExportController::Kind kind, const QString& name) {
            controller.setKind(kind);
            if (!render(controller)) {
                return QString();
            }
            const QString path = dir.filePath(QStringLiteral("window-") + name);
            return controller.save(path) ? path : QString();
        };
        const QString pdf = window(ExportController::LessonPdf, QStringLiteral("t.pdf"));
        QVERIFY2(!pdf.isEmpty(), qPrintable(controller.error()));
        QCOMPARE(pdfPageTexts(readAll(pdf)), pdfPageTexts(readAll(cli(QStringLiteral("t.pdf")))));

        controller.setAnswers(true);
        controller.setVariants(3);
        controller.setSeed(QStringLiteral("5"));
        const QString sheet = window(ExportController::Worksheet, QStringLiteral("w.pdf"));
        QVERIFY2(!sheet.isEmpty(), qPrintable(controller.error()));
        const QStringList sheetPages = pdfPageTexts(readAll(cli(QStringLiteral("w.pdf"))));
        QVERIFY(sheetPages.size() >= 3);
        QCOMPARE(pdfPageTexts(readAll(sheet)), sheetPages);
        QCOMPARE(pdfPageTexts(readAll(dir.filePath(QStringLiteral("window-w-answers.pdf")))),
                 pdfPageTexts(readAll(cli(QStringLiteral("w-answers.pdf")))));

        const QString notebook = window(ExportController::Notebook, QStringLiteral("t.ipynb"));
        QVERIFY2(!notebook.isEmpty(), qPrintable(controller.error()));
        QVERIFY(readAll(notebook) == readAll(cli(QStringLiteral("t.ipynb"))));

        const QString bundle = window(ExportController::Bundle, QStringLiteral("t.zip"));
        QVERIFY2(!bundle.isEmpty(), qPrintable(controller.error()));
        const std::map<QString, QByteArray> fromCli = zipEntries(cli(QStringLiteral("t.zip")));
        const std::map<QString, QByteArray> fromWindow = zipEntries(bundle);
        QCOMPARE(fromWindow.size(), fromCli.size());
        QVERIFY(fromCli.count(QStringLiteral("data/files/data/tiny/model.safetensors")));
        for (const auto& [name, bytes] : fromCli) {
            QVERIFY2(fromWindow.count(name), qPrintable(name));
            if (name.endsWith(QLatin1String(".pdf"))) {
                QCOMPARE(pdfPageTexts(fromWindow.at(name)), pdfPageTexts(bytes));
            } else if (name != QLatin1String("manifest.json")) {
                QVERIFY2(fromWindow.at(name) == bytes, qPrintable(name));
            }
        }
    }

    // A paper size the command line refuses is refused by the window too, not printed as A4.
    void badPaperRefusedByBoth() {
        QTemporaryDir dir;
        const QString lesson = lessons().front();
        const Run run = runAttnbook({QStringLiteral("export"), lesson, QStringLiteral("--pdf"),
                                     dir.filePath(QStringLiteral("x.pdf")),
                                     QStringLiteral("--paper"), QStringLiteral("b5")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.errors.contains(QLatin1String("a4 or letter, not b5")),
                 qPrintable(run.errors));

        LessonSession session;
        QVERIFY(session.open(lesson));
        ExportController controller;
        controller.setSession(&session);
        controller.setPaper(QStringLiteral("b5"));
        QVERIFY(controller.optionsProblem().contains(QLatin1String("a4 or letter, not b5")));
        QVERIFY(!controller.renderPreview());
        QVERIFY(controller.error().contains(QLatin1String("not b5")));
        controller.setPaper(QStringLiteral("Letter"));
        QVERIFY(controller.optionsProblem().isEmpty());
        QCOMPARE(controller.request().paper, Paper::Letter);
    }
};

QTEST_MAIN(OneRouteTest)
#include "test_one_route.moc"
