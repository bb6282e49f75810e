#include "exports/pdf/pdf_lesson.h"

#include "exports/paint/pdf_cells.h"
#include "exports/paint/pdf_prose.h"
#include "exports/paint/pdf_render.h"
#include "exports/paint/pdf_transformer.h"
#include "files/export_output.h"

#include "core/document/sample_answers.h"
#include "core/present/presented_lesson.h"

#include <QtCore/QBuffer>
#include <QtGui/QPainter>

namespace attnbook {

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

// The title block: title, subtitle, and the author and date on one line.
PdfBoxPtr titleBlock(const PresentedTitle& shown, const CellPrintArea& area) {
    if (shown.empty()) {
        return nullptr;
    }
    const QString title = qs(shown.title);
    const QString subtitle = qs(shown.subtitle);
    QStringList byline;
    for (const std::string& part : shown.byline) {
        byline << qs(part);
    }
    auto box = std::make_shared<FigureRowsBox>(area.width, area.maxHeight);
    const auto block = [&](const QString& text, const QFont& font, const QColor& colour,
                           qreal space) {
        const QString html =
            QStringLiteral("<p style=\"color:%1\">%2</p>").arg(colour.name(), htmlEscaped(text));
        box->addRow({{textFigure(htmlDocument(html, font, area.width))}, 0, space});
    };
    if (!title.isEmpty()) {
        block(title, pdf::font(pdf::kSans, 24, true), pdf::kAccent, 0);
    }
    if (!subtitle.isEmpty()) {
        block(subtitle, pdf::font(pdf::kSerif, 13, false, true), pdf::kInk, 4);
    }
    if (!byline.isEmpty()) {
        block(byline.join(QStringLiteral(" · ")), pdf::font(pdf::kSans, 9), pdf::kMuted, 8);
    }
    const qreal w = area.width;
    box->addRow({{Figure{QSizeF(w, 4),
                         [w](QPainter& p) {
                             p.setPen(QPen(pdf::kRule, 0.8));
                             p.drawLine(QPointF(0, 2), QPointF(w, 2));
                         }}},
                 0,
                 12});
    return box;
}

// Nothing, at the top of a new page.
class PageBreak final : public PdfBox {
  public:
    PageBreak() { pageBreakBefore = true; }
    qreal height() const override { return 0; }
    void paint(QPainter&, qreal, qreal) const override {}
};

} // namespace

PdfSection lessonSection(const Lesson& lesson, const LessonResults& results,
                         const PageGeometry& geometry) {
    PdfSection section;
    const CellPrintArea area{geometry.content().width(), geometry.content().height()};
    const PresentedLesson shown = presentLesson(lesson, results);
    if (PdfBoxPtr title = titleBlock(shown.title, area)) {
        section.boxes.push_back(title);
    }
    bool afterCell = false;
    // Coding challenges' sample answers go to the end (sample_answers.h): a student with the
    // printed lesson tries each challenge before the answer is in sight.
    std::vector<SampleAnswer> answers;
    for (const PresentedPart& part : shown.parts) {
        if (!part.isCell()) {
            ProseWithoutAnswers taken = takeSampleAnswers(part.prose().markdown);
            std::move(taken.answers.begin(), taken.answers.end(), std::back_inserter(answers));
            const QString markdown = qs(taken.markdown);
            if (markdown.trimmed().isEmpty()) {
                continue;
            }
            for (PdfBoxPtr& box :
                 proseBoxes(markdownDocument(markdown, area.width), afterCell ? 10 : 0)) {
                section.boxes.push_back(std::move(box));
            }
            afterCell = false;
            continue;
        }
        const LessonCell& cell = *part.cell().cell;
        const ComputedCell* computed = part.cell().computed;
        std::vector<PdfBoxPtr> boxes;
        if (const AttentionCellSpec* spec = cell.attention();
            spec && computed && computed->attention) {
            boxes = attentionCellBoxes(cell.id, *spec, *computed->attention, area);
        } else if (const TransformerCellSpec* transformer = cell.transformer();
                   transformer && computed && computed->transformer) {
            boxes = transformerCellBoxes(cell, *transformer, *computed->transformer, area);
        } else if (const ChartCellSpec* chart = cell.chart(); chart && computed && computed->ok) {
            boxes = chartCellBoxes(cell.id, *chart, computed->series, area);
        } else if (const QuizCellSpec* quiz = cell.quiz()) {
            boxes = quizCellBoxes(*quiz, part.cell().question, results, area);
        }
        section.boxes.insert(section.boxes.end(), boxes.begin(), boxes.end());
        afterCell = !boxes.empty();
    }
    if (!answers.empty()) {
        // Bold titles rather than headings: the outline lists the challenges once.
        std::string appendix =
            "**" + std::string(answers.size() == 1 ? "Sample answer" : "Sample answers") + "**\n\n";
        for (const SampleAnswer& answer : answers) {
            std::string body = answer.markdown;
            body.erase(0, body.find('\n') + 1); // the line that named it: the title says so
            appendix += (answer.heading.empty() ? std::string() : "*" + answer.heading + "*\n\n") +
                        body + "\n\n";
        }
        section.boxes.push_back(std::make_shared<PageBreak>()); // out of sight of the challenges
        for (PdfBoxPtr& box : proseBoxes(markdownDocument(qs(appendix), area.width), 0)) {
            section.boxes.push_back(std::move(box));
        }
    }
    section.footerLeft = qs(lesson.title());
    paginate(section, geometry.content().height());
    return section;
}

ExportResult renderLessonPdf(const Lesson& lesson, const LessonResults& results, Paper paper,
                             QByteArray* pdf, const ExportControl& control) {
    const PageGeometry geometry = pageGeometry(paper);
    control.report(0, 1, QStringLiteral("laying out the lesson"));
    const PdfSection section = lessonSection(lesson, results, geometry);
    if (control.cancelled()) {
        return ExportResult::cancelled();
    }
    QBuffer buffer(pdf);
    buffer.open(QIODevice::WriteOnly);
    PdfDocumentInfo info(qs(lesson.title()));
    info.author = qs(lesson.document.frontMatterValue("author"));
    info.subject = qs(lesson.document.frontMatterValue("subtitle"));
    return renderPdf(buffer, geometry, info, {&section}, control);
}

ExportResult exportLessonPdf(const QString& path, const Lesson& lesson,
                             const LessonResults& results, Paper paper,
                             const ExportControl& control) {
    if (const QString problem = outputProblem(path); !problem.isEmpty()) {
        return ExportResult::failed(problem);
    }
    QByteArray pdf;
    if (ExportResult r = renderLessonPdf(lesson, results, paper, &pdf, control); !r.ok()) {
        return r;
    }
    return writeOutputs({{path, pdf}}, control);
}

} // namespace attnbook
