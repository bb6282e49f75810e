// Writes hostile lessons of the notebook's property test (hostile_lessons.h) as files, for the
// web page's test in Chromium (hostile_page_check.py): FOLDER/K/lesson.md with its data files,
// K = 0 … COUNT-1, each with as many of its fields hostile at once as the lesson accepts. Each
// field takes its hostile strings in the property test's order, the reproducers first (the
// chart's variable and its formula in turn, as the formulas are written in n); lesson 0
// puts first in every field a string made to break out of a web page (a script, an event
// handler, javascript:, data: and http: links, U+2028, a control character, quotes). Prints one
// JSON line per lesson: {"lesson": K, "fields": {FIELD: VALUE, …}}, the hostile fields only.
#include "tests/exports/hostile_lessons.h"

#include "core/document/lesson.h"
#include "core/math/attention_engine.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QDir>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTemporaryDir>

#include <cstdio>
#include <cstdlib>

using namespace attnbook;
using namespace attnbook::hostile;

namespace {

// What a web page must never run or fetch, in one string.
const std::string kWebBreakOut =
    "\"'><img src=x onerror=alert(1)></script><script>alert(2)"
    "</script><a href=\"javascript:alert(3)\">j</a> javascript:alert(4) "
    "data:text/html,<svg/onload=alert(5)> "
    "<img src=\"http://127.0.0.1:9/leak.png\">\xe2\x80\xa8\x01 end";

// Whether the lesson made from `f` checks (its data files written to `folder`).
bool checks(const QString& folder, const Fields& f) {
    QDir(folder).removeRecursively();
    QDir().mkpath(folder);
    if (!writeDataFiles(folder, f)) {
        return false;
    }
    const Lesson lesson = parseLesson(lessonText(f), (folder + "/lesson.md").toStdString());
    AttentionEngine engine;
    const LessonResults results = computeLesson(lesson, engine);
    return !hasErrors(lessonProblems(lesson, results));
}

} // namespace

int main(int argc, char* argv[]) {
    QCoreApplication app(argc, argv);
    if (argc != 3 || std::atoi(argv[2]) < 1) {
        std::fprintf(stderr, "usage: write_hostile_lessons FOLDER COUNT\n");
        return 2;
    }
    const QString out = QString::fromLocal8Bit(argv[1]);
    const int count = std::atoi(argv[2]);
    QTemporaryDir scratch;
    // Code that would leave a marker file, were it ever run (as in the property test).
    const std::string breakOut = "x\nimport os\nos.system('touch " +
                                 scratch.filePath(QStringLiteral("pwned")).toStdString() + "')\n#";
    std::vector<Field> fields = hostileFields(breakOut);
    for (Field& field : fields) {
        field.values.insert(field.values.begin(), kWebBreakOut);
    }
    std::vector<size_t> next(fields.size(), 0);
    for (int k = 0; k < count; ++k) {
        Fields f;
        QJsonObject hostile;
        for (size_t i = 0; i < fields.size(); ++i) {
            // The formulas are written in n: a lesson makes either the chart's variable or its
            // formula hostile, in turn.
            if (std::string(fields[i].name) == (k % 2 == 0 ? "formula" : "variable")) {
                continue;
            }
            // The field's next strings until one the lesson accepts with the fields before it.
            for (int tries = 0; tries < 50 && next[i] < fields[i].values.size(); ++tries) {
                Fields candidate = f;
                const std::string& value = fields[i].values[next[i]++];
                fields[i].set(candidate, value);
                if (checks(scratch.filePath(QStringLiteral("try")), candidate)) {
                    f = candidate;
                    hostile.insert(QString::fromLatin1(fields[i].name),
                                   QString::fromStdString(value));
                    break;
                }
            }
        }
        const QString folder = out + QStringLiteral("/%1").arg(k);
        if (!checks(folder, f)) {
            std::fprintf(stderr, "write_hostile_lessons: lesson %d does not check\n", k);
            return 1;
        }
        QFile lesson(folder + QStringLiteral("/lesson.md"));
        const std::string text = lessonText(f);
        if (!lesson.open(QIODevice::WriteOnly) ||
            lesson.write(text.data(), qint64(text.size())) != qint64(text.size())) {
            std::fprintf(stderr, "write_hostile_lessons: cannot write %s\n",
                         qPrintable(lesson.fileName()));
            return 1;
        }
        const QJsonObject line{{"lesson", k}, {"fields", hostile}};
        std::printf("%s\n", QJsonDocument(line).toJson(QJsonDocument::Compact).constData());
    }
    return 0;
}
