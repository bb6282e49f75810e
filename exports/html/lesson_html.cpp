#include "exports/html/lesson_html.h"

#include "exports/html/html_cells.h"
#include "exports/html/html_escape.h"
#include "exports/html/html_live.h"
#include "exports/html/html_page_style.h"
#include "exports/html/html_prose.h"
#include "exports/html/html_quiz_form.h"

#include "core/present/presented_lesson.h"

namespace attnbook {

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

// The title block: title, subtitle, and the author and date on one line.
QString titleBlock(const PresentedTitle& shown, HeadingIds& ids,
                   std::vector<PageHeading>& headings) {
    if (shown.empty()) {
        return {};
    }
    const QString title = qs(shown.title);
    QString html = QStringLiteral("<header class=\"title-block\">\n");
    if (!title.isEmpty()) {
        const QString id = ids.take(title);
        headings.push_back({1, title, id});
        html +=
            QStringLiteral("<h1 id=\"%1\">%2</h1>\n").arg(htmlPageText(id), htmlPageText(title));
    }
    if (!shown.subtitle.empty()) {
        html +=
            QStringLiteral("<p class=\"subtitle\">%1</p>\n").arg(htmlPageText(qs(shown.subtitle)));
    }
    if (!shown.byline.empty()) {
        QStringList byline;
        for (const std::string& part : shown.byline) {
            byline << qs(part);
        }
        html += QStringLiteral("<p class=\"byline\">%1</p>\n")
                    .arg(htmlPageText(byline.join(QStringLiteral(" · "))));
    }
    return html + QLatin1String("</header>\n");
}

// The outline: headings of the first three levels, each a link to its place.
QString outlineNav(const std::vector<PageHeading>& headings) {
    QString html = QStringLiteral("<nav aria-label=\"Contents\">\n<h2>Contents</h2>\n<ol>\n");
    for (const PageHeading& h : headings) {
        if (h.level > 3) {
            continue;
        }
        html += QStringLiteral("<li class=\"level-%1\"><a href=\"#%2\">%3</a></li>\n")
                    .arg(h.level)
                    .arg(htmlPageText(h.id), htmlPageText(h.text));
    }
    return html + QLatin1String("</ol>\n</nav>\n");
}

} // namespace

ExportResult renderLessonHtml(const Lesson& lesson, const LessonResults& results, QByteArray* html,
                              const ExportControl& control) {
    const PresentedLesson shown = presentLesson(lesson, results, ProseMarks::Live);
    HeadingIds ids;
    for (const LessonCell& cell : lesson.cells) {
        ids.reserve(QStringLiteral("cell-") + qs(cell.id)); // as html_cells.h names them
        if (const QuizCellSpec* quiz = cell.quiz()) {
            for (const QString& id : quizFormIds(cell.id, *quiz)) {
                ids.reserve(id);
            }
        }
    }
    std::vector<PageHeading> headings;
    QString body = titleBlock(shown.title, ids, headings);
    LivePageScripts live;
    if (QString error; !livePageScripts(lesson, &live, &error)) {
        return ExportResult::failed(error);
    }
    const int total = int(shown.parts.size());
    int done = 0;
    for (const PresentedPart& part : shown.parts) {
        control.report(done++, total, QStringLiteral("the web page"));
        if (control.cancelled()) {
            return ExportResult::cancelled();
        }
        if (!part.isCell()) {
            body += proseHtml(qs(part.prose().markdown), ids, &headings);
            continue;
        }
        const LessonCell& cell = *part.cell().cell;
        const ComputedCell* computed = part.cell().computed;
        if (const AttentionCellSpec* spec = cell.attention();
            spec && computed && computed->attention) {
            body += attentionCellHtml(cell.id, *spec, *computed->attention);
            body += whatIfControlsHtml(cell);
        } else if (const TransformerCellSpec* transformer = cell.transformer();
                   transformer && computed && computed->transformer) {
            body += transformerCellHtml(cell, *transformer, *computed->transformer);
            body += whatIfControlsHtml(cell);
        } else if (const ChartCellSpec* chart = cell.chart(); chart && computed && computed->ok) {
            body += chartCellHtml(cell.id, *chart, computed->series);
        } else if (const QuizCellSpec* quiz = cell.quiz()) {
            body += quizCellHtml(cell.id, *quiz, part.cell().question, part.cell().quiz,
                                 computed ? computed->json.find("answer") : nullptr, results,
                                 !live.html.isEmpty());
        }
    }
    // Nothing to fetch: styles, pictures and scripts are inside, and only the page's own
    // scripts run (their hashes), when the page is live.
    // The module reads its own WebAssembly from a data: URL (connect-src data:), which
    // reaches no network.
    const QString scriptPolicy =
        live.scriptSrc.isEmpty()
            ? QString()
            : QStringLiteral("; script-src %1; connect-src data:").arg(live.scriptSrc.join(u' '));
    const QString title = qs(lesson.title());
    QString page =
        QStringLiteral("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                       "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src "
                       "'none'; style-src 'unsafe-inline'; img-src data:%4\">\n"
                       "<meta name=\"color-scheme\" content=\"light dark\">\n"
                       "<meta name=\"generator\" content=\"attnbook %1\">\n"
                       "<title>%2</title>\n<style>%3</style>\n</head>\n<body>\n"
                       "<div class=\"layout\">\n")
            .arg(QStringLiteral(ATTNBOOK_VERSION), htmlPageText(title), htmlPageStyle(),
                 scriptPolicy);
    const NumberedProse numbered = numberedProsePieces(lesson); // its quizzes' words too
    page += withLiveElements(outlineNav(headings), numbered);
    page += QStringLiteral("<main>\n%1%2<footer>Made with attnbook %3 from the lesson's own "
                           "numbers; the same lesson prints as a PDF and runs as a Jupyter "
                           "notebook.</footer>\n</main>\n</div>\n%4</body>\n</html>\n")
                .arg(live.html.isEmpty() ? QString() : liveBarHtml(),
                     withLiveElements(body, numbered), QStringLiteral(ATTNBOOK_VERSION), live.html);
    *html = page.toUtf8();
    control.report(total, total, QStringLiteral("done"));
    return ExportResult::done();
}

} // namespace attnbook
