#include "exports/worksheet/worksheet_parts.h"

#include "core/math/number_format.h"
#include "exports/paint/pdf_figures.h"
#include "exports/paint/pdf_prose.h"
#include "exports/paint/pdf_transformer.h"
#include "exports/worksheet/worksheet_transformer.h"

#include <QtCore/QRegularExpression>
#include <QtGui/QFontMetricsF>
#include <QtGui/QPainter>

#include <algorithm>
#include <cmath>

namespace attnbook::sheet {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

// A number in working: whole numbers bare, others at 4 decimals.
QString num(double v) {
    return qs(readableNumber(v, kDigits));
}

// A number as a term of a sum or a product: negative ones in brackets.
QString term(double v) {
    return v < 0 && num(v) != QLatin1String("0") ? QStringLiteral("(%1)").arg(num(v)) : num(v);
}

// A setting as the author wrote it: T = 0.5, not 0.5000.
QString shortest(double v) {
    return qs(readableNumber(v, 6)).remove(QRegularExpression(QStringLiteral("\\.?0+$")));
}

// ε as a student writes it: 0.00001 rather than 1e-05.
QString epsText(double eps) {
    const int decimals = std::clamp(int(std::ceil(-std::log10(eps) - 1e-9)), 0, 12);
    return qs(readableNumber(eps, decimals));
}

arma::rowvec printed(const arma::rowvec& v) {
    arma::rowvec out = v;
    out.transform([](double x) { return printedGiven(x); });
    return out;
}

// Text with formulas, as HTML; each formula unit is made tight() before, so that lines break
// only between units ("z = a + b = c" at its "=" and "+"), never inside a number.
QString formula(const QString& text) {
    return htmlEscaped(text);
}

// A unit of a formula that never breaks: its spaces become no-break spaces.
QString tight(QString text) {
    return text.replace(u' ', QChar(QChar::Nbsp));
}

QString word(const std::string& w) {
    return QStringLiteral("<i>%1</i>").arg(htmlEscaped(shortWord(w)));
}

// A font per use, never shared: variants are laid out on several threads, and a QFont's
// engine is resolved per thread.
QFont textFont() {
    return pdf::font(pdf::kSerif, 9.5);
}

std::shared_ptr<QTextDocument> paragraphs(const QStringList& html, qreal width,
                                          const QColor& colour) {
    QString body;
    for (const QString& p : html) {
        body +=
            QStringLiteral("<p style=\"margin-bottom:3px; color:%1\">%2</p>").arg(colour.name(), p);
    }
    return htmlDocument(body, textFont(), width);
}

// ---- Figures ----

// A given vector, 8 coordinates a row; the caption on the first.
std::vector<Figure> vectorFigures(const QString& caption, const QString& note,
                                  const arma::rowvec& v) {
    std::vector<Figure> out;
    for (arma::uword first = 0; first < v.n_elem; first += kChunk) {
        const arma::uword last = std::min<arma::uword>(v.n_elem, first + kChunk) - 1;
        MatrixTable t;
        t.caption = first == 0 ? caption : QString();
        t.note = first == 0 ? note : QString();
        t.rowLabels = {QString()};
        t.columnLabels = coordinateLabels(int(last - first + 1), int(first) + 1);
        t.values = arma::mat(v.cols(first, last));
        t.maxColumns = kChunk;
        out.push_back(matrixFigure(t));
    }
    return out;
}

// Answer boxes: empty on the sheet, filled on the key at `digits` decimals in every variant;
// at most 6 a row.
std::vector<Figure> answerFigures(const QString& caption, const QStringList& labels,
                                  const arma::rowvec& values, bool key, int firstLabel,
                                  int digits) {
    std::vector<Figure> out;
    for (arma::uword first = 0; first < values.n_elem; first += kMostAnswers) {
        const arma::uword last = std::min<arma::uword>(values.n_elem, first + kMostAnswers) - 1;
        MatrixTable t;
        t.caption = first == 0 ? caption : QString();
        t.rowLabels = {QString()};
        t.columnLabels = labels.isEmpty()
                             ? coordinateLabels(int(last - first + 1), firstLabel + int(first) + 1)
                             : labels.mid(qsizetype(first), qsizetype(last - first + 1));
        t.values = arma::mat(values.cols(first, last));
        t.mode = key ? MatrixMode::Answer : MatrixMode::Blank;
        t.digits = digits;
        t.maxColumns = kMostAnswers;
        out.push_back(matrixFigure(t));
    }
    return out;
}

// One box for a word: empty on the sheet, the word on the key.
Figure wordBoxFigure(const QString& caption, const QString& answer, bool key) {
    const QFont captionFont = pdf::font(pdf::kSans, 8, true);
    const QFont answerFont = pdf::font(pdf::kSans, 8.5);
    const qreal boxW = kAnswerBoxWidth * 1.6, boxH = kAnswerBoxHeight;
    const qreal captionH = 13, headerH = 11.5;
    const qreal w = std::max(
        boxW + 3, QFontMetricsF(captionFont, layoutDevice()).horizontalAdvance(caption) + 2);
    const QString shown =
        QFontMetricsF(answerFont, layoutDevice()).elidedText(answer, Qt::ElideRight, boxW - 6);
    return Figure{QSizeF(w, captionH + headerH + boxH + 3 + 2), [=](QPainter& p) {
                      p.setFont(captionFont);
                      p.setPen(pdf::kInk);
                      p.drawText(QRectF(0, 0, w, captionH), Qt::AlignLeft | Qt::AlignVCenter,
                                 caption);
                      const QRectF box(1.5, captionH + headerH + 1.5, boxW, boxH);
                      p.setPen(QPen(pdf::kRule, 0.6));
                      p.setBrush(Qt::NoBrush);
                      p.drawRect(box);
                      if (key) {
                          p.setFont(answerFont);
                          p.setPen(pdf::kAnswer);
                          p.drawText(box, Qt::AlignCenter, shown);
                      }
                  }};
}

// The room to work in: the key's working in red, or as many dotted lines on the sheet.
Figure workingFigure(const QStringList& working, qreal width, bool key) {
    auto doc = paragraphs(working, width - 4, pdf::kAnswer);
    const Figure text = textFigure(doc);
    const qreal lineGap = 19;
    const qreal h = std::max(text.size.height() + 4, 2 * lineGap + 4);
    return Figure{QSizeF(width, h), [=](QPainter& p) {
                      if (key) {
                          text.paint(p);
                          return;
                      }
                      p.setFont(pdf::font(pdf::kSans, 8));
                      p.setPen(pdf::kMuted);
                      p.drawText(QRectF(0, 0, 80, 12), Qt::AlignLeft | Qt::AlignTop,
                                 QStringLiteral("Working:"));
                      p.setPen(QPen(pdf::kRule, 0.5, Qt::DotLine));
                      for (qreal y = lineGap; y <= h - 2; y += lineGap) {
                          p.drawLine(QPointF(0, y), QPointF(width, y));
                      }
                  }};
}

// One part of the exercise, kept together: the question, the givens, the answer boxes and the
// working.
PdfBoxPtr partBox(const QStringList& question, const std::vector<Figure>& givens,
                  const std::vector<Figure>& answers, const QStringList& working, bool key,
                  const CellPrintArea& area) {
    auto box = std::make_shared<FigureRowsBox>(area.width, area.maxHeight);
    box->addRow({{textFigure(paragraphs(question, area.width))}});
    for (const Figure& f : givens) {
        box->addRow({{f}, 14, 4});
    }
    if (!answers.empty()) {
        box->addFlow(answers, 18, 8);
    }
    box->addRow({{workingFigure(working, area.width, key)}, 0, 6});
    box->keepTogether = true;
    box->spaceBefore = 12;
    return box;
}

// A sum written out ("1 + (−2) + 0.5") when it is short, else in words.
QString sumText(const arma::rowvec& terms, const QString& many) {
    if (int(terms.n_elem) > kFewTerms) {
        return many;
    }
    QStringList parts;
    for (double t : terms) {
        parts << term(t);
    }
    return parts.join(QStringLiteral(" + "));
}

} // namespace attnbook::sheet
