#include "exports/paint/grid_figure.h"

#include "core/present/transformer_summary.h"

#include "exports/paint/transformer_paint_helpers.h"

#include <QtGui/QFontMetricsF>
#include <QtGui/QPainter>

#include <algorithm>
#include <cmath>

namespace attnbook {

using transformer_paint::elided;
using transformer_paint::smallFont;
using transformer_paint::textWidth;

QString shortWord(const std::string& word, int chars) {
    return QString::fromStdString(shortWordText(word, chars)); // one rule: the core's
}

namespace {

// What gridFigure measures before it paints: the elided texts and each column's width.
struct GridLayout {
    QFont font = smallFont();
    QFont bold = pdf::font(pdf::kSans, 8, true);
    QString caption, note;
    QStringList headers;
    std::vector<std::vector<GridCell>> rows;
    std::vector<int> rules;
    std::vector<bool> left;    // per column: left-aligned
    std::vector<qreal> widths; // per column, padding included
    qreal pad = 5, total = 0, width = 0;
    qreal captionH = 0, headerH = 0, rowH = 12.5;
    qreal top() const { return captionH + headerH; }
};

// The texts elided to t.maxCellWidth, and each column as wide as its widest text (the columns
// [sameWidthFrom, sameWidthTo] as wide as the widest of them), padded; a right-aligned
// column at least t.minNumberWidth.
void measureGridColumns(const GridTable& t, GridLayout& g) {
    const int columns = int(g.left.size());
    g.widths.assign(size_t(columns), 0);
    for (int c = 0; c < g.headers.size(); ++c) {
        g.headers[c] = elided(g.headers[c], g.font, t.maxCellWidth);
        g.widths[size_t(c)] = textWidth(g.font, g.headers[c]);
    }
    for (std::vector<GridCell>& row : g.rows) {
        for (size_t c = 0; c < row.size(); ++c) {
            const QFont& f = row[c].bold ? g.bold : g.font;
            row[c].text = elided(row[c].text, f, t.maxCellWidth);
            g.widths[c] = std::max(g.widths[c], textWidth(f, row[c].text));
        }
    }
    if (t.sameWidthFrom >= 0 && t.sameWidthTo >= t.sameWidthFrom) {
        const int to = std::min(t.sameWidthTo, columns - 1);
        qreal widest = 0;
        for (int c = t.sameWidthFrom; c <= to; ++c) {
            widest = std::max(widest, g.widths[size_t(c)]);
        }
        for (int c = t.sameWidthFrom; c <= to; ++c) {
            g.widths[size_t(c)] = widest;
        }
    }
    for (size_t c = 0; c < g.widths.size(); ++c) {
        g.widths[c] += 2 * g.pad;
        if (!g.left[c]) {
            g.widths[c] = std::max(g.widths[c], t.minNumberWidth);
        }
        g.total += g.widths[c];
    }
}

GridLayout measureGrid(const GridTable& t) {
    GridLayout g;
    g.caption = t.caption;
    g.note = t.note;
    g.headers = t.headers;
    g.rows = t.rows;
    g.rules = t.rulesAbove;
    size_t columns = size_t(t.headers.size());
    for (const std::vector<GridCell>& row : t.rows) {
        columns = std::max(columns, row.size());
    }
    for (size_t c = 0; c < columns; ++c) {
        g.left.push_back(c < t.leftAligned.size() ? bool(t.leftAligned[c]) : c == 0);
    }
    measureGridColumns(t, g);
    g.captionH = t.caption.isEmpty() ? 0 : 13;
    g.headerH = g.headers.isEmpty() ? 0 : 12;
    const qreal captionW =
        t.caption.isEmpty()
            ? 0
            : textWidth(g.bold, t.caption) + (t.note.isEmpty() ? 0 : textWidth(g.font, t.note) + 6);
    g.width = std::max(g.total, captionW) + 1;
    return g;
}

Qt::Alignment gridAlignment(const GridLayout& g, size_t column) {
    return (g.left[column] ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter;
}

// The caption with its note, and the headers.
void paintGridHeader(QPainter& p, const GridLayout& g, const std::vector<qreal>& xs) {
    if (g.captionH > 0) {
        p.setFont(g.bold);
        p.setPen(pdf::kInk);
        p.drawText(QRectF(0, 0, g.width, g.captionH), Qt::AlignLeft | Qt::AlignVCenter, g.caption);
        if (!g.note.isEmpty()) {
            p.setFont(g.font);
            p.setPen(pdf::kMuted);
            p.drawText(QRectF(textWidth(g.bold, g.caption) + 5, 0, g.width, g.captionH),
                       Qt::AlignLeft | Qt::AlignVCenter, g.note);
        }
    }
    p.setFont(g.font);
    p.setPen(pdf::kMuted);
    for (int c = 0; c < g.headers.size(); ++c) {
        p.drawText(
            QRectF(xs[size_t(c)] + g.pad, g.captionH, g.widths[size_t(c)] - 2 * g.pad, g.headerH),
            gridAlignment(g, size_t(c)), g.headers[c]);
    }
}

// The rules above and below the rows, and the thin ones between them.
void paintGridRules(QPainter& p, const GridLayout& g) {
    const qreal bottom = g.top() + g.rowH * qreal(g.rows.size());
    p.setPen(QPen(pdf::kInk, 0.6));
    p.drawLine(QPointF(0, g.top()), QPointF(g.total, g.top()));
    p.drawLine(QPointF(0, bottom), QPointF(g.total, bottom));
    p.setPen(QPen(pdf::kRule, 0.5));
    for (int r : g.rules) {
        if (r > 0 && size_t(r) < g.rows.size()) {
            p.drawLine(QPointF(0, g.top() + g.rowH * r), QPointF(g.total, g.top() + g.rowH * r));
        }
    }
}

void paintGrid(QPainter& p, const GridLayout& g) {
    std::vector<qreal> xs; // each column's left edge
    qreal x = 0;
    for (qreal w : g.widths) {
        xs.push_back(x);
        x += w;
    }
    paintGridHeader(p, g, xs);
    for (size_t r = 0; r < g.rows.size(); ++r) {
        const qreal y = g.top() + g.rowH * qreal(r);
        for (size_t c = 0; c < g.rows[r].size(); ++c) {
            const GridCell& cell = g.rows[r][c];
            const QRectF box(xs[c], y, g.widths[c], g.rowH);
            if (cell.fill.isValid()) {
                p.fillRect(box.adjusted(0.4, 0.4, -0.4, -0.4), cell.fill);
            }
            p.setFont(cell.bold ? g.bold : g.font);
            p.setPen(cell.ink);
            p.drawText(box.adjusted(g.pad, 0, -g.pad, 0), gridAlignment(g, c), cell.text);
        }
    }
    paintGridRules(p, g);
}

} // namespace

Figure gridFigure(const GridTable& t) {
    const GridLayout g = measureGrid(t);
    const qreal height = g.top() + g.rowH * qreal(g.rows.size()) + 2;
    return Figure{QSizeF(g.width, height), [g](QPainter& p) { paintGrid(p, g); }};
}

} // namespace attnbook
