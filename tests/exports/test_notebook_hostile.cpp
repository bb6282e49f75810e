// No lesson text ever becomes notebook code. For every field of every cell kind that
// reaches a generated notebook (front matter, prose, token labels, a data file's name, a
// .safetensors tensor name, a chart's title, labels, variable and formula, a quiz's question,
// choices, explanation and sample answer, a transformer cell's id, token labels and vocab words,
// which reach its targets, the next word and the generated words), 500 hostile strings are put into
// an otherwise benign lesson. Every lesson that `check` accepts is exported as a notebook, and
// notebook_ast_check.py (Debian's python3) then proves, for each:
//   - every code cell parses, and its syntax tree has exactly the shape of the benign lesson's
//     (the same statements and expressions; only string values and names may differ),
//   - every quiz's answer stays folded: one <details> and one </details>, in place,
//   - the whole notebook runs from the top.
// The reproducers of the hostile round come first in each field's list (hostile_lessons.h).
#include "tests/exports/hostile_lessons.h"

#include "exports/notebook/lesson_notebook.h"

#include "core/document/lesson.h"
#include "core/math/attention_engine.h"

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtTest>

using namespace attnbook;
using namespace attnbook::hostile;

namespace {

// The notebook of the lesson made from `f`, or empty when the lesson does not check (hostile
// text may well be refused; what is accepted must be safe).
QByteArray notebookOf(const QString& folder, const Fields& f) {
    if (!writeDataFiles(folder, f)) {
        return {};
    }
    const Lesson lesson = parseLesson(lessonText(f), (folder + "/lesson.md").toStdString());
    AttentionEngine engine;
    const LessonResults results = computeLesson(lesson, engine);
    if (hasErrors(lessonProblems(lesson, results))) {
        return {};
    }
    QByteArray bytes;
    return renderLessonNotebook(lesson, results, &bytes).ok() ? bytes : QByteArray();
}

} // namespace

class TestNotebookHostile : public QObject {
    Q_OBJECT

  private Q_SLOTS:
    void noLessonTextBecomesCode() {
        QTemporaryDir work;
        QVERIFY(work.isValid());
        // Code that would leave a file in the test's own folder, were it ever run.
        const QString marker = work.filePath(QStringLiteral("pwned"));
        const std::string breakOut =
            "x\nimport os\nos.system('touch " + marker.toStdString() + "')\n#";
        const std::vector<Field> fields = hostileFields(breakOut);

        // One line per notebook: {"field": ..., "notebook": {...}}, the benign lesson first.
        const QString listPath = work.filePath(QStringLiteral("notebooks.jsonl"));
        QFile list(listPath);
        QVERIFY(list.open(QIODevice::WriteOnly));
        int lessonNumber = 0;
        auto addNotebook = [&](const QString& field, const Fields& f) {
            const QString folder = work.filePath(QString::number(lessonNumber++));
            QDir().mkpath(folder);
            const QByteArray notebook = notebookOf(folder, f);
            if (notebook.isEmpty()) {
                return false;
            }
            const QJsonObject line{{"field", field},
                                   {"notebook", QJsonDocument::fromJson(notebook).object()}};
            list.write(QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n');
            QDir(folder).removeRecursively();
            return true;
        };
        QVERIFY2(addNotebook(QStringLiteral("benign"), Fields{}), "the benign lesson checks");
        for (const Field& field : fields) {
            int accepted = 0;
            for (const std::string& value : field.values) {
                Fields f;
                field.set(f, value);
                accepted += addNotebook(QString::fromLatin1(field.name), f) ? 1 : 0;
            }
            qInfo("%s: %d of %zu hostile lessons check and are exported", field.name, accepted,
                  field.values.size());
            QVERIFY2(accepted >= field.minimumAccepted,
                     qPrintable(QStringLiteral("too few %1 strings accepted: the test would not "
                                               "reach the generator")
                                    .arg(QString::fromLatin1(field.name))));
        }
        list.close();

        QProcess python;
        python.setProcessChannelMode(QProcess::ForwardedChannels);
        python.start(
            QStringLiteral(ATTNBOOK_PYTHON3),
            {QStringLiteral(ATTNBOOK_SOURCE_DIR "/tests/exports/notebook_ast_check.py"), listPath});
        QVERIFY(python.waitForFinished(600000));
        QCOMPARE(python.exitStatus(), QProcess::NormalExit);
        QCOMPARE(python.exitCode(), 0);
        QVERIFY2(!QFile::exists(marker), "a hostile lesson ran code");
    }
};

QTEST_GUILESS_MAIN(TestNotebookHostile)
#include "test_notebook_hostile.moc"
