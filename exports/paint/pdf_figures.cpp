// The painted figures of an attention cell (matrix, heatmap, share bars), which share their text
// and hatch helpers, and the sheet they are rendered on together. The line chart is
// chart_figure.cpp.
#include "exports/paint/pdf_figures.h"

#include "core/present/attention_matrices.h"

#include "core/math/shares_shown.h"
#include "core/math/worked_steps.h"

#include <QtGui/QFontMetricsF>
#include <QtGui/QPainter>

#include <algorithm>
#include <cmath>

namespace attnbook {

namespace {

QString number(double value, int digits) {
    return QString::fromStdString(readableNumber(value, digits));
}

// An entry of a table, a grid or a set of bars, all written one way: whole numbers when every
// entry is whole (`wholeTable`, from allWhole), else each with `digits` decimals.
QString entryNumber(double value, int digits, bool wholeTable) {
    return QString::fromStdString(wholeTable ? readableNumber(value, digits)
                                             : fixedNumber(value, digits));
}

qreal textWidth(const QFont& font, const QString& text) {
    return QFontMetricsF(font, layoutDevice()).horizontalAdvance(text);
}

// Diagonal hatching inside `rect`: a masked entry. Each line is cut to the rectangle here rather
// than by a clip: Qt's SVG generator (the web page's figures) ignores clipping, and the lines
// crossed into the unmasked entries beside.
void hatch(QPainter& p, const QRectF& rect) {
    p.save();
    p.fillRect(rect, pdf::kFaint);
    p.setPen(QPen(pdf::kRule, 0.5));
    const qreal h = rect.height();
    for (qreal x = rect.left() - h; x < rect.right(); x += 4.5) {
        // The line (x + t·h, bottom − t·h), t in [0, 1], within left ≤ x + t·h ≤ right.
        const qreal from = std::max(0.0, (rect.left() - x) / h);
        const qreal to = std::min(1.0, (rect.right() - x) / h);
        if (from < to) {
            p.drawLine(QPointF(x + from * h, rect.bottom() - from * h),
                       QPointF(x + to * h, rect.bottom() - to * h));
        }
    }
    p.restore();
}

void drawCaption(QPainter& p, const QString& caption, const QString& note, qreal y, qreal h) {
    const QFont bold = pdf::font(pdf::kSans, 8, true);
    p.setFont(bold);
    p.setPen(pdf::kInk);
    p.drawText(QRectF(0, y, 1000, h), Qt::AlignLeft | Qt::AlignVCenter, caption);
    if (!note.isEmpty()) {
        const qreal x = textWidth(bold, caption) + 5;
        p.setFont(pdf::font(pdf::kSans, pdf::kTiny));
        p.setPen(pdf::kMuted);
        p.drawText(QRectF(x, y, 1000, h), Qt::AlignLeft | Qt::AlignVCenter, note);
    }
}

} // namespace

namespace {

QStringList qStringList(const std::vector<std::string>& texts) {
    QStringList out;
    for (const std::string& text : texts) {
        out << QString::fromStdString(text);
    }
    return out;
}

} // namespace

QStringList queryLabels(const AttentionResult& r) {
    return qStringList(queryLabelTexts(r));
}

QStringList keyLabels(const AttentionResult& r) {
    return qStringList(keyLabelTexts(r));
}

QStringList coordinateLabels(int count, int first) {
    return qStringList(coordinateLabelTexts(count, first));
}

namespace {

// The printed text of one shown entry, split at the decimal point for alignment.
struct MatrixEntry {
    QString text;
    qreal whole = 0, fraction = 0;
};

// What matrixFigure measures before it paints.
struct MatrixLayout {
    QFont numberFont = pdf::font(pdf::kSans, 8);
    QFont labelFont = pdf::font(pdf::kSans, pdf::kTiny);
    QFont answerFont = pdf::font(pdf::kSans, 8.5);
    bool boxed = false; // blank boxes or an answer key's, not a filled table
    int rows = 0, cols = 0, shownRows = 0, shownCols = 0;
    std::vector<std::vector<MatrixEntry>> entries; // [row][column], the shown ones
    std::vector<qreal> maxWhole, maxFraction;      // per shown column
    qreal colW = 0, labelW = 0, rowH = 0;
    qreal captionH = 0, headerH = 11.5, gridTop = 0, moreW = 0, moreH = 0;
    bool moreCols() const { return shownCols < cols; }
    bool moreRows() const { return shownRows < rows; }
};

bool isBlocked(const MatrixTable& t, int r, int c) {
    return !t.blocked.is_empty() && t.blocked(arma::uword(r), arma::uword(c)) != 0;
}

// The text and widths of every shown entry, and each column's widest parts.
void measureEntries(const MatrixTable& t, MatrixLayout& l) {
    // An answer key's boxes keep their digits even when this variant's answers happen to be
    // whole: one key must not say "2" where the next says "2.5000".
    const bool wholeTable =
        t.mode != MatrixMode::Answer && allWhole(t.values.memptr(), t.values.n_elem);
    l.entries.assign(size_t(l.shownRows), std::vector<MatrixEntry>(size_t(l.shownCols)));
    l.maxWhole.assign(size_t(l.shownCols), 0);
    l.maxFraction.assign(size_t(l.shownCols), 0);
    // Boxes are measured the same way blank or filled in, so a worksheet and its key match.
    const QFont& valueFont = l.boxed ? l.answerFont : l.numberFont;
    for (int r = 0; r < l.shownRows; ++r) {
        for (int c = 0; c < l.shownCols; ++c) {
            MatrixEntry& e = l.entries[size_t(r)][size_t(c)];
            const double v = t.values(arma::uword(r), arma::uword(c));
            e.text = isBlocked(t, r, c) && std::isfinite(v) ? QStringLiteral("0")
                                                            : entryNumber(v, t.digits, wholeTable);
            const qsizetype dot = e.text.indexOf(u'.');
            e.whole = textWidth(valueFont, dot < 0 ? e.text : e.text.left(dot));
            e.fraction = dot < 0 ? 0 : textWidth(valueFont, e.text.mid(dot));
            l.maxWhole[size_t(c)] = std::max(l.maxWhole[size_t(c)], e.whole);
            l.maxFraction[size_t(c)] = std::max(l.maxFraction[size_t(c)], e.fraction);
        }
    }
}

MatrixLayout measureMatrix(const MatrixTable& t) {
    MatrixLayout l;
    l.boxed = t.mode != MatrixMode::Filled;
    l.rows = int(t.values.n_rows);
    l.cols = int(t.values.n_cols);
    l.shownRows = std::min(l.rows, t.maxRows);
    l.shownCols = std::min(l.cols, t.maxColumns);
    measureEntries(t, l);
    // An answer box is sized for handwriting (a box is its cell less 1.5 pt all round).
    l.colW = l.boxed ? kAnswerBoxWidth + 3 : 24;
    for (int c = 0; c < l.shownCols; ++c) {
        l.colW = std::max(l.colW, l.maxWhole[size_t(c)] + l.maxFraction[size_t(c)] + 10);
        if (c < t.columnLabels.size()) {
            l.colW = std::max(l.colW, textWidth(l.labelFont, t.columnLabels[c]) + 6);
        }
    }
    for (int r = 0; r < l.shownRows && r < t.rowLabels.size(); ++r) {
        l.labelW = std::max(l.labelW, textWidth(l.labelFont, t.rowLabels[r]) + 6);
    }
    l.rowH = l.boxed ? kAnswerBoxHeight + 3 : 12.5;
    l.captionH = t.caption.isEmpty() ? 0 : 13;
    l.gridTop = l.captionH + l.headerH;
    l.moreW = l.moreCols() ? 14 : 0;
    l.moreH = l.moreRows() ? 11 : 0;
    return l;
}

// The caption, the column and row labels, and a filled table's rules above and below.
void paintMatrixFrame(QPainter& p, const MatrixTable& t, const MatrixLayout& l) {
    if (l.captionH > 0) {
        drawCaption(p, t.caption, t.note, 0, l.captionH);
    }
    p.setFont(l.labelFont);
    p.setPen(pdf::kMuted);
    for (int c = 0; c < l.shownCols && c < t.columnLabels.size(); ++c) {
        p.drawText(QRectF(l.labelW + c * l.colW, l.captionH, l.colW, l.headerH),
                   Qt::AlignHCenter | Qt::AlignVCenter, t.columnLabels[c]);
    }
    if (l.moreCols()) {
        p.drawText(QRectF(l.labelW + l.shownCols * l.colW, l.captionH, l.moreW, l.headerH),
                   Qt::AlignCenter, QStringLiteral("…"));
    }
    for (int r = 0; r < l.shownRows && r < t.rowLabels.size(); ++r) {
        p.drawText(QRectF(0, l.gridTop + r * l.rowH, l.labelW - 5, l.rowH),
                   Qt::AlignRight | Qt::AlignVCenter, t.rowLabels[r]);
    }
    if (!l.boxed) {
        const qreal gridW = l.colW * l.shownCols;
        const qreal bottom = l.gridTop + l.rowH * l.shownRows;
        p.setPen(QPen(pdf::kInk, 0.6));
        p.drawLine(QPointF(l.labelW, l.gridTop), QPointF(l.labelW + gridW, l.gridTop));
        p.drawLine(QPointF(l.labelW, bottom), QPointF(l.labelW + gridW, bottom));
    }
}

// One entry: a box (hatched when masked, the answer in it on a key) or a number whose
// decimal point lines up with the column's.
void paintMatrixEntry(QPainter& p, const MatrixTable& t, const MatrixLayout& l, int r, int c) {
    const QRectF cell(l.labelW + c * l.colW, l.gridTop + r * l.rowH, l.colW, l.rowH);
    const MatrixEntry& e = l.entries[size_t(r)][size_t(c)];
    const bool blocked = isBlocked(t, r, c);
    if (l.boxed) {
        const QRectF box = cell.adjusted(1.5, 1.5, -1.5, -1.5);
        if (blocked) {
            hatch(p, box);
        }
        p.setPen(QPen(pdf::kRule, 0.6));
        p.setBrush(Qt::NoBrush);
        p.drawRect(box);
        if (t.mode == MatrixMode::Answer && !blocked) {
            p.setFont(l.answerFont);
            p.setPen(pdf::kAnswer);
            p.drawText(box, Qt::AlignCenter, e.text);
        }
        return;
    }
    if (blocked) {
        p.fillRect(cell.adjusted(0.5, 0.5, -0.5, -0.5), pdf::kFaint);
    }
    const qreal blockW = l.maxWhole[size_t(c)] + l.maxFraction[size_t(c)];
    const qreal x = cell.left() + (l.colW - blockW) / 2 + l.maxWhole[size_t(c)] - e.whole;
    p.setFont(l.numberFont);
    p.setPen(blocked ? pdf::kMuted : pdf::kInk);
    p.drawText(QRectF(x, cell.top(), e.whole + e.fraction + 2, l.rowH),
               Qt::AlignLeft | Qt::AlignVCenter, e.text);
}

void paintMatrix(QPainter& p, const MatrixTable& t, const MatrixLayout& l) {
    paintMatrixFrame(p, t, l);
    const qreal gridW = l.colW * l.shownCols;
    for (int r = 0; r < l.shownRows; ++r) {
        for (int c = 0; c < l.shownCols; ++c) {
            paintMatrixEntry(p, t, l, r, c);
        }
        if (l.moreCols()) {
            p.setFont(l.numberFont);
            p.setPen(pdf::kMuted);
            p.drawText(QRectF(l.labelW + gridW, l.gridTop + r * l.rowH, l.moreW, l.rowH),
                       Qt::AlignCenter, QStringLiteral("…"));
        }
    }
    if (l.moreRows()) {
        p.setFont(l.labelFont);
        p.setPen(pdf::kMuted);
        p.drawText(QRectF(l.labelW, l.gridTop + l.rowH * l.shownRows, 400, l.moreH),
                   Qt::AlignLeft | Qt::AlignVCenter,
                   QStringLiteral("… %1 more rows").arg(l.rows - l.shownRows));
    }
}

} // namespace

Figure matrixFigure(const MatrixTable& t) {
    const MatrixLayout l = measureMatrix(t);
    const qreal captionW = t.caption.isEmpty()
                               ? 0
                               : textWidth(pdf::font(pdf::kSans, 8, true), t.caption) +
                                     (t.note.isEmpty() ? 0 : textWidth(l.labelFont, t.note) + 6);
    const qreal width = std::max(l.labelW + l.colW * l.shownCols + l.moreW, captionW) + 1;
    const qreal height = l.gridTop + l.rowH * l.shownRows + l.moreH + 2;
    return Figure{QSizeF(width, height), [t, l](QPainter& p) { paintMatrix(p, t, l); }};
}

namespace {

// A heatmap's column labels above its grid (slanted when they are wider than a cell).
void paintColumnLabels(QPainter& p, const QStringList& cols, int m, QRectF header, qreal cell,
                       bool slanted) {
    for (int j = 0; j < m; ++j) {
        const qreal cx = header.left() + (j + 0.5) * cell;
        if (slanted) {
            p.save();
            p.translate(cx - 2, header.bottom() - 4);
            p.rotate(-45);
            p.drawText(QPointF(0, 0), cols[j]);
            p.restore();
        } else {
            p.drawText(QRectF(cx - cell / 2, header.top(), cell, header.height()), Qt::AlignCenter,
                       cols[j]);
        }
    }
}

// The colour scale of shares in `scale`, 0 at the bottom, with 0, 0.5 and 1 beside it in a
// column `labelW` wide.
void paintHeatLegend(QPainter& p, const QRectF& scale, qreal labelW) {
    const int steps = 20;
    for (int s = 0; s < steps; ++s) {
        const qreal y0 = scale.top() + scale.height() * (1.0 - qreal(s + 1) / steps);
        p.fillRect(QRectF(scale.left(), y0, scale.width(), scale.height() / steps + 0.3),
                   pdf::heat((s + 0.5) / steps));
    }
    p.setPen(QPen(pdf::kRule, 0.5));
    p.drawRect(scale);
    p.setFont(pdf::font(pdf::kSans, pdf::kTiny));
    p.setPen(pdf::kMuted);
    for (double v : {0.0, 0.5, 1.0}) {
        const qreal y = scale.top() + scale.height() * (1.0 - v);
        p.drawText(QRectF(scale.right() + 2, y - 5, labelW, 10), Qt::AlignLeft | Qt::AlignVCenter,
                   number(v, 1));
    }
}

} // namespace

Figure heatmapFigure(const AttentionResult& r, int head) {
    const HeadResult h = r.head[size_t(head)]; // a copy: the figure may outlive the result
    const int n = std::min(r.n, 24);
    const int m = std::min(r.m, 24);
    const int digits = m <= 8 ? 4 : 2;
    const bool wholeGrid = allWhole(h.weightsT.memptr(), h.weightsT.n_elem);
    const bool showValues = m <= 14;
    const qreal cell = m <= 8 ? 34 : m <= 14 ? 24 : 14;
    const qreal cellH = m <= 8 ? 22 : cell;
    const QFont labelFont = pdf::font(pdf::kSans, pdf::kTiny);
    // The shares at print's smallest size; a grid too fine for 8 pt digits shows colour only.
    const QFont valueFont = pdf::font(pdf::kSans, pdf::kTiny);
    const QStringList rows = queryLabels(r);
    const QStringList cols = keyLabels(r);
    qreal labelW = 0;
    for (int i = 0; i < n; ++i) {
        labelW = std::max(labelW, textWidth(labelFont, rows[i]) + 6);
    }
    qreal widest = 0;
    for (int j = 0; j < m; ++j) {
        widest = std::max(widest, textWidth(labelFont, cols[j]));
    }
    const bool slanted = widest > cell - 2;
    const qreal captionH = 13;
    const qreal headerH = slanted ? widest * 0.72 + 8 : 12;
    const qreal gridLeft = labelW;
    const qreal gridTop = captionH + headerH;
    const qreal gridW = cell * m;
    const qreal gridH = cellH * n;
    const qreal legendGap = 10, legendW = 7, legendLabelW = 18;
    const qreal legendH = std::max<qreal>(gridH, 60); // readable even for one row
    const qreal footH = 12;
    const qreal width =
        std::max(gridLeft + gridW + legendGap + legendW + legendLabelW,
                 textWidth(pdf::font(pdf::kSans, 8, true), QStringLiteral("Shares, head 10")) + 80);
    const qreal height = gridTop + std::max(gridH, legendH) + footH;
    const QString caption =
        r.h > 1 ? QStringLiteral("Shares, head %1").arg(head + 1) : QStringLiteral("Shares");
    auto paint = [=](QPainter& p) {
        drawCaption(p, caption, QStringLiteral("row reads column"), 0, captionH);
        p.setFont(labelFont);
        p.setPen(pdf::kMuted);
        paintColumnLabels(p, cols, m, QRectF(gridLeft, captionH, gridW, headerH), cell, slanted);
        for (int i = 0; i < n; ++i) {
            p.setFont(labelFont);
            p.setPen(pdf::kMuted);
            p.drawText(QRectF(0, gridTop + i * cellH, labelW - 5, cellH),
                       Qt::AlignRight | Qt::AlignVCenter, rows[i]);
            for (int j = 0; j < m; ++j) {
                const QRectF box(gridLeft + j * cell, gridTop + i * cellH, cell, cellH);
                if (h.blocked(arma::uword(i), arma::uword(j))) {
                    hatch(p, box);
                    continue;
                }
                const double w = h.weight(arma::uword(i), arma::uword(j));
                p.fillRect(box, pdf::heat(w));
                if (showValues) {
                    p.setFont(valueFont);
                    p.setPen(pdf::inkOnHeat(w));
                    p.drawText(box, Qt::AlignCenter, entryNumber(w, digits, wholeGrid));
                }
            }
        }
        p.setPen(QPen(Qt::white, 0.8));
        for (int j = 1; j < m; ++j) {
            p.drawLine(QPointF(gridLeft + j * cell, gridTop),
                       QPointF(gridLeft + j * cell, gridTop + gridH));
        }
        for (int i = 1; i < n; ++i) {
            p.drawLine(QPointF(gridLeft, gridTop + i * cellH),
                       QPointF(gridLeft + gridW, gridTop + i * cellH));
        }
        p.setPen(QPen(pdf::kRule, 0.5));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(gridLeft, gridTop, gridW, gridH));
        paintHeatLegend(p, QRectF(gridLeft + gridW + legendGap, gridTop, legendW, legendH),
                        legendLabelW);
        if (n < r.n || m < r.m) {
            p.drawText(
                QRectF(0, gridTop + std::max(gridH, legendH), width, footH),
                Qt::AlignLeft | Qt::AlignVCenter,
                QStringLiteral("the first %1 × %2 of %3 × %4").arg(n).arg(m).arg(r.n).arg(r.m));
        }
    };
    return Figure{QSizeF(width, height), paint};
}

Figure sharesFigure(const AttentionResult& r, int head, int row, qreal width) {
    const HeadResult h = r.head[size_t(head)];         // a copy: the figure may outlive the result
    const std::vector<int> keys = sharesShown(r, row); // the window's bars (shares_shown.h)
    const int m = int(keys.size());
    const QFont labelFont = pdf::font(pdf::kSans, 8);
    const QFont valueFont = pdf::font(pdf::kSans, 8);
    const QStringList cols = keyLabels(r);
    qreal labelW = 0;
    for (const int j : keys) {
        labelW = std::max(labelW, textWidth(labelFont, cols[j]) + 8);
    }
    const qreal valueW = 44;
    const qreal trackW = std::min<qreal>(220, width - labelW - valueW);
    const qreal barH = 13;
    const qreal captionH = 13;
    const QString caption = QStringLiteral("Shares of %1 (row %2)")
                                .arg(QString::fromStdString(queryLabel(r, row)))
                                .arg(row + 1);
    QString note = r.h > 1 ? QStringLiteral("head %1").arg(head + 1) : QString();
    if (m < r.m) {
        note = (note.isEmpty() ? QString() : note + QStringLiteral(" · ")) +
               QStringLiteral("the %1 largest of %2 shares").arg(m).arg(r.m);
    }
    const bool wholeBars = allWhole(h.weightsT.colptr(arma::uword(row)), h.weightsT.n_rows);
    const qreal w =
        std::max(labelW + trackW + valueW, textWidth(pdf::font(pdf::kSans, 8, true), caption) + 50);
    auto paint = [=](QPainter& p) {
        drawCaption(p, caption, note, 0, captionH);
        for (int bar = 0; bar < m; ++bar) {
            const int j = keys[size_t(bar)];
            const qreal y = captionH + 2 + bar * barH;
            p.setFont(labelFont);
            p.setPen(pdf::kMuted);
            p.drawText(QRectF(0, y, labelW - 6, barH), Qt::AlignRight | Qt::AlignVCenter, cols[j]);
            const QRectF track(labelW, y + 2.5, trackW, barH - 5);
            p.fillRect(track, pdf::kFaint);
            if (h.blocked(arma::uword(row), arma::uword(j))) {
                p.setFont(valueFont);
                p.drawText(QRectF(labelW + trackW + 6, y, valueW, barH),
                           Qt::AlignLeft | Qt::AlignVCenter, QStringLiteral("blocked"));
                continue;
            }
            const double share = h.weight(arma::uword(row), arma::uword(j));
            p.fillRect(QRectF(track.left(), track.top(),
                              track.width() * std::clamp(share, 0.0, 1.0), track.height()),
                       pdf::heat(0.35 + 0.65 * share));
            p.setFont(valueFont);
            p.setPen(pdf::kInk);
            p.drawText(QRectF(labelW + trackW + 6, y, valueW, barH),
                       Qt::AlignLeft | Qt::AlignVCenter, entryNumber(share, 4, wholeBars));
        }
    };
    return Figure{QSizeF(w, captionH + 4 + m * barH), paint};
}

QImage renderFigures(const std::vector<Figure>& figures, qreal scale, qreal gap, qreal margin) {
    qreal w = margin, h = 0;
    for (const Figure& f : figures) {
        w += f.size.width() + gap;
        h = std::max(h, f.size.height());
    }
    w += margin - (figures.empty() ? 0 : gap);
    h += 2 * margin;
    QImage image(int(std::ceil(w * scale)), int(std::ceil(h * scale)), QImage::Format_RGB32);
    // Paint at 72 dpi, like the PDF, so that a point is a unit; then scale up.
    image.setDotsPerMeterX(2835);
    image.setDotsPerMeterY(2835);
    image.fill(Qt::white);
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing);
    p.setRenderHint(QPainter::TextAntialiasing);
    p.scale(scale, scale);
    qreal x = margin;
    for (const Figure& f : figures) {
        p.save();
        p.translate(x, margin);
        f.paint(p);
        p.restore();
        x += f.size.width() + gap;
    }
    p.end();
    // What the pixels mean for a viewer: 72 × scale dots per inch.
    const int dotsPerMetre = int(std::lround(72.0 * scale / 0.0254));
    image.setDotsPerMeterX(dotsPerMetre);
    image.setDotsPerMeterY(dotsPerMetre);
    return image;
}

} // namespace attnbook
