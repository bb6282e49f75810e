// Longer than 500 lines on purpose: one printed box per view of an attention cell (matrices,
// heatmap, shares, arithmetic, trace, gradients) plus the chart and quiz boxes, all built from
// the same few table and caption helpers at the top; split, each part would need those helpers
// in a shared header of their own.
#include "exports/paint/pdf_cells.h"

#include "core/present/bound_markdown.h"
#include "core/present/view_titles.h"

#include "core/math/worked_steps.h"
#include "exports/paint/pdf_prose.h"

#include <QtGui/QAbstractTextDocumentLayout>
#include <QtGui/QPainter>
#include <QtGui/QTextBlock>
#include <QtGui/QTextCursor>
#include <QtGui/QTextDocument>
#include <QtGui/QTextList>

#include <cmath>

namespace attnbook {

// The gradient check in words, as the window says it (gradientCheckSentences), without the
// slopes: short lines, since a figure label does not wrap.
QStringList gradientCheckLines(const GradientCheckReport& check) {
    QStringList lines;
    for (const std::string& line : gradientCheckSentences(check, false)) {
        lines << QString::fromStdString(line);
    }
    return lines;
}

namespace {

constexpr int kMaxHeadsShown = 4;
constexpr size_t kMaxLinesPerSection = 16;

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

QString num(double v, int digits = 4) {
    return qs(readableNumber(v, digits));
}

QStringList qStringList(const std::vector<std::string>& texts) {
    QStringList out;
    for (const std::string& text : texts) {
        out << qs(text);
    }
    return out;
}

} // namespace

PdfBoxPtr cellHeaderBox(const QString& kind, const std::string& id, const QString& summary,
                        const CellPrintArea& area) {
    const QFont summaryFont = pdf::font(pdf::kSans, 8);
    auto doc = htmlDocument(QStringLiteral("<span style=\"color:%1; font-weight:bold\">%2 %3</span>"
                                           "<span style=\"color:%4\">&nbsp;&nbsp;%5</span>")
                                .arg(pdf::kAccent.name(), htmlEscaped(kind), htmlEscaped(qs(id)),
                                     pdf::kMuted.name(), htmlEscaped(summary)),
                            summaryFont, area.width);
    const Figure text = textFigure(doc);
    const qreal w = area.width;
    Figure header{QSizeF(w, text.size.height() + 6), [text, w](QPainter& p) {
                      p.setPen(QPen(pdf::kAccent, 1.2));
                      p.drawLine(QPointF(0, 0.6), QPointF(w, 0.6));
                      p.translate(0, 5);
                      text.paint(p);
                  }};
    auto box = std::make_shared<FigureRowsBox>(area.width, area.maxHeight);
    box->addRow({{header}});
    box->keepWithNext = true;
    box->keepTogether = true;
    box->spaceBefore = 12;
    return box;
}

namespace {

Figure viewTitleFigure(const QString& title, qreal width) {
    return labelFigure(title, pdf::font(pdf::kSans, 8.5, true), pdf::kInk, width);
}

} // namespace

std::shared_ptr<FigureRowsBox> cellViewBox(const QString& title, const CellPrintArea& area) {
    auto box = std::make_shared<FigureRowsBox>(area.width, area.maxHeight);
    FigureRowsBox::Row titleRow{{viewTitleFigure(title, area.width)}};
    titleRow.keepWithNext = true;
    box->addRow(titleRow);
    box->keepTogether = true;
    box->spaceBefore = 9;
    return box;
}

namespace {

std::shared_ptr<FigureRowsBox> viewBox(const QString& title, const CellPrintArea& area) {
    return cellViewBox(title, area);
}

MatrixTable table(QString caption, QString note, QStringList rows, QStringList cols,
                  arma::mat values) {
    MatrixTable t;
    t.caption = std::move(caption);
    t.note = std::move(note);
    t.rowLabels = std::move(rows);
    t.columnLabels = std::move(cols);
    t.values = std::move(values);
    return t;
}

QString formulaHtml(const std::string& text) {
    return htmlEscaped(keptTogether(qs(text)));
}

// Lines numbered (1), (2), ... in a two-column table so that wrapped lines hang.
QString numberedLines(const std::vector<std::string>& lines, int& counter) {
    QString html = QStringLiteral("<table cellspacing=\"0\" cellpadding=\"1\" width=\"100%\">");
    const size_t shown = std::min(lines.size(), kMaxLinesPerSection);
    for (size_t i = 0; i < shown; ++i) {
        html += QStringLiteral("<tr><td width=\"26\" align=\"right\" style=\"color:%1\">(%2)</td>"
                               "<td>&nbsp;%3</td></tr>")
                    .arg(pdf::kMuted.name())
                    .arg(++counter)
                    .arg(formulaHtml(lines[i]));
    }
    if (shown < lines.size()) {
        html +=
            QStringLiteral("<tr><td></td><td style=\"color:%1\">&nbsp;… %2 more lines</td></tr>")
                .arg(pdf::kMuted.name())
                .arg(lines.size() - shown);
    }
    return html + QStringLiteral("</table>");
}

QString headLabel(const AttentionResult& r, int head) {
    return r.h > 1 ? QStringLiteral("Head %1, ").arg(head + 1) : QString();
}

const QFont& viewTextFont() {
    static const QFont font = pdf::font(pdf::kSans, 8);
    return font;
}

// A row of small print that introduces the rows after it ("Head 2", "query red (row 1)").
FigureRowsBox::Row introRow(const QString& html, const CellPrintArea& area, qreal spaceBefore) {
    FigureRowsBox::Row row{
        {textFigure(htmlDocument(html, viewTextFont(), area.width))}, 14, spaceBefore};
    row.keepWithNext = true;
    return row;
}

// One row per section of the worked arithmetic, so a long one can break between sections.
PdfBoxPtr arithmeticView(const AttentionResult& r, int focus, const CellPrintArea& area,
                         const AttentionViewOptions& o) {
    auto box =
        viewBox(o.titlePrefix + qs(viewTitle("arithmetic")) + QStringLiteral(", worked out"), area);
    for (int head = 0; head < std::min(r.h, kMaxHeadsShown); ++head) {
        box->addRow(introRow(
            QStringLiteral("<p style=\"color:%1\">%2query %3 (row %4)</p>")
                .arg(pdf::kMuted.name(), headLabel(r, head), htmlEscaped(qs(queryLabel(r, focus))))
                .arg(focus + 1),
            area, head == 0 ? 6 : 10));
        int counter = 0;
        for (const WorkedSection& section : workedArithmetic(r, head, focus)) {
            const QString html =
                QStringLiteral("<p><b>%1</b></p>").arg(htmlEscaped(qs(section.title))) +
                numberedLines(section.lines, counter);
            box->addRow({{textFigure(htmlDocument(html, viewTextFont(), area.width))}, 14, 3});
        }
    }
    return box;
}

// One row per step of the trace, each a two-column table of the same widths, so the steps line
// up and a long trace can break between steps.
PdfBoxPtr traceView(const AttentionResult& r, int focus, const CellPrintArea& area,
                    const AttentionViewOptions& o) {
    auto box =
        viewBox(o.titlePrefix + qs(viewTitle("trace")) + QStringLiteral(", step by step"), area);
    for (int head = 0; head < std::min(r.h, kMaxHeadsShown); ++head) {
        if (r.h > 1) {
            box->addRow(introRow(QStringLiteral("<p style=\"color:%1\">Head %2</p>")
                                     .arg(pdf::kMuted.name())
                                     .arg(head + 1),
                                 area, head == 0 ? 6 : 10));
        }
        bool first = r.h == 1;
        for (const TraceStep& step : traceSteps(r, head, focus)) {
            QStringList lines;
            const size_t shown = std::min(step.lines.size(), kMaxLinesPerSection);
            for (size_t i = 0; i < shown; ++i) {
                lines << formulaHtml(step.lines[i]);
            }
            if (shown < step.lines.size()) {
                lines << QStringLiteral("… %1 more").arg(step.lines.size() - shown);
            }
            const QString html =
                QStringLiteral("<table cellspacing=\"0\" cellpadding=\"1.5\" width=\"100%\">"
                               "<tr><td width=\"150\"><b>%1</b></td><td>%2</td></tr></table>")
                    .arg(formulaHtml(step.title), lines.join(QStringLiteral("<br>")));
            box->addRow({{textFigure(htmlDocument(html, viewTextFont(), area.width))},
                         14,
                         first ? qreal(6) : qreal(3)});
            first = false;
        }
    }
    return box;
}

PdfBoxPtr matricesView(const AttentionCellSpec& spec, const AttentionResult& r,
                       const CellPrintArea& area, const AttentionViewOptions& o) {
    auto box = viewBox(o.titlePrefix + qs(viewTitle("matrices")), area);
    std::vector<std::vector<Figure>> groups;
    int group = -1;
    for (NamedMatrix& m : attentionMatrices(spec, r, true)) {
        if (m.group != group || groups.empty()) {
            groups.emplace_back();
            group = m.group;
        }
        if (m.name == QLatin1String("X") && !o.inputCaption.isEmpty()) {
            m.table.caption = o.inputCaption;
            m.table.note = o.inputNote;
        }
        groups.back().push_back(matrixFigure(m.table));
    }
    box->addGroups(groups, 18, 8);
    QString note;
    if (!r.direct && plainProjection(spec.config.wQ, spec.config.bQ) &&
        plainProjection(spec.config.wK, spec.config.bK) &&
        plainProjection(spec.config.wV, spec.config.bV)) {
        note = QStringLiteral("Q = K = V = %1 here: the projections are the identity and the "
                              "biases zero.")
                   .arg(o.inputCaption.isEmpty() ? QStringLiteral("X") : QStringLiteral("H"));
    }
    if (!note.isEmpty()) {
        box->addRow({{labelFigure(note, pdf::font(pdf::kSans, pdf::kTiny, false, true), pdf::kMuted,
                                  area.width)},
                     0,
                     4});
    }
    return box;
}

PdfBoxPtr heatmapView(const AttentionResult& r, const CellPrintArea& area,
                      const AttentionViewOptions& o) {
    auto box = viewBox(o.titlePrefix + qs(viewTitle("heatmap")), area);
    std::vector<Figure> figures;
    for (int head = 0; head < std::min(r.h, kMaxHeadsShown); ++head) {
        figures.push_back(heatmapFigure(r, head));
    }
    box->addFlow(figures, 24, 6);
    return box;
}

PdfBoxPtr sharesView(const AttentionResult& r, int focus, const CellPrintArea& area,
                     const AttentionViewOptions& o) {
    auto box = viewBox(o.titlePrefix + qs(viewTitle("shares")), area);
    std::vector<Figure> figures;
    for (int head = 0; head < std::min(r.h, kMaxHeadsShown); ++head) {
        figures.push_back(sharesFigure(r, head, focus, r.h > 1 ? area.width / 2 - 12 : area.width));
    }
    box->addFlow(figures, 24, 6);
    return box;
}

PdfBoxPtr gradientsView(const AttentionResult& r, const CellPrintArea& area,
                        const AttentionViewOptions& o) {
    auto box = viewBox(o.titlePrefix + qs(viewTitle("gradients")), area);
    const AttentionGradients& g = r.grad;
    const QStringList rows = queryLabels(r);
    std::vector<Figure> figures;
    const auto add = [&](const QString& caption, const QStringList& rowLabels, const arma::mat& m) {
        if (!m.is_empty()) {
            figures.push_back(
                matrixFigure(table(caption, {}, rowLabels, coordinateLabels(int(m.n_cols)), m)));
        }
    };
    const auto vec = [&](const QString& caption, const arma::rowvec& v) {
        if (!v.is_empty()) {
            figures.push_back(matrixFigure(
                table(caption, {}, {QString()}, coordinateLabels(int(v.n_elem)), arma::mat(v))));
        }
    };
    add(QStringLiteral("G_Y = ∂L/∂Y"), rows, g.upstream);
    if (r.direct) {
        add(QStringLiteral("∂L/∂Q"), rows, g.queries);
        add(QStringLiteral("∂L/∂K"), keyLabels(r), g.keys);
        add(QStringLiteral("∂L/∂V"), keyLabels(r), g.values);
    } else {
        add(QStringLiteral("∂L/∂X"), rows, g.X);
        const QStringList units = coordinateLabels(int(g.W_Q.n_rows));
        add(QStringLiteral("∂L/∂W_Q"), units, g.W_Q);
        add(QStringLiteral("∂L/∂W_K"), units, g.W_K);
        add(QStringLiteral("∂L/∂W_V"), coordinateLabels(int(g.W_V.n_rows)), g.W_V);
        add(QStringLiteral("∂L/∂W_O"), coordinateLabels(int(g.W_O.n_rows)), g.W_O);
        vec(QStringLiteral("∂L/∂b_Q"), g.b_Q);
        vec(QStringLiteral("∂L/∂b_K"), g.b_K);
        vec(QStringLiteral("∂L/∂b_V"), g.b_V);
        vec(QStringLiteral("∂L/∂b_O"), g.b_O);
    }
    box->addFlow(figures, 18, 8);
    for (const QString& line : gradientCheckLines(r.gradcheck)) {
        box->addRow({{labelFigure(line, pdf::font(pdf::kSans, 8), pdf::kInk, area.width)}, 0, 2});
    }
    return box;
}

} // namespace

QString attentionSummary(const AttentionCellSpec& spec, const AttentionResult& r) {
    return qs(attentionSummaryText(spec, r));
}

std::vector<NamedMatrix> attentionMatrices(const AttentionCellSpec& spec, const AttentionResult& r,
                                           bool compact) {
    std::vector<NamedMatrix> out;
    for (PresentedMatrix& m : presentedMatrices(spec, r, compact)) {
        MatrixTable t;
        t.caption = qs(m.caption);
        t.note = qs(m.note);
        t.rowLabels = qStringList(m.rowLabels);
        t.columnLabels = qStringList(m.columnLabels);
        t.values = std::move(m.values);
        t.blocked = std::move(m.blocked);
        t.digits = m.digits;
        t.maxRows = m.maxRows;
        t.maxColumns = m.maxColumns;
        out.push_back({qs(m.name), m.head, std::move(t), m.group});
    }
    return out;
}

std::vector<PdfBoxPtr> attentionViewBoxes(const AttentionCellSpec& spec, const AttentionResult& r,
                                          const std::vector<std::string>& views, int focus,
                                          const CellPrintArea& area,
                                          const AttentionViewOptions& options) {
    std::vector<PdfBoxPtr> boxes;
    focus = std::clamp(focus, 0, std::max(0, r.n - 1));
    for (const std::string& view : views) {
        PdfBoxPtr box;
        if (view == "matrices") {
            box = matricesView(spec, r, area, options);
        } else if (view == "heatmap") {
            box = heatmapView(r, area, options);
        } else if (view == "shares") {
            box = sharesView(r, focus, area, options);
        } else if (view == "arithmetic") {
            box = arithmeticView(r, focus, area, options);
        } else if (view == "trace") {
            box = traceView(r, focus, area, options);
        } else if (view == "gradients") {
            box = gradientsView(r, area, options);
        }
        if (box) {
            boxes.push_back(box);
        }
    }
    return boxes;
}

std::vector<PdfBoxPtr> attentionCellBoxes(const std::string& id, const AttentionCellSpec& spec,
                                          const AttentionResult& r, const CellPrintArea& area) {
    std::vector<PdfBoxPtr> boxes;
    boxes.push_back(
        cellHeaderBox(QStringLiteral("Attention"), id, attentionSummary(spec, r), area));
    // The reader gave an absent `views:` its default (docs/lesson-format.md); `views: []`
    // shows none, as in the window.
    const std::vector<std::string>& views = spec.views;
    for (PdfBoxPtr& box : attentionViewBoxes(spec, r, views, spec.config.focus, area)) {
        boxes.push_back(std::move(box));
    }
    if (!boxes.empty()) {
        std::const_pointer_cast<PdfBox>(boxes.back())->keepWithNext = false;
    }
    return boxes;
}

std::vector<PdfBoxPtr> chartCellBoxes(const std::string& id, const ChartCellSpec& chart,
                                      const std::vector<ChartSeries>& series,
                                      const CellPrintArea& area) {
    std::vector<PdfBoxPtr> boxes;
    QStringList labels;
    for (const ChartSeries& s : series) {
        labels << qs(s.label);
    }
    boxes.push_back(cellHeaderBox(QStringLiteral("Chart"), id,
                                  QStringLiteral("%1 series over %2 from %3 to %4")
                                      .arg(series.size())
                                      .arg(qs(chart.variable), num(chart.from), num(chart.to)),
                                  area));
    auto box = std::make_shared<FigureRowsBox>(area.width, area.maxHeight);
    box->addRow({{chartFigure(chart, series,
                              QSizeF(area.width, std::min<qreal>(250, area.width * 0.55)))}});
    box->keepTogether = true;
    box->spaceBefore = 6;
    boxes.push_back(box);
    return boxes;
}

std::vector<PdfBoxPtr> quizCellBoxes(const QuizCellSpec& quiz, int number,
                                     const LessonResults& results, const CellPrintArea& area) {
    QString markdown = QStringLiteral("**Question %1.** ").arg(number) +
                       qs(boundMarkdown(quiz.question, results)) + QStringLiteral("\n");
    if (!quiz.choices.empty()) {
        markdown += QStringLiteral("\n\n");
        for (size_t i = 0; i < quiz.choices.size(); ++i) {
            markdown += QStringLiteral("%1. %2\n")
                            .arg(i + 1)
                            .arg(qs(boundMarkdown(quiz.choices[i], results)));
        }
    }
    const qreal pad = 8;
    PrintProseStyle style;
    style.justify = false;
    auto doc = markdownDocument(markdown, area.width - 2 * pad - 3, style);
    if (!quiz.choices.empty()) { // the choices read A, B, C
        QTextList* last = nullptr;
        for (QTextBlock b = doc->begin(); b.isValid(); b = b.next()) {
            if (b.textList()) {
                last = b.textList();
            }
        }
        if (last) {
            QTextListFormat f = last->format();
            f.setStyle(QTextListFormat::ListUpperAlpha);
            last->setFormat(f);
            doc->markContentsDirty(0, doc->characterCount());
        }
    }
    const Figure text = textFigure(doc);
    const qreal w = area.width;
    Figure figure{QSizeF(w, text.size.height() + 2 * pad - 4), [text, w, pad](QPainter& p) {
                      const QRectF r(0, 0, w, text.size.height() + 2 * pad - 4);
                      p.fillRect(r, pdf::kCodeBackground);
                      p.fillRect(QRectF(0, 0, 3, r.height()), pdf::kAccent);
                      p.translate(pad + 3, pad - 2);
                      text.paint(p);
                  }};
    auto box = std::make_shared<FigureRowsBox>(area.width, area.maxHeight);
    box->addRow({{figure}});
    box->keepTogether = true;
    box->spaceBefore = 8;
    return {box};
}

} // namespace attnbook
