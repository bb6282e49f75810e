#include "exports/html/html_cells.h"

#include "core/present/bound_markdown.h"
#include "core/present/gradient_view_html.h"
#include "core/present/next_words_view.h"
#include "core/present/transformer_view_html.h"
#include "core/present/view_html.h"
#include "core/present/view_titles.h"

#include "exports/html/html_escape.h"
#include "exports/html/html_figures.h"
#include "exports/html/html_quiz_form.h"
#include "exports/paint/pdf_transformer.h"

#include "core/document/html_comments.h"
#include "core/document/quiz_answer.h"
#include "core/math/number_format.h"

#include <algorithm>
#include <cmath>

namespace attnbook {

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

QString escaped(const std::string& s) {
    return htmlPageText(qs(s));
}

// The cell's element id: "cell-" and its id, as an attribute value.
QString cellAnchor(const std::string& id) {
    return htmlPageText(QStringLiteral("cell-") + qs(id));
}

QString cellHeader(const QString& kind, const std::string& id, const QString& summary) {
    return QStringLiteral("<p class=\"cell-head\"><span class=\"cell-kind\">%1 %2</span> "
                          "<span class=\"cell-summary\">%3</span></p>\n")
        .arg(htmlPageText(kind), escaped(id), htmlPageText(summary));
}

// One view of a cell: its title and what shows it (the live page replaces the body after a
// what-if, docs/web-page.md).
QString viewHtml(const QString& view, const QString& title, const QString& body) {
    return QStringLiteral("<figure class=\"view\" data-view=\"%1\">\n<figcaption>%2</figcaption>\n"
                          "<div class=\"view-body\">\n%3</div>\n</figure>\n")
        .arg(htmlPageText(view), htmlPageText(title), body);
}

// A print box drawn as the PDF draws it.
QString boxFigureHtml(const PdfBox& box, const QString& view, const QString& label) {
    return QStringLiteral("<figure class=\"view drawn\" data-view=\"%1\">\n<div class=\"paper\">"
                          "%2</div>\n</figure>\n")
        .arg(htmlPageText(view), boxSvg(box, htmlFigureArea().width, label));
}

} // namespace

CellPrintArea htmlFigureArea() {
    const PageGeometry a4 = pageGeometry(Paper::A4);
    return {a4.content().width(), a4.content().height()};
}

QString attentionCellHtml(const std::string& id, const AttentionCellSpec& spec,
                          const AttentionResult& r) {
    const CellPrintArea area = htmlFigureArea();
    QString html =
        QStringLiteral("<section class=\"cell attention\" id=\"%1\">\n").arg(cellAnchor(id)) +
        cellHeader(QStringLiteral("Attention"), id, attentionSummary(spec, r));
    // The reader gave an absent `views:` its default (docs/lesson-format.md); `views: []`
    // shows none, as in the window.
    const std::vector<std::string>& views = spec.views;
    for (const std::string& view : views) {
        // The views the live page redraws after a what-if are HTML from the core
        // (core/present/view_html.h); the others the PDF's figures.
        if (view == "matrices") {
            html += viewHtml(QStringLiteral("matrices"), QStringLiteral("Matrices"),
                             qs(attentionMatricesHtml(spec, r)));
            continue;
        }
        const int focus = spec.config.focus;
        if (view == "heatmap" || view == "shares") {
            html += viewHtml(qs(view), qs(viewTitle(view)),
                             qs(view == "heatmap" ? heatmapHtml(r) : sharesHtml(r, focus)));
            continue;
        }
        // Titled as the PDF titles them.
        if (view == "arithmetic") {
            html += viewHtml(qs(view), qs(viewTitle(view)) + QStringLiteral(", worked out"),
                             qs(arithmeticHtml(r, focus)));
            continue;
        }
        if (view == "trace") {
            html += viewHtml(qs(view), qs(viewTitle(view)) + QStringLiteral(", step by step"),
                             qs(traceHtml(r, focus)));
            continue;
        }
        if (view == "gradients") {
            html += viewHtml(qs(view), qs(viewTitle(view)), qs(attentionGradientsHtml(spec, r)));
            continue;
        }
        for (const PdfBoxPtr& box : attentionViewBoxes(spec, r, {view}, spec.config.focus, area)) {
            html += boxFigureHtml(*box, qs(view),
                                  QStringLiteral("%1 of cell %2").arg(qs(viewTitle(view)), qs(id)));
        }
    }
    return html + QLatin1String("</section>\n");
}

QString transformerCellHtml(const LessonCell& cell, const TransformerCellSpec& spec,
                            const TransformerResult& result) {
    const CellPrintArea area = htmlFigureArea();
    QString html =
        QStringLiteral("<section class=\"cell transformer\" id=\"%1\">\n")
            .arg(cellAnchor(cell.id)) +
        cellHeader(QStringLiteral("Transformer"), cell.id, transformerSummary(spec, result));
    const std::vector<PdfBoxPtr> boxes = transformerCellBoxes(cell, spec, result, area);
    // The first box is the cell's header, written above as text. The views the live page
    // redraws after a what-if are written as HTML from the core (core/present/view_html.h,
    // transformer_view_html.h); the other views are the PDF's figures.
    const auto shows = [&spec](const char* view) {
        return std::find(spec.views.begin(), spec.views.end(), view) != spec.views.end();
    };
    bool attentionDone = false;
    for (size_t i = 1; i < boxes.size(); ++i) {
        const std::string& view = boxes[i]->view;
        if (view == "attention" ||
            (attentionDone && view.empty() && boxes[i - 1]->view == "attention")) {
            // The layers' attention boxes (and the PDF's note of the layers it leaves out) are
            // one figure of HTML.
            if (!attentionDone) {
                html += viewHtml(QStringLiteral("attention"),
                                 result.layersRun > 1 ? QStringLiteral("Attention, layer by layer")
                                                      : QStringLiteral("Attention"),
                                 qs(transformerAttentionHtml(spec, result)));
                attentionDone = true;
            }
            continue;
        }
        if (view == "next") {
            const NextWordsView next = nextWordsView(spec, result);
            html += viewHtml(QStringLiteral("next"), qs(next.title), qs(nextWordsHtml(next)));
            continue;
        }
        if (view == "settings") {
            html += viewHtml(QStringLiteral("settings"), QStringLiteral("Settings"),
                             qs(transformerSettingsHtml(cell, spec, result)));
            continue;
        }
        std::string body;
        if (view == "stream") {
            body = streamHtml(result);
        } else if (view == "ffn") {
            body = ffnHtml(spec, result);
        } else if (view == "generation") {
            body = generationHtml(spec, result);
        } else if (view == "cache") {
            body = cacheHtml(spec, result, shows("generation"));
        } else if (view == "blocks") {
            body = blocksHtml(spec, result);
        } else if (view == "knockout") {
            body = knockoutHtml(result);
        } else if (view == "gradients") {
            body = transformerGradientsHtml(spec, result);
        } else if (view == "training") {
            body = trainingHtml(spec, result);
        }
        if (!body.empty()) {
            // Titled as the PDF titles them, less what a what-if may change (the focus token),
            // which the body says.
            const QString title =
                qs(viewTitle(view)) + (view == "cache" ? QStringLiteral(" of keys and values")
                                       : view == "ffn" ? QStringLiteral(": the hidden units")
                                                       : QString());
            html += viewHtml(qs(view), title, qs(body));
            continue;
        }
        html += boxFigureHtml(*boxes[i], view.empty() ? QStringLiteral("transformer") : qs(view),
                              QStringLiteral("Figure %1 of cell %2").arg(i).arg(qs(cell.id)));
    }
    return html + QLatin1String("</section>\n");
}

QString chartCellHtml(const std::string& id, const ChartCellSpec& chart,
                      const std::vector<ChartSeries>& series) {
    const CellPrintArea area = htmlFigureArea();
    QString html = QStringLiteral("<section class=\"cell chart\" id=\"%1\">\n").arg(cellAnchor(id));
    // The chart's PDF boxes: its header, then the chart; the header is written as text.
    const std::vector<PdfBoxPtr> boxes = chartCellBoxes(id, chart, series, area);
    QStringList labels;
    for (const ChartSeries& s : series) {
        labels << qs(s.label);
    }
    html += cellHeader(QStringLiteral("Chart"), id, labels.join(QStringLiteral(" · ")));
    for (size_t i = 1; i < boxes.size(); ++i) {
        html += boxFigureHtml(*boxes[i], QStringLiteral("chart"),
                              chart.title.empty() ? QStringLiteral("Chart %1").arg(qs(id))
                                                  : qs(chart.title));
    }
    return html + QLatin1String("</section>\n");
}

QString quizCellHtml(const std::string& id, const QuizCellSpec& quiz, int number,
                     const PresentedQuizText& text, const Json* answer,
                     const LessonResults& results, bool live) {
    HeadingIds noHeadings; // a quiz's text is not part of the page's outline
    ProseHtmlOptions options;
    options.headingShift = 2;
    options.foldSampleAnswers = false;
    QString html = QStringLiteral("<section class=\"cell quiz\" id=\"%1\">\n<p class=\"question-"
                                  "number\">Question %2</p>\n")
                       .arg(cellAnchor(id))
                       .arg(number);
    html += proseHtml(qs(text.question), noHeadings, nullptr, options);
    if (!text.choices.empty()) {
        html += QLatin1String("<ol class=\"choices\" type=\"A\">\n");
        for (const std::string& choice : text.choices) {
            html += QStringLiteral("<li>%1</li>\n").arg(inlineProseHtml(qs(choice)));
        }
        html += QLatin1String("</ol>\n");
    }
    if (live) {
        html += quizFormHtml(id, quiz, number, text);
    }
    html += QLatin1String("<details class=\"answer\"><summary>Show the answer</summary>\n");
    switch (quiz.answerKind) {
    case QuizCellSpec::AnswerKind::Choice: {
        const int i = answer && answer->isNumber() ? int(answer->number()) : quiz.choice;
        html += QStringLiteral("<p><strong>Answer: %1.</strong>").arg(QChar(u'A' + i));
        if (i >= 0 && size_t(i) < text.choices.size()) {
            html += u' ' + inlineProseHtml(qs(text.choices[size_t(i)]));
        }
        html += QLatin1String("</p>\n");
        break;
    }
    case QuizCellSpec::AnswerKind::Number:
    case QuizCellSpec::AnswerKind::Binding: {
        const double v = answer && answer->isNumber() ? answer->number() : quiz.number;
        // The live page writes the answer for the reader's what-if into its span.
        html += QStringLiteral("<p><strong>Answer: <span class=\"quiz-answer\">%1</span>"
                               "</strong></p>\n")
                    .arg(htmlPageText(qs(readableNumber(v, quizShownDecimals(quiz)))));
        break;
    }
    case QuizCellSpec::AnswerKind::Text:
        html += QLatin1String("<p><strong>Sample answer:</strong></p>\n") +
                proseHtml(qs(boundMarkdown(quiz.text, results)), noHeadings, nullptr, options);
        break;
    }
    if (!quiz.explain.empty()) {
        html += proseHtml(qs(text.explain), noHeadings, nullptr, options);
    }
    return html + QLatin1String("</details>\n</section>\n");
}

} // namespace attnbook
