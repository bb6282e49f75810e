// What the model computes for the tokens, as printed boxes: the settings, the residual stream,
// the FFN and the next word (transformer_view_boxes.h).
#include "exports/paint/transformer_view_boxes.h"

#include "core/present/next_words_view.h"
#include "core/present/transformer_settings.h"

#include "core/present/view_titles.h"
#include "exports/paint/pdf_transformer.h"
#include "exports/paint/transformer_paint_helpers.h"

#include "core/document/json.h"
#include "core/math/blockwise_attention.h"
#include "core/math/layer_norm.h"
#include "core/math/number_format.h"
#include "core/math/transformer_engine.h"
#include "core/present/transformer_views.h"
#include "exports/paint/heat_palette.h"
#include "exports/paint/pdf_figures.h"
#include "exports/paint/pdf_prose.h"

#include <QtCore/QRegularExpression>
#include <QtGui/QFontMetricsF>
#include <QtGui/QPainter>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>

namespace attnbook::transformer_paint {

// ---- Settings ----

namespace {

// The settings (transformerSettingRows) as rows of an HTML table, the focus token in italics.
QString settingsRows(const LessonCell& cell, const TransformerCellSpec& spec,
                     const TransformerResult& r) {
    QString rows;
    for (const SettingRow& row : transformerSettingRows(cell, spec, r)) {
        rows += QStringLiteral("<tr><td width=\"110\" style=\"color:%1\">%2</td><td>%3%4</td></tr>")
                    .arg(pdf::kMuted.name(), htmlEscaped(qs(row.label)), htmlEscaped(qs(row.text)),
                         row.focusWord.empty()
                             ? QString()
                             : QStringLiteral("<i>%1</i>").arg(htmlEscaped(qs(row.focusWord))));
    }
    return rows;
}

// One row per layer (layerSettingRows), muted when not run.
GridTable layerTable(const TransformerConfig& c, const TransformerResult& r) {
    GridTable layers;
    for (const std::string& header : layerSettingHeaders()) {
        layers.headers << qs(header);
    }
    layers.leftAligned = {true, false, false, false, true, true, true, true};
    for (const LayerSettingRow& row : layerSettingRows(c, r)) {
        const QColor ink = row.ran ? pdf::kInk : pdf::kMuted;
        std::vector<GridCell> cells;
        for (const std::string& entry : row.entries) {
            cells.push_back({qs(entry), ink});
        }
        layers.rows.push_back(std::move(cells));
    }
    return layers;
}

} // namespace

PdfBoxPtr settingsView(const LessonCell& cell, const TransformerCellSpec& spec,
                       const TransformerResult& r, const CellPrintArea& area) {
    auto box = cellViewBox(QStringLiteral("Settings"), area);
    box->addRow(
        {{textFigure(htmlDocument(QStringLiteral("<table cellspacing=\"0\" cellpadding=\"1.5\" "
                                                 "width=\"100%\">%1</table>")
                                      .arg(settingsRows(cell, spec, r)),
                                  smallFont(), area.width))},
         0,
         3});
    box->addRow({{gridFigure(layerTable(spec.config, r))}, 0, 6});
    return box;
}

namespace {

// ---- The residual stream ----

// One stage of the residual stream: the vector after it, or the change it made.
struct Stage {
    QString where, what;
    arma::rowvec v;
    bool change;
    bool ruleAbove;
};

// The stream's stages as a table of their first `shown` coordinates and their lengths.
Figure streamTable(const std::vector<Stage>& stages, int shown) {
    std::vector<double> all;
    for (const Stage& s : stages) {
        for (int i = 0; i < shown; ++i) {
            all.push_back(s.v(arma::uword(i)));
        }
    }
    const NumberStyle number = styleFor(all, kStreamDigits);
    GridTable t;
    t.headers = {QStringLiteral("stage"), QString()};
    t.leftAligned = {true, true};
    for (int i = 0; i < shown; ++i) {
        t.headers << QString::number(i + 1);
    }
    t.headers << QStringLiteral("length");
    t.sameWidthFrom = 2;
    t.sameWidthTo = 2 + shown;
    for (size_t k = 0; k < stages.size(); ++k) {
        const Stage& s = stages[k];
        const QColor ink = s.change ? pdf::kMuted : pdf::kInk;
        std::vector<GridCell> row{{s.where, pdf::kMuted}, {s.what, ink, !s.change}};
        for (int i = 0; i < shown; ++i) {
            row.push_back({qs(number(s.v(arma::uword(i)))), ink});
        }
        row.push_back({fixed(arma::norm(s.v), kStreamDigits), ink});
        t.rows.push_back(row);
        if (s.ruleAbove) {
            t.rulesAbove.push_back(int(k));
        }
    }
    return gridFigure(t);
}

} // namespace

PdfBoxPtr streamView(const TransformerResult& r, const CellPrintArea& area) {
    const int focus = r.focus;
    auto box = cellViewBox(QStringLiteral("%1 of “%2” (row %3)")
                               .arg(qs(viewTitle("stream")), tokenAt(r, focus))
                               .arg(focus + 1),
                           area);
    int shown = std::min(r.d, kMaxCoordinates);
    const arma::uword f = arma::uword(focus);
    std::vector<Stage> stages;
    stages.push_back(
        {QStringLiteral("input"),
         r.P.is_zero() ? QStringLiteral("X⁰ = token") : QStringLiteral("X⁰ = token + position"),
         r.X.row(f), false, false});
    for (int l = 0; l < r.layersRun; ++l) {
        const TransformerLayerResult& layer = r.layers[size_t(l)];
        const QString where = QStringLiteral("layer %1").arg(l + 1);
        stages.push_back(
            {where, QStringLiteral("+ attention A"), layer.attention.output.row(f), true, true});
        if (layer.ffnAct.is_empty()) { // no FFN: X = R
            stages.push_back(
                {QString(),
                 QStringLiteral("= X") + superscript(l + 1) + QStringLiteral(" (no FFN)"),
                 layer.resid2.row(f), false, false});
            continue;
        }
        stages.push_back({QString(), QStringLiteral("= R"), layer.resid1.row(f), false, false});
        stages.push_back({QString(), QStringLiteral("+ FFN F"), layer.ffnOut.row(f), true, false});
        stages.push_back({QString(), QStringLiteral("= X") + superscript(l + 1),
                          layer.resid2.row(f), false, false});
    }
    stages.push_back({QStringLiteral("final LN"),
                      QStringLiteral("Z = LN_f(X") + superscript(r.layersRun) + u')',
                      r.finalLn.out.row(f), false, true});
    // As many coordinates as fit the width at print size (8 at most).
    Figure table;
    for (; shown >= 1; --shown) {
        table = streamTable(stages, shown);
        if (table.size.width() <= area.width || shown == 1) {
            break;
        }
    }
    box->addRow({{table}, 0, 4});
    QString note = QStringLiteral(
        "Each layer adds to the stream: the grey rows are what attention and the FFN add, the "
        "black rows the stream after the addition. LayerNorm only reads the stream.");
    if (shown < r.d) {
        note += QStringLiteral(" Coordinates 1–%1 of %2 are shown; the length ‖·‖ counts all %2.")
                    .arg(shown)
                    .arg(r.d);
    }
    addNote(*box, htmlEscaped(note), area);
    return box;
}

namespace {

// ---- The FFN ----

// Hidden units as shaded squares, 8 a row, each with its value.
Figure unitGridFigure(const arma::rowvec& values, qreal width) {
    const int count = std::min<int>(int(values.n_elem), kMaxUnitsShown);
    const int perRow = 8;
    const int rows = (count + perRow - 1) / perRow;
    const double largest = std::max(1e-12, arma::abs(values.head(arma::uword(count))).max());
    const QFont font = smallFont();
    const qreal labelW = textWidth(font, QStringLiteral("57–64")) + 8;
    const qreal cell = std::clamp<qreal>((width - labelW - 2) / perRow, 26, 36);
    const qreal cellH = 16;
    const qreal legendH = 24;
    const qreal w = labelW + cell * perRow + 2;
    const qreal h = rows * cellH + legendH;
    const arma::rowvec v = values;
    return Figure{QSizeF(w, h), [=](QPainter& p) {
                      const HeatPalette palette;
                      p.setFont(font);
                      for (int k = 0; k < count; ++k) {
                          const int row = k / perRow, col = k % perRow;
                          const QRectF box(labelW + col * cell, row * cellH, cell, cellH);
                          const QRgb fill = palette.change(v(arma::uword(k)) / largest);
                          p.fillRect(box, QColor(fill));
                          p.setPen(HeatPalette::textOn(fill));
                          p.drawText(box, Qt::AlignCenter, fixed(v(arma::uword(k)), 2));
                      }
                      p.setPen(pdf::kMuted);
                      for (int row = 0; row < rows; ++row) {
                          const int first = row * perRow + 1;
                          const int last = std::min(count, first + perRow - 1);
                          p.drawText(QRectF(0, row * cellH, labelW - 6, cellH),
                                     Qt::AlignRight | Qt::AlignVCenter,
                                     first == last ? QString::number(first)
                                                   : QStringLiteral("%1–%2").arg(first).arg(last));
                      }
                      p.setPen(QPen(Qt::white, 0.8));
                      for (int row = 0; row < rows; ++row) {
                          for (int col = 1; col < perRow && row * perRow + col < count; ++col) {
                              p.drawLine(QPointF(labelW + col * cell, row * cellH),
                                         QPointF(labelW + col * cell, (row + 1) * cellH));
                          }
                          if (row > 0) {
                              p.drawLine(QPointF(labelW, row * cellH),
                                         QPointF(labelW + cell * perRow, row * cellH));
                          }
                      }
                      // The scale: blue below zero, red above, from −largest to +largest.
                      const qreal y = rows * cellH + 6;
                      const qreal scaleW = cell * 4;
                      for (int s = 0; s < 40; ++s) {
                          p.fillRect(QRectF(labelW + scaleW * s / 40, y, scaleW / 40 + 0.3, 6),
                                     QColor(palette.change(-1.0 + 2.0 * (s + 0.5) / 40)));
                      }
                      p.setPen(pdf::kMuted);
                      p.drawText(QRectF(labelW - 40, y + 6, 80, 11), Qt::AlignCenter,
                                 fixed(-largest, 2));
                      p.drawText(QRectF(labelW + scaleW / 2 - 40, y + 6, 80, 11), Qt::AlignCenter,
                                 QStringLiteral("0"));
                      p.drawText(QRectF(labelW + scaleW - 40, y + 6, 80, 11), Qt::AlignCenter,
                                 fixed(largest, 2));
                  }};
}

} // namespace

PdfBoxPtr ffnView(const TransformerCellSpec& spec, const TransformerResult& r,
                  const CellPrintArea& area) {
    const arma::uword f = arma::uword(r.focus);
    auto box = cellViewBox(QStringLiteral("%1: the hidden units for “%2” (row %3)")
                               .arg(qs(viewTitle("ffn")))
                               .arg(tokenAt(r, r.focus))
                               .arg(r.focus + 1),
                           area);
    bool any = false;
    for (int l = 0; l < r.layersRun; ++l) {
        const TransformerLayerResult& layer = r.layers[size_t(l)];
        if (layer.ffnAct.is_empty()) {
            continue;
        }
        const Activation act = spec.config.layers[size_t(l)].ffn.activation;
        const arma::rowvec pre = layer.ffnPre.row(f);
        const arma::rowvec out = layer.ffnAct.row(f);
        const int dff = int(out.n_elem);
        FigureRowsBox::Row intro{
            {noteFigure(QStringLiteral("<b>Layer %1</b> · z = G W₁ᵀ + b₁, act = %2; "
                                       "d_ff = %3 units")
                            .arg(l + 1)
                            .arg(htmlEscaped(QString::fromUtf8(activationLabel(act))))
                            .arg(dff),
                        area.width)},
            0,
            any ? qreal(10) : qreal(4)};
        intro.keepWithNext = true;
        box->addRow(intro);
        any = true;
        if (dff <= kMaxCoordinates) {
            // Few units: both rows, each square shaded by its value.
            GridTable t;
            t.headers = {QStringLiteral("unit")};
            for (int k = 0; k < dff; ++k) {
                t.headers << QString::number(k + 1);
            }
            std::vector<double> all(pre.begin(), pre.end());
            all.insert(all.end(), out.begin(), out.end());
            const NumberStyle number = styleFor(all, 4);
            const double largest = std::max(1e-12, arma::abs(arma::join_rows(pre, out)).max());
            const HeatPalette palette;
            for (const auto& [label, values] :
                 {std::pair<QString, const arma::rowvec*>{QStringLiteral("z"), &pre},
                  {QStringLiteral("act(z)"), &out}}) {
                std::vector<GridCell> row{{label, pdf::kMuted}};
                for (double v : *values) {
                    const QRgb fill = palette.change(v / largest);
                    row.push_back({qs(number(v)), HeatPalette::textOn(fill), false, QColor(fill)});
                }
                t.rows.push_back(row);
            }
            box->addRow({{gridFigure(t)}, 0, 3});
            continue;
        }
        // Many units: the activations as a grid, and the strongest few with their z.
        std::vector<int> order(static_cast<size_t>(dff));
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
            return std::abs(out(arma::uword(a))) > std::abs(out(arma::uword(b)));
        });
        GridTable top;
        top.caption = QStringLiteral("The strongest");
        top.headers = {QStringLiteral("unit"), QStringLiteral("z"), QStringLiteral("act(z)")};
        for (size_t k = 0; k < order.size() && k < 6; ++k) {
            const arma::uword u = arma::uword(order[k]);
            top.rows.push_back({{QString::number(u + 1), pdf::kMuted},
                                {fixed(pre(u), 3)},
                                {fixed(out(u), 3), pdf::kInk, true}});
        }
        const Figure strongest = gridFigure(top);
        const Figure grid = unitGridFigure(out, area.width - strongest.size.width() - 20);
        box->addRow({{grid, strongest}, 18, 3});
        if (dff > kMaxUnitsShown) {
            addNote(*box,
                    QStringLiteral("Units 1–%1 of %2 are shown in the grid; the strongest are "
                                   "taken from all %2.")
                        .arg(kMaxUnitsShown)
                        .arg(dff),
                    area, 2);
        }
    }
    if (!any) {
        addNote(*box, QStringLiteral("No layer has an FFN (ffn: none, or switched off)."), area, 4);
    }
    return box;
}

namespace {

// ---- The next word ----

Figure nextWordsFigure(const NextWordsView& view, qreal width) {
    const bool chosenExtra = !view.bars.empty() && view.bars.back().extra;
    const QFont font = smallFont();
    const QFont bold = pdf::font(pdf::kSans, 8, true);
    const qreal labelMax = 96;
    qreal labelW = 0;
    QStringList labels;
    for (const NextWordBar& bar : view.bars) {
        labels << elided(shortWord(bar.word, 40), bold, labelMax);
        labelW = std::max(labelW, textWidth(bold, labels.back()) + 8);
    }
    const QString mark = qs(view.mark);
    const qreal valueW = 44;
    const qreal markW = textWidth(bold, mark) + 14;
    const qreal trackW = std::clamp<qreal>(width - labelW - valueW - markW, 80, 230);
    const qreal barH = 13;
    const qreal gapH = chosenExtra ? 8 : 0;
    const size_t shown = view.bars.size();
    const qreal h = shown * barH + gapH + 2;
    return Figure{QSizeF(labelW + trackW + valueW + markW, h), [=](QPainter& painter) {
                      for (size_t i = 0; i < shown; ++i) {
                          const NextWordBar& bar = view.bars[i];
                          const bool isChosen = bar.chosen;
                          const qreal y = i * barH + (bar.extra ? gapH : 0);
                          painter.setFont(isChosen ? bold : font);
                          painter.setPen(isChosen ? pdf::kAccent : pdf::kInk);
                          painter.drawText(QRectF(0, y, labelW - 6, barH),
                                           Qt::AlignRight | Qt::AlignVCenter, labels[qsizetype(i)]);
                          const QRectF track(labelW, y + 2.5, trackW, barH - 5);
                          painter.fillRect(track, pdf::kFaint);
                          const double share = bar.share;
                          painter.fillRect(
                              QRectF(track.left(), track.top(),
                                     track.width() * std::clamp(share, 0.0, 1.0), track.height()),
                              isChosen ? pdf::kAccent : pdf::heat(0.35 + 0.65 * share));
                          painter.setFont(isChosen ? bold : font);
                          painter.setPen(pdf::kInk);
                          painter.drawText(QRectF(labelW + trackW + 6, y, valueW, barH),
                                           Qt::AlignLeft | Qt::AlignVCenter, fixed(share, 4));
                          if (isChosen) {
                              painter.setPen(pdf::kAccent);
                              painter.drawText(QRectF(labelW + trackW + valueW + 4, y, markW, barH),
                                               Qt::AlignLeft | Qt::AlignVCenter,
                                               QStringLiteral("◀ ") + mark);
                          }
                      }
                      if (chosenExtra) {
                          painter.setPen(pdf::kMuted);
                          painter.setFont(font);
                          painter.drawText(QRectF(labelW, (shown - 1) * barH - 2, trackW, gapH + 4),
                                           Qt::AlignLeft | Qt::AlignVCenter, QStringLiteral("⋮"));
                      }
                  }};
}

} // namespace

PdfBoxPtr nextView(const TransformerCellSpec& spec, const TransformerResult& r,
                   const CellPrintArea& area) {
    const NextWordsView view = nextWordsView(spec, r);
    auto box = cellViewBox(qs(view.title), area);
    addNote(*box, htmlEscaped(qs(view.note)), area, 2, pdf::kInk);
    box->addRow({{nextWordsFigure(view, area.width)}, 0, 4});
    if (view.loss) {
        addNote(*box,
                QStringLiteral("Loss over the targets (mean cross-entropy): %1.")
                    .arg(fixed(*view.loss, 4)),
                area, 4, pdf::kInk);
    }
    return box;
}

} // namespace attnbook::transformer_paint
