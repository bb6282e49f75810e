// One sheet of a variant, laid out: the title, the name line, each exercise with its givens
// and answer boxes, and the questions. The answer key is laid out by the same code as its
// worksheet (only `Sheet` differs), so that a key matches its sheet page for page.
#include "exports/worksheet/worksheet_sheet.h"

#include "core/present/bound_markdown.h"
#include "core/present/presented_lesson.h"

#include "core/document/cell_cost.h"
#include "core/document/quiz_answer.h"
#include "core/document/source_text.h"
#include "core/math/worked_steps.h"
#include "exports/paint/pdf_cells.h"
#include "exports/paint/pdf_figures.h"
#include "exports/paint/pdf_layout.h"
#include "exports/paint/pdf_prose.h"
#include "exports/paint/pdf_render.h"
#include "exports/worksheet/worksheet_answers.h"
#include "exports/worksheet/worksheet_transformer.h"
#include "files/export_output.h"

#include <QtConcurrent/QtConcurrentRun>
#include <QtCore/QBuffer>
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QRegularExpression>
#include <QtCore/QSemaphore>
#include <QtCore/QThreadPool>
#include <QtGui/QAbstractTextDocumentLayout>
#include <QtGui/QFontMetricsF>
#include <QtGui/QPainter>
#include <QtGui/QTextBlock>
#include <QtGui/QTextCursor>
#include <QtGui/QTextDocument>

#include <algorithm>
#include <cmath>
#include <set>

namespace attnbook {

namespace {

constexpr int kDigits = 4;

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

QString num(double v, int digits = kDigits) {
    return qs(readableNumber(v, digits));
}

// ---- Page furniture of a sheet ----

PdfBoxPtr titleBox(const QString& lessonTitle, Sheet sheet, const CellPrintArea& area) {
    auto box = std::make_shared<FigureRowsBox>(area.width, area.maxHeight);
    const QString title = lessonTitle + (sheet == Sheet::Key ? QStringLiteral(" — Answer key")
                                                             : QStringLiteral(" — Worksheet"));
    box->addRow({{textFigure(htmlDocument(
        QStringLiteral("<p style=\"color:%1\">%2</p>").arg(pdf::kAccent.name(), htmlEscaped(title)),
        pdf::font(pdf::kSans, 18, true), area.width))}});
    const QString instructions =
        sheet == Sheet::Key
            ? QStringLiteral(
                  "The filled boxes and every answer, on the same pages as the worksheet.")
            : QStringLiteral(
                  "Work each exercise by hand. Fill in every empty box, rounded to %1 decimal "
                  "places; hatched boxes are blocked by the mask and stay empty.")
                  .arg(kDigits);
    box->addRow({{textFigure(htmlDocument(QStringLiteral("<p style=\"color:%1\">%2</p>")
                                              .arg(pdf::kMuted.name(), htmlEscaped(instructions)),
                                          pdf::font(pdf::kSerif, 9.5, false, true), area.width))},
                 0,
                 4});
    return box;
}

// "Name ______ Date ______", the student's name written in; on the key, the variant instead.
PdfBoxPtr nameBox(Sheet sheet, const QString& student, const QString& variantLabel,
                  const CellPrintArea& area) {
    const qreal w = area.width;
    const QFont label = pdf::font(pdf::kSans, 9);
    const QFont filled = pdf::font(pdf::kSerif, 11, false, true);
    Figure line{QSizeF(w, 26), [=](QPainter& p) {
                    const qreal base = 20;
                    p.setFont(label);
                    p.setPen(pdf::kMuted);
                    if (sheet == Sheet::Key) {
                        p.drawText(QRectF(0, 0, w, base + 2), Qt::AlignLeft | Qt::AlignBottom,
                                   QStringLiteral("Answers for: ") + variantLabel);
                        return;
                    }
                    const qreal dateX = w * 0.68;
                    p.drawText(QRectF(0, 0, 40, base + 2), Qt::AlignLeft | Qt::AlignBottom,
                               QStringLiteral("Name"));
                    p.drawText(QRectF(dateX, 0, 40, base + 2), Qt::AlignLeft | Qt::AlignBottom,
                               QStringLiteral("Date"));
                    p.setPen(QPen(pdf::kInk, 0.6));
                    p.drawLine(QPointF(34, base + 1), QPointF(dateX - 16, base + 1));
                    p.drawLine(QPointF(dateX + 30, base + 1), QPointF(w, base + 1));
                    if (!student.isEmpty()) {
                        p.setFont(filled);
                        p.setPen(pdf::kInk);
                        p.drawText(QRectF(42, 0, dateX - 60, base - 1),
                                   Qt::AlignLeft | Qt::AlignBottom, student);
                    }
                }};
    auto box = std::make_shared<FigureRowsBox>(area.width, area.maxHeight);
    box->addRow({{line}});
    box->spaceBefore = 8;
    return box;
}

PdfBoxPtr headingBox(const QString& text, const CellPrintArea& area, qreal spaceBefore = 16) {
    auto box = std::make_shared<FigureRowsBox>(area.width, area.maxHeight);
    box->addRow({{textFigure(htmlDocument(QStringLiteral("<p>%1</p>").arg(htmlEscaped(text)),
                                          pdf::font(pdf::kSans, 12, true), area.width))}});
    box->keepWithNext = true;
    box->keepTogether = true;
    box->spaceBefore = spaceBefore;
    return box;
}

// ---- Exercises ----

// Where a matrix comes in the computation: what is before the first blank may be printed.
int stageOf(const QString& name, bool direct) {
    if (name == "Q" || name == "K" || name == "V") {
        return direct ? 0 : 1;
    }
    static const std::map<QString, int> stages = {
        {"scores", 2}, {"weights", 3}, {"context", 4}, {"concat", 5}, {"output", 6}};
    const auto it = stages.find(name);
    return it == stages.end() ? 0 : it->second; // inputs: X0, P, X, W_*
}

QString headWord(int h) {
    static const char* const words[] = {"", "One head", "Two heads", "Three heads", "Four heads"};
    return h >= 1 && h <= 4 ? QString::fromLatin1(words[h]) : QStringLiteral("%1 heads").arg(h);
}

// The set-up of the exercise in words.
QString givensText(const AttentionCellSpec& spec, const AttentionResult& r,
                   const std::set<QString>& shown) {
    const AttentionConfig& c = spec.config;
    QStringList parts;
    if (r.direct) {
        parts << QStringLiteral("%1 %2 %3 keys (%4).")
                     .arg(r.n == 1 ? QStringLiteral("One query")
                                   : QStringLiteral("%1 queries").arg(r.n))
                     .arg(r.n == 1 ? QStringLiteral("reads") : QStringLiteral("read"))
                     .arg(r.m)
                     .arg(keyLabels(r).join(QStringLiteral(", ")));
    } else {
        parts << QStringLiteral("Tokens *%1*, each a vector of width %2.")
                     .arg(keyLabels(r).join(QStringLiteral(", ")))
                     .arg(r.d);
    }
    QString heads = headWord(r.h);
    if (r.h > 1) {
        QStringList slices;
        for (int i = 0; i < r.h; ++i) {
            slices << QStringLiteral("head %1 reads coordinates %2–%3")
                          .arg(i + 1)
                          .arg(i * r.dK + 1)
                          .arg((i + 1) * r.dK);
        }
        heads += QStringLiteral(": ") + slices.join(QStringLiteral(", "));
    }
    if (r.dividesBySqrtDk()) {
        parts << heads + QStringLiteral("; multiply every score by s = 1/√%1 = %2.")
                             .arg(r.dK)
                             .arg(num(r.scale));
    } else if (r.scale == 1.0) {
        parts << heads + QStringLiteral("; the scores are not scaled.");
    } else {
        parts << heads + QStringLiteral("; divide every score by %1.").arg(num(1.0 / r.scale));
    }
    if (c.mask == MaskKind::Causal) {
        parts << QStringLiteral("Causal mask: a token reads only itself and the tokens before it.");
    } else {
        parts << QStringLiteral("No mask.");
    }
    if (!c.padding.empty()) {
        parts << QStringLiteral("Padding tokens are never read.");
    }
    if (!r.direct) {
        if (c.positional != PositionalKind::None) {
            parts << QStringLiteral("X = X₀ + P adds the positions P to the token vectors.");
        }
        if (plainProjection(c.wQ, c.bQ) && plainProjection(c.wK, c.bK) &&
            plainProjection(c.wV, c.bV)) {
            parts << QStringLiteral(
                "The projections are the identity and the biases zero, so Q = K = V = X.");
        } else {
            parts << QStringLiteral("Q = X W_Qᵀ + b_Q, K = X W_Kᵀ + b_K, V = X W_Vᵀ + b_V.");
        }
        if (shown.count(QStringLiteral("output"))) {
            if (plainProjection(c.wO, c.bO)) {
                parts << (r.h == 1
                              ? QStringLiteral("W_O is the identity, so the output Y is A V.")
                              : QStringLiteral("W_O is the identity, so the output Y is the heads' "
                                               "results side by side."));
            } else {
                parts << QStringLiteral("Y = C W_Oᵀ + b_O.");
            }
        }
    }
    return parts.join(u' ');
}

std::vector<PdfBoxPtr> exerciseBoxes(const AttentionCellSpec& spec, const AttentionResult& r,
                                     int number, const QString& heading, Sheet sheet,
                                     const CellPrintArea& area) {
    std::set<QString> blank;
    for (const std::string& name : spec.worksheet->blank) {
        blank.insert(qs(name));
    }
    int firstBlank = 100;
    for (const QString& name : blank) {
        firstBlank = std::min(firstBlank, stageOf(name, r.direct));
    }
    const AttentionConfig& c = spec.config;
    const bool plainQKV = !r.direct && plainProjection(c.wQ, c.bQ) && plainProjection(c.wK, c.bK) &&
                          plainProjection(c.wV, c.bV);
    const bool plainO = r.direct || plainProjection(c.wO, c.bO);
    // Matrices that equal another one printed: left out unless blank.
    const auto redundant = [&](const QString& name) {
        return (plainQKV && (name == "Q" || name == "K" || name == "V")) ||
               (name == "context" && r.h == 1 && plainO) || (name == "concat" && plainO);
    };

    std::vector<std::vector<Figure>> groups;
    std::set<QString> shown;
    int group = -1;
    const auto add = [&](int g, const MatrixTable& t) {
        if (g != group || groups.empty()) {
            groups.emplace_back();
            group = g;
        }
        groups.back().push_back(matrixFigure(t));
    };
    // Blank X without positions: the token vectors come from the vocabulary.
    if (!r.direct && blank.count(QStringLiteral("X")) && c.positional == PositionalKind::None &&
        !spec.vocab.empty()) {
        QStringList labels;
        arma::mat rows;
        for (const std::string& token : c.tokens) {
            if (!labels.contains(qs(token))) {
                labels << qs(token);
                rows = arma::join_cols(rows, arma::mat(spec.vocab.at(token)));
            }
        }
        MatrixTable vocab;
        vocab.caption = QStringLiteral("Token vectors");
        vocab.rowLabels = labels;
        vocab.columnLabels = coordinateLabels(int(rows.n_cols));
        vocab.values = rows;
        add(-1, vocab);
    }
    for (NamedMatrix& m : attentionMatrices(spec, r, false)) {
        const bool isBlank = blank.count(m.name) != 0;
        if (!isBlank && (stageOf(m.name, r.direct) >= firstBlank || redundant(m.name))) {
            continue;
        }
        if (isBlank) {
            m.table.mode = sheet == Sheet::Key ? MatrixMode::Answer : MatrixMode::Blank;
        }
        shown.insert(m.name);
        add(m.group, m.table);
    }

    std::vector<PdfBoxPtr> boxes;
    boxes.push_back(headingBox(heading.isEmpty()
                                   ? QStringLiteral("Exercise %1").arg(number)
                                   : QStringLiteral("Exercise %1 · %2").arg(number).arg(heading),
                               area));
    PrintProseStyle style;
    style.bodySize = 9.5;
    style.justify = false;
    for (PdfBoxPtr& b :
         proseBoxes(markdownDocument(givensText(spec, r, shown), area.width, style))) {
        std::const_pointer_cast<PdfBox>(b)->keepWithNext = true;
        boxes.push_back(b);
    }
    auto matrices = std::make_shared<FigureRowsBox>(area.width, area.maxHeight);
    matrices->addGroups(groups, 18, 10);
    matrices->keepTogether = true;
    matrices->spaceBefore = 4;
    boxes.push_back(matrices);
    return boxes;
}

// ---- Questions ----

// `order`: the choices as this variant shows them (choiceOrder).
QString answerText(const QuizCellSpec& quiz, const Json* answer, const LessonResults& results,
                   const std::vector<size_t>& order) {
    switch (quiz.answerKind) {
    case QuizCellSpec::AnswerKind::Choice: {
        const int i = answer && answer->isNumber() ? int(answer->number()) : quiz.choice;
        const QString choice = i >= 0 && size_t(i) < quiz.choices.size()
                                   ? qs(boundMarkdown(quiz.choices[size_t(i)], results))
                                   : QString();
        const auto shown = std::find(order.begin(), order.end(), size_t(i));
        const int letter = shown == order.end() ? i : int(shown - order.begin());
        return QStringLiteral("**Answer: %1.** %2").arg(QChar(u'A' + letter)).arg(choice);
    }
    case QuizCellSpec::AnswerKind::Number:
    case QuizCellSpec::AnswerKind::Binding: {
        const double v = answer && answer->isNumber() ? answer->number() : quiz.number;
        // At the quiz's digits in every variant: never "3" on one key and "2.5000" on the next.
        QString text = QStringLiteral("**Answer: %1**").arg(qs(quizAnswerText(quiz, v)));
        if (const double tolerance = quizTolerance(quiz, v); tolerance > 0) {
            text += QStringLiteral(" (within ± %1)")
                        .arg(qs(readableNumber(tolerance, 6))
                                 .remove(QRegularExpression(QStringLiteral("0+$"))));
        }
        return text;
    }
    case QuizCellSpec::AnswerKind::Text:
        break;
    }
    return QStringLiteral("**Sample answer:** ") + qs(quiz.text);
}

void colourAll(QTextDocument& doc, const QColor& colour) {
    QTextCursor cursor(&doc);
    cursor.select(QTextCursor::Document);
    QTextCharFormat f;
    f.setForeground(colour);
    cursor.mergeCharFormat(f);
    doc.markContentsDirty(0, doc.characterCount());
    doc.documentLayout()->documentSize();
}

PdfBoxPtr quizBox(const LessonCell& cell, const QuizCellSpec& quiz, int number,
                  const WorksheetVariant& variant, Sheet sheet, const CellPrintArea& area) {
    const LessonResults& results = variant.results;
    const ComputedCell* computed = results.cell(cell.id);
    const Json* answer = computed ? computed->json.find("answer") : nullptr;
    const int right =
        quiz.answerKind == QuizCellSpec::AnswerKind::Choice && answer && answer->isNumber()
            ? int(answer->number())
            : -1;
    // This variant's order of the choices: the key follows it.
    const std::vector<size_t> order =
        choiceOrder(cell.id, size_t(right), quiz.choices.size(), variant.seed, variant.number);
    const qreal pad = 8;
    const qreal textWidth = area.width - 2 * pad - 3;
    QString markdown =
        QStringLiteral("**%1.** ").arg(number) + qs(boundMarkdown(quiz.question, results)) + u'\n';
    int rightPlace = -1;
    for (size_t place = 0; place < order.size(); ++place) {
        const size_t i = order[place];
        const bool ticked = sheet == Sheet::Key && int(i) == right;
        rightPlace = int(i) == right ? int(place) : rightPlace;
        markdown += QStringLiteral("\n%1 **%2.** %3\n")
                        .arg(ticked ? QStringLiteral("☒") : QStringLiteral("☐"))
                        .arg(QChar(u'A' + int(place)))
                        .arg(qs(boundMarkdown(quiz.choices[i], results)));
    }
    PrintProseStyle style;
    style.justify = false;
    auto question = markdownDocument(markdown, textWidth, style);
    // Choices hang after their tick box.
    int choice = 0;
    for (QTextBlock b = question->begin(); b.isValid(); b = b.next()) {
        if (b.text().startsWith(QStringLiteral("☐")) || b.text().startsWith(QStringLiteral("☒"))) {
            QTextBlockFormat f = b.blockFormat();
            f.setLeftMargin(30);
            f.setTextIndent(-16);
            f.setBottomMargin(3);
            QTextCursor cursor(b);
            cursor.setBlockFormat(f);
            if (sheet == Sheet::Key && choice == rightPlace) {
                cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
                QTextCharFormat c;
                c.setForeground(pdf::kAnswer);
                cursor.mergeCharFormat(c);
            }
            ++choice;
        }
    }
    question->markContentsDirty(0, question->characterCount());
    question->documentLayout()->documentSize();

    // The key's answer decides the room: the worksheet leaves the same, at least three lines.
    QString keyMarkdown = answerText(quiz, answer, results, order);
    if (!quiz.explain.empty()) {
        keyMarkdown += QStringLiteral("\n\n") + qs(boundMarkdown(quiz.explain, results));
    }
    PrintProseStyle keyStyle;
    keyStyle.bodySize = 9.5;
    keyStyle.justify = false;
    auto key = markdownDocument(keyMarkdown, textWidth, keyStyle);
    colourAll(*key, pdf::kAnswer);
    const qreal lineGap = 19;
    const qreal room = std::max(key->size().height() + 6, 3 * lineGap + 4);
    const QString prompt = quiz.answerKind == QuizCellSpec::AnswerKind::Choice
                               ? QStringLiteral("Why?")
                               : QStringLiteral("Answer:");
    const Figure questionFigure = textFigure(question);
    const Figure keyFigure = textFigure(key);
    const qreal w = area.width;
    const qreal h = questionFigure.size.height() + room + 2 * pad;
    Figure figure{QSizeF(w, h), [=](QPainter& p) {
                      p.setPen(QPen(pdf::kRule, 0.6));
                      p.setBrush(Qt::NoBrush);
                      p.drawRect(QRectF(0.3, 0.3, w - 0.6, h - 0.6));
                      p.save();
                      p.translate(pad + 3, pad);
                      questionFigure.paint(p);
                      p.translate(0, questionFigure.size.height() + 2);
                      if (sheet == Sheet::Key) {
                          keyFigure.paint(p);
                      } else {
                          p.setFont(pdf::font(pdf::kSans, 8));
                          p.setPen(pdf::kMuted);
                          p.drawText(QRectF(0, 0, 60, 12), Qt::AlignLeft | Qt::AlignTop, prompt);
                          p.setPen(QPen(pdf::kRule, 0.5, Qt::DotLine));
                          for (qreal y = lineGap; y <= room - 2; y += lineGap) {
                              p.drawLine(QPointF(0, y), QPointF(w - 2 * pad - 3, y));
                          }
                      }
                      p.restore();
                  }};
    auto box = std::make_shared<FigureRowsBox>(area.width, area.maxHeight);
    box->addRow({{figure}});
    box->keepTogether = true;
    box->spaceBefore = 8;
    return box;
}

// ---- Sheets ----

// What a question about a cell that is not an exercise needs from it, so it can be answered
// from the paper alone: the set-up in words and the input matrices.
std::vector<PdfBoxPtr> givensBoxes(const LessonCell& cell, const AttentionResult& r,
                                   const CellPrintArea& area) {
    const AttentionCellSpec& spec = *cell.attention();
    std::vector<std::vector<Figure>> groups(1);
    for (NamedMatrix& m : attentionMatrices(spec, r, false)) {
        const bool input =
            r.direct ? (m.name == "Q" || m.name == "K" || m.name == "V") : m.name == "X";
        if (input) {
            groups.back().push_back(matrixFigure(m.table));
        }
    }
    std::vector<PdfBoxPtr> boxes;
    PrintProseStyle style;
    style.bodySize = 9.5;
    style.justify = false;
    const QString text =
        QStringLiteral("**Given (cell %1).** ").arg(qs(cell.id)) + givensText(spec, r, {});
    for (PdfBoxPtr& b : proseBoxes(markdownDocument(text, area.width, style))) {
        std::const_pointer_cast<PdfBox>(b)->keepWithNext = true;
        boxes.push_back(b);
    }
    if (!groups.back().empty()) {
        auto matrices = std::make_shared<FigureRowsBox>(area.width, area.maxHeight);
        matrices->addGroups(groups, 18, 10);
        matrices->keepTogether = true;
        matrices->spaceBefore = 4;
        matrices->keepWithNext = true;
        boxes.push_back(matrices);
    }
    return boxes;
}

// The set-up of a transformer cell in words, above a question about it.
std::vector<PdfBoxPtr> transformerGivensBoxes(const LessonCell& cell, const TransformerResult& r,
                                              const CellPrintArea& area) {
    auto box = std::make_shared<FigureRowsBox>(area.width, area.maxHeight);
    box->addRow({{textFigure(htmlDocument(
        QStringLiteral("<p><b>Given (cell %1).</b> %2</p>")
            .arg(htmlEscaped(qs(cell.id)), transformerGivensText(*cell.transformer(), r)),
        pdf::font(pdf::kSerif, 9.5), area.width))}});
    // The token vectors, when they are few enough to work with by hand.
    if (r.d <= 8 && r.n <= 8) {
        MatrixTable x;
        x.caption = r.P.is_zero() ? QStringLiteral("X⁰") : QStringLiteral("X⁰ = X₀ + P");
        x.note = QStringLiteral("the token vectors");
        for (const std::string& token : r.tokens) {
            x.rowLabels << qs(token);
        }
        x.columnLabels = coordinateLabels(r.d);
        x.values = r.X;
        box->addRow({{matrixFigure(x)}, 14, 6});
    }
    box->keepWithNext = true;
    box->keepTogether = true;
    box->spaceBefore = 8;
    return {box};
}

// A quiz about a cell prints right after that cell's exercise; the others follow under
// "Questions", each after the givens of the cell it asks about (docs/lesson-format.md).
std::vector<PdfBoxPtr> sheetBoxes(const WorksheetVariant& v, Sheet sheet, const QString& student,
                                  const CellPrintArea& area) {
    const Lesson& lesson = v.lesson;
    // Each exercise is named after the section its cell is in, by the headings every reader
    // sees (presented_lesson.h).
    const std::map<std::string, std::string> headings =
        sectionOfEachCell(presentLesson(lesson, v.results));
    std::vector<PdfBoxPtr> boxes;
    boxes.push_back(titleBox(qs(lesson.title()), sheet, area));
    boxes.push_back(nameBox(sheet, student, v.label(), area));
    const auto append = [&](std::vector<PdfBoxPtr> more) {
        for (PdfBoxPtr& b : more) {
            boxes.push_back(std::move(b));
        }
    };
    int exercise = 0;
    int question = 0;
    std::set<std::string> asked;
    for (const LessonCell* cell : exerciseCells(lesson)) {
        const ComputedCell* computed = v.results.cell(cell->id);
        const auto it = headings.find(cell->id);
        const QString heading = it == headings.end() ? QString() : qs(it->second);
        if (cell->attention() && computed && computed->attention) {
            append(exerciseBoxes(*cell->attention(), *computed->attention, ++exercise, heading,
                                 sheet, area));
        } else if (cell->transformer() && computed && computed->transformer) {
            const auto givens = v.transformerGivens.find(cell->id);
            append(transformerExerciseBoxes(
                *cell->transformer(), *computed->transformer,
                givens == v.transformerGivens.end() ? TransformerSheetGivens{} : givens->second,
                ++exercise, heading, sheet == Sheet::Key, area));
        } else {
            continue;
        }
        for (const LessonCell& quiz : lesson.cells) {
            if (quiz.quiz() && quizSubject(quiz) == cell->id) {
                boxes.push_back(quizBox(quiz, *quiz.quiz(), ++question, v, sheet, area));
                asked.insert(quiz.id);
            }
        }
    }
    bool headed = false;
    std::set<std::string> given;
    for (const LessonCell& cell : lesson.cells) {
        const QuizCellSpec* quiz = cell.quiz();
        if (!quiz || asked.count(cell.id)) {
            continue;
        }
        if (!headed) {
            boxes.push_back(headingBox(QStringLiteral("Questions"), area, 20));
            headed = true;
        }
        const std::string subject = quizSubject(cell);
        const LessonCell* about = lesson.cell(subject);
        const ComputedCell* computed = v.results.cell(subject);
        if (about && about->attention() && computed && computed->attention &&
            given.insert(subject).second) {
            append(givensBoxes(*about, *computed->attention, area));
        } else if (about && about->transformer() && computed && computed->transformer &&
                   given.insert(subject).second) {
            append(transformerGivensBoxes(*about, *computed->transformer, area));
        }
        boxes.push_back(quizBox(cell, *quiz, ++question, v, sheet, area));
    }
    return boxes;
}

} // namespace

PdfSection sheetSection(const WorksheetVariant& v, Sheet sheet, const QString& student,
                        const PageGeometry& g) {
    const CellPrintArea area{g.content().width(), g.content().height()};
    PdfSection section;
    section.boxes = sheetBoxes(v, sheet, student, area);
    const QString title = qs(v.lesson.title());
    section.headerLeft = title + (sheet == Sheet::Key ? QStringLiteral(" — Answer key")
                                                      : QStringLiteral(" — Worksheet"));
    section.headerRight =
        (student.isEmpty() ? QString() : student + QStringLiteral(" · ")) + v.label();
    section.footerLeft = v.number > 0 ? QStringLiteral("Variant %1").arg(v.number) : QString();
    paginate(section, g.content().height());
    return section;
}

} // namespace attnbook
