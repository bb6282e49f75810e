// attnbook-export-bench: how long the exports of the default lesson take, end to end (compute,
// lay out, paint, write atomically): the lesson as PDF (target < 1 s), as a bundle, and a
// 30-variant worksheet with its answer key (target < 10 s). The first run of each is reported
// apart: it loads and caches the fonts.
//
//   attnbook-export-bench [LESSON.md] [--runs N]
#include "exports/lesson_bundle.h"
#include "exports/pdf/pdf_lesson.h"
#include "exports/worksheet/worksheet_pdf.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QTemporaryDir>
#include <QtCore/QThread>
#include <QtGui/QGuiApplication>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

using namespace attnbook;

namespace {

struct Timing {
    double first = 0;
    double best = 0;
    double median = 0;
};

Timing timeIt(int runs, const std::function<bool()>& work) {
    std::vector<double> seconds;
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer timer;
        timer.start();
        if (!work()) {
            std::fprintf(stderr, "attnbook-export-bench: an export failed\n");
            std::exit(1);
        }
        seconds.push_back(double(timer.nsecsElapsed()) / 1e9);
    }
    Timing t;
    t.first = seconds.front();
    std::vector<double> rest(seconds.begin() + (seconds.size() > 1 ? 1 : 0), seconds.end());
    std::sort(rest.begin(), rest.end());
    t.best = rest.front();
    t.median = rest[rest.size() / 2];
    return t;
}

} // namespace

int main(int argc, char* argv[]) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QGuiApplication app(argc, argv);
    QString file = QStringLiteral(ATTNBOOK_SOURCE_DIR "/documents/attention.md");
    int runs = 5;
    const QStringList args = app.arguments().mid(1);
    for (int i = 0; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--runs") && i + 1 < args.size()) {
            runs = std::max(2, args[++i].toInt());
        } else {
            file = args[i];
        }
    }
    const Lesson lesson = loadLesson(file.toStdString());
    if (hasErrors(lesson.diagnostics)) {
        std::fprintf(stderr, "attnbook-export-bench: %s does not load\n", qPrintable(file));
        return 1;
    }
    QTemporaryDir dir;
    const auto computed = [&] {
        AttentionEngine engine;
        return computeLesson(lesson, engine);
    };

    std::printf("%s, %d cells, %d cores, %d runs each (seconds)\n", qPrintable(file),
                int(lesson.cells.size()), QThread::idealThreadCount(), runs);
    std::printf("%-40s %8s %8s %8s\n", "export", "first", "best", "median");
    const auto report = [](const char* what, const Timing& t) {
        std::printf("%-40s %8.3f %8.3f %8.3f\n", what, t.first, t.best, t.median);
    };
    report("lesson PDF (compute + PDF + write)", timeIt(runs, [&] {
               return exportLessonPdf(dir.filePath(QStringLiteral("lesson.pdf")), lesson,
                                      computed(), Paper::A4)
                   .ok();
           }));
    report("bundle (PDFs, data, figures, zip)", timeIt(runs, [&] {
               return exportLessonBundle(dir.filePath(QStringLiteral("lesson.zip")), lesson,
                                         computed(), {})
                   .ok();
           }));
    // 30 sheets by a roster of 30: the default lesson's quizzes allow only 6 variants that all
    // differ, so `--variants 30` is refused, while a roster draws one per name.
    WorksheetOptions sheets;
    for (int i = 1; i <= 30; ++i) {
        sheets.roster << QStringLiteral("Student %1").arg(i);
    }
    sheets.seed = 42;
    report("worksheet, roster of 30, with key", timeIt(runs, [&] {
               return exportWorksheets(lesson, sheets, dir.filePath(QStringLiteral("w.pdf")),
                                       dir.filePath(QStringLiteral("k.pdf")))
                   .ok();
           }));
    return 0;
}
