#include "app/window/shot_command.h"

#include "app/cli/command_options.h"
#include "app/cli/exit_code.h"
#include "app/models/lesson_session.h"
#include "app/models/problem_list_model.h"
#include "app/window/window.h"
#include "core/document/diagnostic.h"
#include "files/lesson_source.h"
#include "files/output_policy.h"

#include <QBuffer>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QGuiApplication>
#include <QImage>
#include <QImageWriter>
#include <QPainter>
#include <QQmlApplicationEngine>
#include <QQuickItem>
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
    int maxSeconds = 10;
};

int usage(const QString& message) {
    std::cerr << "attnbook shot: " << message.toStdString()
              << "\nusage: attnbook shot FILE --out PAGE.png [--width W] [--cell ID] "
                 "[--theme light|dark] [--max-seconds S]\n";
    return ExitUsage;
}

// Reads the arguments after "shot" with the parser every command shares;
// returns the exit code on a usage error.
std::optional<int> parse(const QStringList& arguments, ShotOptions& options) {
    const CommandOptions given = parseCommandOptions(
        arguments, {.valued = {"--out", "--width", "--cell", "--theme", "--max-seconds"},
                    .repeatable = {},
                    .flags = {}});
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
    if (given.has("--max-seconds")) {
        const QString seconds = QString::fromStdString(given.value("--max-seconds"));
        bool ok = false;
        options.maxSeconds = seconds.toInt(&ok);
        if (!ok || options.maxSeconds < 3 || options.maxSeconds > 3600) {
            return usage(
                QStringLiteral("--max-seconds must be a whole number from 3 to 3600, not '%1'")
                    .arg(seconds));
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
// Six quiet rounds of 15 ms: a heavy cell (attention.md's playground) can be built a round
// later than four rounds of 10 ms wait for, and the page then ended above it.
// A deadline that passes ends the wait (the picture shows what is laid out by then), but never
// before one round of events: without it the window is not even laid out.
qreal settle(const std::function<qreal()>& height, const QDeadlineTimer& deadline) {
    QElapsedTimer total;
    total.start();
    qreal last = -1;
    int stable = 0;
    do {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        QThread::msleep(15);
        const qreal now = height();
        stable = now == last ? stable + 1 : 0;
        last = now;
    } while (total.elapsed() < 20000 && !deadline.hasExpired() && stable < 6);
    return last;
}

// The item called `name` among `item` and the items inside it (the visual tree: QML items
// need not be QObject children of the items they sit in).
QQuickItem* itemNamed(QQuickItem* item, const QString& name) {
    if (!item || item->objectName() == name) {
        return item;
    }
    for (QQuickItem* child : item->childItems()) {
        if (QQuickItem* found = itemNamed(child, name)) {
            return found;
        }
    }
    return nullptr;
}

// The lowest row of the first screen where the outline beside the view shows only its
// background and its edge (at most two columns differ from its first pixel): the page below
// the first screen repeats it. A long outline reaches the screen's bottom, and repeating a row
// that crosses its words drew stripes down the page.
int emptyRowBesideView(const QImage& screen, int viewLeft) {
    for (int y = screen.height() - 1; y >= std::max(0, screen.height() - 1500); --y) {
        const QRgb background = screen.pixel(0, y);
        int differing = 0;
        for (int x = 1; x < viewLeft && differing <= 2; ++x) {
            differing += screen.pixel(x, y) != background;
        }
        if (differing <= 2) {
            return y;
        }
    }
    return screen.height() - 1;
}

// Past this height a PNG is unwieldy and some viewers refuse it.
constexpr int kMaximumHeight = 32000;

// The picture drawWholePage made, and why it may stop short of the page's end.
struct WholePage {
    QImage image;
    int pageHeight = 0;      // the page's full height, in pixels
    double wholeSeconds = 0; // the estimated time for the whole page (when cut for time)
    bool cutForTime = false; // the picture stops where the time ran out
};

// The whole page of the window, drawn a screen at a time with the lesson view scrolled over
// it, so that only the rows near the screen are built (LessonView lets the others go): with
// the window as tall as the page, every row of attention.md was built at once and the
// command peaked at 509 MB. A first pass builds every row once, so that
// each keeps its own height and the page's height is final; the second draws, and costs about
// what the first did. The first pass therefore stops once it has used half of the time left
// (`deadline`), and the picture ends where it stopped: a long lesson gives the first part of
// its page within the time asked (docs/command-line.md), with the estimate for the whole. The
// second pass settles each screen until `lastDeadline`, the command's own: a screen that took
// longer than its share is still drawn laid out, out of the time kept for the PNG.
// The outline beside the view is drawn from the first screen: a longer outline is cut there.
WholePage drawWholePage(QQuickWindow& window, int width, const QDeadlineTimer& deadline,
                        const QDeadlineTimer& lastDeadline) {
    // A screen of 4000 pixels: fewer screens settle (each settle waits a few quiet frames),
    // at some 400 MB for attention.md.
    constexpr int kScreen = 4000;
    window.resize(width, kScreen);
    const auto pageHeight = [&window] { return window.property("pageHeight").toReal(); };
    settle(pageHeight, deadline);
    QQuickItem* view = itemNamed(window.contentItem(), QStringLiteral("lessonView"));
    // The view is laid out, or the screens below could not be counted.
    if (!view || view->height() < 100) {
        return {};
    }
    const auto lastTop = [view] {
        return std::max(0.0, view->property("contentHeight").toReal() - view->height());
    };
    WholePage result;
    // Only as far as the picture goes: a lesson of 40,000 paragraphs was built row by row to
    // its end (minutes) for a picture cut at kMaximumHeight.
    QElapsedTimer building;
    building.start();
    const qint64 buildingBudget = deadline.remainingTime() / 2;
    qreal built = 0;
    for (qreal y = 0; y <= std::min<qreal>(lastTop(), kMaximumHeight); y += view->height()) {
        if (y > 0 && building.elapsed() >= buildingBudget) {
            result.cutForTime = true;
            const double perPixel = double(building.elapsed()) / 1000.0 / built;
            result.wholeSeconds = 2 * perPixel * std::min<qreal>(pageHeight(), kMaximumHeight);
            break;
        }
        view->setProperty("contentY", y);
        settle(pageHeight, deadline);
        built = y + view->height();
    }
    result.pageHeight = int(std::ceil(pageHeight()));
    const int drawnTo = result.cutForTime ? int(std::ceil(view->mapToScene({0, 0}).y() + built))
                                          : result.pageHeight;
    const int height = std::clamp(drawnTo, 200, kMaximumHeight);
    QImage page(width, height, QImage::Format_RGB888);
    page.fill(window.color()); // not the allocator's bytes, should a screen fail to cover its part
    const QPointF viewAt = view->mapToScene(QPointF(0, 0));
    const int viewTop = int(std::round(viewAt.y()));
    const int viewLeft = int(std::round(viewAt.x()));
    QPainter painter(&page);
    for (qreal at = 0;; at += view->height()) {
        const qreal y = std::min(at, lastTop());
        view->setProperty("contentY", y);
        settle(pageHeight, lastDeadline);
        const QImage screen = window.grabWindow();
        if (screen.isNull()) {
            return {};
        }
        const int shown = int(std::ceil(view->height()));
        if (at == 0) {
            // The first screen whole (the header, the outline beside the view); below it,
            // the outline's empty background, as a window as tall as the page shows it.
            painter.drawImage(QPoint(0, 0), screen);
            const QRect besideView(0, emptyRowBesideView(screen, viewLeft), viewLeft, 1);
            painter.drawImage(QRect(0, screen.height(), viewLeft, height - screen.height()), screen,
                              besideView);
        }
        painter.drawImage(QPoint(viewLeft, viewTop + int(std::round(y))), screen,
                          QRect(viewLeft, viewTop, width - viewLeft, shown));
        if (y >= lastTop() || viewTop + y + shown >= height) {
            break;
        }
    }
    result.image = page;
    return result;
}

} // namespace

int runShotCommand(const QStringList& arguments) {
    QElapsedTimer started;
    started.start();
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
    // The time asked for starts with the command: reading the lesson and making the window
    // count.
    const QDeadlineTimer deadline(
        std::max<qint64>(0, options.maxSeconds * 1000 - started.elapsed()));
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
    // What is left of --max-seconds, less the PNG's encoding (up to two seconds for the tallest
    // picture on this machine), its writing and the start before this function: the first
    // pass's share comes out of `drawing`; the second pass may run on into `settling`.
    const QDeadlineTimer drawing(std::max<qint64>(0, deadline.remainingTime() - 3000));
    const QDeadlineTimer settling(std::max<qint64>(0, deadline.remainingTime() - 2000));
    const WholePage page = drawWholePage(*window, options.width, drawing, settling);
    const QImage& image = page.image;
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
    if (page.cutForTime) {
        std::cerr << "attnbook shot: the image shows the first " << image.height() << " of "
                  << std::min(page.pageHeight, kMaximumHeight)
                  << " pixels: the whole page would take about "
                  << int(std::ceil(page.wholeSeconds)) << " s to draw, and --max-seconds is "
                  << options.maxSeconds << " (--cell ID draws one cell)\n";
    } else if (page.pageHeight > kMaximumHeight) {
        std::cerr << "attnbook shot: the page is " << page.pageHeight
                  << " pixels tall; the image shows the first " << kMaximumHeight << "\n";
    }
    return ExitDone;
}

} // namespace attnbook
