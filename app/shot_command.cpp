#include "app/shot_command.h"

#include "app/command_options.h"
#include "app/exit_code.h"
#include "app/lesson_source.h"
#include "app/models/lesson_session.h"
#include "app/models/problem_list_model.h"
#include "app/window.h"
#include "core/document/diagnostic.h"
#include "exports/output_policy.h"

#include <QBuffer>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QGuiApplication>
#include <QImage>
#include <QImageWriter>
#include <QQmlApplicationEngine>
#include <QQuickWindow>
#include <QThread>

#include <cmath>
#include <iostream>
#include <optional>

namespace attnbook {
namespace {

struct ShotOptions {
    QString file;
    QString out;
    int width = 1180;
    QString cell;
    QString theme = QStringLiteral("light");
};

int usage(const QString& message) {
    std::cerr << "attnbook shot: " << message.toStdString()
              << "\nusage: attnbook shot FILE --out PAGE.png [--width W] [--cell ID] "
                 "[--theme light|dark]\n";
    return ExitUsage;
}

// Reads the arguments after "shot" with the parser every command shares;
// returns the exit code on a usage error.
std::optional<int> parse(const QStringList& arguments, ShotOptions& options) {
    const CommandOptions given = parseCommandOptions(
        arguments,
        {.valued = {"--out", "--width", "--cell", "--theme"}, .repeatable = {}, .flags = {}});
    if (!given.error.empty()) {
        return usage(QString::fromStdString(given.error));
    }
    options.file = QString::fromStdString(given.file);
    options.out = QString::fromStdString(given.value("--out"));
    options.cell = QString::fromStdString(given.value("--cell"));
    if (given.has("--width")) {
        const QString width = QString::fromStdString(given.value("--width"));
        bool ok = false;
        options.width = width.toInt(&ok);
        if (!ok || options.width < 320 || options.width > 8000) {
            return usage(QStringLiteral(
                             "--width must be a whole number of pixels from 320 to 8000, not '%1'")
                             .arg(width));
        }
    }
    if (given.has("--theme")) {
        options.theme = QString::fromStdString(given.value("--theme"));
        if (options.theme != QLatin1String("light") && options.theme != QLatin1String("dark")) {
            return usage(QStringLiteral("--theme is light or dark, not '%1'").arg(options.theme));
        }
    }
    if (options.out.isEmpty()) {
        return usage(QStringLiteral("--out PAGE.png is required"));
    }
    return std::nullopt;
}

// The lesson's errors as the window found them (the problem list of its
// session), printed as `check` prints them; true when there is one.
bool reportErrors(const LessonSession& session, const ShotOptions& options) {
    const ProblemListModel& problems = *session.problems();
    bool errors = false;
    for (int row = 0; row < problems.count(); ++row) {
        const ProblemListModel::Problem& problem = problems.problem(row);
        if (!problem.error) {
            continue;
        }
        Diagnostic d;
        d.line = problem.line;
        d.column = problem.column;
        d.message = problem.message.toStdString();
        std::cerr << formatDiagnostic(options.file.toStdString(), d) << '\n';
        errors = true;
    }
    return errors;
}

// Runs the event loop until `height()` has stayed the same for a while:
// layouts, text and charts settle over a few frames.
qreal settle(const std::function<qreal()>& height) {
    QElapsedTimer total;
    total.start();
    qreal last = -1;
    int stable = 0;
    while (total.elapsed() < 20000 && stable < 6) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        QThread::msleep(15);
        const qreal now = height();
        stable = now == last ? stable + 1 : 0;
        last = now;
    }
    return last;
}

} // namespace

int runShotCommand(const QStringList& arguments) {
    ShotOptions options;
    if (const std::optional<int> code = parse(arguments, options)) {
        return *code;
    }
    // The output policy before any work: never over the lesson or a file it reads (its data
    // files, its vocab labels, or a link to one), a device, a FIFO or a folder; the same inputs
    // `export` and `edit` protect (lessonInputs).
    const Lesson lesson = openLessonSource(options.file.toStdString());
    if (const QString problem = outputsProblem({options.out}, lessonInputs(lesson, options.file));
        !problem.isEmpty()) {
        std::cerr << problem.toStdString() << '\n';
        return ExitOutputFailed;
    }
    // The software renderer draws the same pixels with or without a GPU.
    QQuickWindow::setGraphicsApi(QSGRendererInterface::Software);
    chooseControlsStyle();
    QQmlApplicationEngine engine;
    addModuleImportPath(engine);
    engine.setInitialProperties({{QStringLiteral("initialPath"), options.file},
                                 {QStringLiteral("themeName"), options.theme},
                                 {QStringLiteral("shotMode"), true},
                                 {QStringLiteral("shotCell"), options.cell}});
    engine.load(QUrl(QString::fromLatin1(kMainQml)));
    auto* window = qobject_cast<QQuickWindow*>(engine.rootObjects().value(0));
    if (!window) {
        std::cerr << "attnbook shot: the window could not be created\n";
        return ExitOutputFailed;
    }
    // The window has read and computed the lesson: refuse what `check` refuses.
    const auto* session =
        qobject_cast<const LessonSession*>(window->property("session").value<QObject*>());
    if (!session) {
        std::cerr << "attnbook shot: the window has no lesson session\n";
        return ExitOutputFailed;
    }
    if (reportErrors(*session, options)) {
        return ExitInvalidDocument;
    }
    if (!options.cell.isEmpty() && !session->cell(options.cell)) {
        std::cerr << options.file.toStdString() << ": error: there is no cell '"
                  << options.cell.toStdString() << "'\n";
        return ExitUsage;
    }
    window->resize(options.width, 900);
    const auto pageHeight = [window] { return window->property("pageHeight").toReal(); };
    qreal height = settle(pageHeight);
    // Past this height a PNG is unwieldy and some viewers refuse it.
    constexpr int kMaximumHeight = 32000;
    const int pixels = std::clamp(int(std::ceil(height)), 200, kMaximumHeight);
    window->resize(options.width, pixels);
    settle(pageHeight);
    const QImage image = window->grabWindow();
    if (image.isNull()) {
        std::cerr << "attnbook shot: the window could not be drawn\n";
        return ExitOutputFailed;
    }
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    QImageWriter writer(&buffer, "png");
    if (!writer.write(image)) {
        std::cerr << options.out.toStdString()
                  << ": cannot write: " << writer.errorString().toStdString() << '\n';
        return ExitOutputFailed;
    }
    QString error;
    if (!writeOutputFile(options.out, png, &error)) {
        std::cerr << error.toStdString() << '\n';
        return ExitOutputFailed;
    }
    if (height > kMaximumHeight) {
        std::cerr << "attnbook shot: the page is " << int(height)
                  << " pixels tall; the image shows the first " << kMaximumHeight << "\n";
    }
    return ExitDone;
}

} // namespace attnbook
