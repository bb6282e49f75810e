// What the model does beyond one pass, as printed boxes: knock-outs, training, generation and
// the cache, attention in blocks, gradients (transformer_view_boxes.h).
#include "exports/paint/transformer_view_boxes.h"

#include "core/present/view_titles.h"
#include "exports/paint/pdf_transformer.h"
#include "exports/paint/transformer_paint_helpers.h"

#include "core/document/json.h"
#include "core/math/layer_norm.h"
#include "core/math/number_format.h"
#include "core/math/transformer_engine.h"
#include "core/present/transformer_settings.h"
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

namespace {

// ---- Knock-outs ----

// One bar per part: its label, the word's chance without it on a track, the number, and the
// word that comes first instead when it is another. The whole model's bar leads, in accent.
Figure knockoutFigure(const transformer_views::KnockoutView& view, qreal width) {
    struct Bar {
        QString label;
        double prob;
        QString instead;
        bool whole;
    };
    std::vector<Bar> bars{{QStringLiteral("whole model"), view.full, QString(), true}};
    for (const transformer_views::KnockoutBar& b : view.bars) {
        bars.push_back({qs(b.part), b.prob,
                        b.topChanged ? QStringLiteral("→ “%1” first").arg(shortWord(b.topWord, 16))
                                     : QString(),
                        false});
    }
    const QFont font = smallFont();
    const QFont bold = pdf::font(pdf::kSans, 8, true);
    qreal labelW = 0, insteadW = 0;
    for (const Bar& b : bars) {
        labelW = std::max(labelW, textWidth(bold, b.label) + 8);
        insteadW = std::max(insteadW, textWidth(font, b.instead) + 8);
    }
    const qreal valueW = 44;
    const qreal trackW = std::clamp<qreal>(width - labelW - valueW - insteadW, 80, 230);
    const qreal barH = 13;
    return Figure{
        QSizeF(labelW + trackW + valueW + insteadW, bars.size() * barH + 2), [=](QPainter& p) {
            for (size_t i = 0; i < bars.size(); ++i) {
                const Bar& b = bars[i];
                const qreal y = i * barH;
                p.setFont(b.whole ? bold : font);
                p.setPen(b.whole ? pdf::kAccent : pdf::kInk);
                p.drawText(QRectF(0, y, labelW - 6, barH), Qt::AlignRight | Qt::AlignVCenter,
                           b.label);
                const QRectF track(labelW, y + 2.5, trackW, barH - 5);
                p.fillRect(track, pdf::kFaint);
                p.fillRect(QRectF(track.left(), track.top(),
                                  track.width() * std::clamp(b.prob, 0.0, 1.0), track.height()),
                           b.whole ? pdf::kAccent : pdf::heat(0.35 + 0.65 * b.prob));
                p.setPen(pdf::kInk);
                p.drawText(QRectF(labelW + trackW + 6, y, valueW, barH),
                           Qt::AlignLeft | Qt::AlignVCenter, fixed(b.prob, 4));
                if (!b.instead.isEmpty()) {
                    p.setPen(pdf::kMuted);
                    p.drawText(QRectF(labelW + trackW + valueW + 4, y, insteadW, barH),
                               Qt::AlignLeft | Qt::AlignVCenter, b.instead);
                }
            }
        }};
}

} // namespace

PdfBoxPtr knockoutView(const TransformerResult& r, const CellPrintArea& area) {
    const std::optional<transformer_views::KnockoutView> view = transformer_views::knockoutView(r);
    if (!view) {
        return nullptr;
    }
    auto box = cellViewBox(QStringLiteral("%1: “%2” after “%3” (row %4)")
                               .arg(qs(viewTitle("knockout")))
                               .arg(shortWord(view->word, 24))
                               .arg(tokenAt(r, view->row))
                               .arg(view->row + 1),
                           area);
    addNote(*box,
            QStringLiteral("The model run again with one part removed, each bar the chance it "
                           "then gives the whole model’s top word. A head removed: its output is "
                           "zero before W<sub>O</sub>. Attention or FFN removed: it adds nothing "
                           "to the stream. A block removed: its input passes straight on."),
            area, 2);
    box->addRow({{knockoutFigure(*view, area.width)}, 0, 4});
    return box;
}

// ---- Training ----

PdfBoxPtr trainingView(const TransformerCellSpec& spec, const TransformerResult& r,
                       const CellPrintArea& area) {
    const std::optional<transformer_views::TrainingCurve> curve =
        transformer_views::trainingCurve(r.training.get());
    if (!curve || !spec.training) {
        return nullptr;
    }
    const TrainingSpec& t = *spec.training;
    auto box =
        cellViewBox(qs(viewTitle("training")) + QStringLiteral(": the loss at each step"), area);
    addNote(*box,
            htmlEscaped(qs(trainingCurveText(t, curve->loss, curve->shown, curve->shownLoss))),
            area, 2, pdf::kInk);
    if (!curve->stopped.empty()) {
        addNote(*box, htmlEscaped(qs(curve->stopped)) + QStringLiteral("."), area, 2, pdf::kInk);
    }
    const transformer_views::TrainingChart chart = transformer_views::trainingChart(*curve);
    box->addRow(
        {{chartFigure(chart.chart, chart.series, QSizeF(std::min<qreal>(area.width, 360), 170))},
         0,
         4});
    return box;
}

// ---- Generation and the cache ----

PdfBoxPtr generationView(const TransformerCellSpec& spec, const TransformerResult& r,
                         const CellPrintArea& area) {
    auto box = cellViewBox(qs(viewTitle("generation")), area);
    const GenerationResult& g = r.generation;
    if (!spec.config.generate) {
        addNote(*box,
                QStringLiteral("The cell asks for no generation (generate: {steps: N, pick: "
                               "greedy} appends N words)."),
                area);
        return box;
    }
    if (!g.refused.empty() && g.steps.empty()) {
        addNote(*box, QStringLiteral("Generation did not run: %1.").arg(htmlEscaped(qs(g.refused))),
                area, 4, pdf::kInk);
        return box;
    }
    QStringList words;
    for (const GenerationStep& s : g.steps) {
        words << htmlEscaped(shortWord(s.label));
    }
    addNote(*box,
            QStringLiteral("%1 <span style=\"color:%2\"><b>%3</b></span>")
                .arg(htmlEscaped(
                         tokenList(r.tokens).replace(QStringLiteral(", "), QStringLiteral(" "))),
                     pdf::kAccent.name(), words.join(QStringLiteral(" "))),
            area, 2, pdf::kInk);
    GridTable t;
    t.headers = {QStringLiteral("step t"), QStringLiteral("word"), QStringLiteral("chance"),
                 QStringLiteral("comparisons with the cache"),
                 QStringLiteral("without it, (n + t − 1)²")};
    t.leftAligned = {false, true, false, false, false};
    double cached = 0, full = 0;
    for (size_t i = 0; i < g.steps.size(); ++i) {
        const GenerationStep& s = g.steps[i];
        cached += s.costCached;
        full += s.costFull;
        t.rows.push_back({{QString::number(i + 1), pdf::kMuted},
                          {shortWord(s.label), pdf::kAccent, true},
                          {fixed(s.prob, 4)},
                          {readable(s.costCached)},
                          {readable(s.costFull)}});
    }
    t.rows.push_back({{QStringLiteral("all")},
                      {},
                      {},
                      {readable(cached), pdf::kInk, true},
                      {readable(full), pdf::kInk, true}});
    t.rulesAbove.push_back(int(t.rows.size()) - 1);
    box->addRow({{gridFigure(t)}, 0, 4});
    QString note =
        QStringLiteral(
            "Comparisons are query–key products per head and layer. Step 1 runs the %1 (n² = %2); "
            "each later step runs only the new word's row against the n + t − 1 cached keys.")
            .arg(r.n == 1 ? QStringLiteral("one prompt token")
                          : QStringLiteral("%1 prompt tokens").arg(r.n))
            .arg(r.n * r.n);
    if (!g.refused.empty()) {
        note += QStringLiteral(" Stopped early: %1.").arg(qs(g.refused));
    }
    addNote(*box, htmlEscaped(note), area);
    return box;
}

namespace {

// Two bars a step, with the cache and without, each with its count at its end.
Figure costBarsFigure(const GenerationResult& g, qreal width) {
    const QFont font = smallFont();
    double largest = 1;
    for (const GenerationStep& s : g.steps) {
        largest = std::max(largest, s.costFull);
    }
    const size_t count = std::min<size_t>(g.steps.size(), 12);
    const qreal labelW = textWidth(font, QStringLiteral("step 12")) + 8;
    const qreal valueW = textWidth(font, readable(largest)) + 8;
    const qreal trackW = std::min<qreal>(260, width - labelW - valueW);
    const qreal barH = 8, barGap = 3, stepH = 2 * barH + barGap + 7;
    const qreal legendH = 16;
    const std::vector<GenerationStep> steps(g.steps.begin(), g.steps.begin() + long(count));
    return Figure{
        QSizeF(labelW + trackW + valueW, legendH + count * stepH - 7), [=](QPainter& p) {
            p.setFont(font);
            const qreal other = labelW + textWidth(font, QStringLiteral("with the cache")) + 34;
            p.fillRect(QRectF(labelW, 3, 10, 7), pdf::kAccent);
            p.setPen(pdf::kInk);
            p.drawText(QRectF(labelW + 14, 0, 120, 13), Qt::AlignLeft | Qt::AlignVCenter,
                       QStringLiteral("with the cache"));
            p.fillRect(QRectF(other, 3, 10, 7), pdf::kRule);
            p.drawText(QRectF(other + 14, 0, 120, 13), Qt::AlignLeft | Qt::AlignVCenter,
                       QStringLiteral("without it"));
            for (size_t i = 0; i < steps.size(); ++i) {
                const qreal y = legendH + i * stepH;
                p.setPen(pdf::kMuted);
                p.drawText(QRectF(0, y, labelW - 6, 2 * barH + barGap),
                           Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("step %1").arg(i + 1));
                const qreal a = std::max<qreal>(0.8, trackW * steps[i].costCached / largest);
                const qreal b = std::max<qreal>(0.8, trackW * steps[i].costFull / largest);
                p.fillRect(QRectF(labelW, y, a, barH), pdf::kAccent);
                p.fillRect(QRectF(labelW, y + barH + barGap, b, barH), pdf::kRule);
                p.setPen(pdf::kInk);
                p.drawText(QRectF(labelW + a + 4, y - 1, valueW, barH + 2),
                           Qt::AlignLeft | Qt::AlignVCenter, readable(steps[i].costCached));
                p.drawText(QRectF(labelW + b + 4, y + barH + barGap - 1, valueW, barH + 2),
                           Qt::AlignLeft | Qt::AlignVCenter, readable(steps[i].costFull));
            }
        }};
}

} // namespace

PdfBoxPtr cacheView(const TransformerCellSpec& spec, const TransformerResult& r,
                    bool generationShown, const CellPrintArea& area) {
    auto box = cellViewBox(qs(viewTitle("cache")) + QStringLiteral(" of keys and values"), area);
    const GenerationResult& g = r.generation;
    const int steps = g.ran ? int(g.steps.size()) : 0;
    const transformer_views::CacheSize size = transformer_views::cacheSize(r);
    const QString text = htmlEscaped(qs(size.lead)) +
                         QStringLiteral("<b>%1 = %2 numbers</b>.")
                             .arg(htmlEscaped(qs(size.formula)), htmlEscaped(qs(size.numbers)));
    addNote(*box, text, area, 2, pdf::kInk);
    if (spec.config.generate && !g.refused.empty() && steps == 0 && !generationShown) {
        addNote(*box, QStringLiteral("Generation was refused: %1.").arg(htmlEscaped(qs(g.refused))),
                area);
    }
    if (steps > 0) {
        FigureRowsBox::Row caption{
            {noteFigure(QStringLiteral("<b>Query–key comparisons per head and layer</b>"),
                        area.width)},
            0,
            8};
        caption.keepWithNext = true;
        box->addRow(caption);
        box->addRow({{costBarsFigure(g, area.width)}, 0, 2});
        if (g.steps.size() > 12) {
            addNote(*box, QStringLiteral("The first 12 of %1 steps.").arg(g.steps.size()), area, 2);
        }
    }
    return box;
}

// ---- Attention in blocks ----

PdfBoxPtr blocksView(const TransformerCellSpec& spec, const TransformerResult& r,
                     const CellPrintArea& area) {
    const std::optional<transformer_views::Blocks> blocks =
        transformer_views::blocksOfFocus(spec, r);
    if (!blocks) {
        return nullptr;
    }
    const AttentionResult& a = r.layers[size_t(blocks->layer)].attention;
    auto box = cellViewBox(
        QStringLiteral("%1 of %2 keys").arg(qs(viewTitle("blocks"))).arg(blocks->blockSize), area);
    addNote(*box,
            htmlEscaped(
                qs(transformer_views::blocksLead(*blocks, tokenAt(r, blocks->row).toStdString()))),
            area, 2, pdf::kInk);
    const int shown = transformer_views::blocksCoordinatesShown(*blocks);
    const NumberStyle number = transformer_views::blocksNumberStyle(*blocks);
    GridTable t;
    t.headers = {QStringLiteral("keys"), QStringLiteral("m"), QStringLiteral("ℓ")};
    for (int i = 0; i < shown; ++i) {
        t.headers << QStringLiteral("o") + subscript(i + 1);
    }
    t.leftAligned = {true};
    t.sameWidthFrom = 1;
    t.sameWidthTo = 2 + shown;
    for (const transformer_views::BlockStep& s : blocks->steps) {
        QStringList keys;
        for (int k = s.first; k < s.end; ++k) {
            keys << (size_t(k) < a.tokens.size() ? shortWord(a.tokens[size_t(k)], 10)
                                                 : QString::number(k + 1));
        }
        const QString range = s.end - s.first == 1
                                  ? QString::number(s.first + 1)
                                  : QStringLiteral("%1–%2").arg(s.first + 1).arg(s.end);
        const QColor ink = s.read ? pdf::kInk : pdf::kMuted;
        std::vector<GridCell> row{{range + QStringLiteral(": ") + keys.join(QStringLiteral(", ")) +
                                       (s.read ? QString() : QStringLiteral(" (masked)")),
                                   ink},
                                  {s.max ? qs(number(*s.max)) : QStringLiteral("−∞"), ink},
                                  {qs(number(s.total)), ink}};
        for (int i = 0; i < shown; ++i) {
            row.push_back({qs(number(s.out[size_t(i)])), ink});
        }
        t.rows.push_back(row);
    }
    const auto outputRow = [&](const QString& label, const std::vector<double>& v, bool bold) {
        std::vector<GridCell> row{{label, pdf::kInk, bold}, {}, {}};
        for (int i = 0; i < shown; ++i) {
            row.push_back({fixed(v[size_t(i)], 4), pdf::kInk, bold});
        }
        t.rows.push_back(row);
    };
    t.rulesAbove.push_back(int(t.rows.size()));
    outputRow(QStringLiteral("output o / ℓ"), blocks->output, true);
    outputRow(QStringLiteral("plain path: softmax(S) V"), blocks->plain, false);
    box->addRow({{gridFigure(t)}, 0, 4});
    addNote(*box, htmlEscaped(qs(transformer_views::blocksAgreement(*blocks))), area);
    return box;
}

// ---- Gradients ----

PdfBoxPtr gradientsView(const TransformerCellSpec& spec, const TransformerResult& r,
                        const CellPrintArea& area) {
    auto box = cellViewBox(qs(viewTitle("gradients")), area);
    GridTable t;
    t.headers = {QStringLiteral("parameter"), QStringLiteral("shape"), QStringLiteral("‖∂L/∂·‖"),
                 QStringLiteral("largest |entry|")};
    t.leftAligned = {true, true, false, false};
    for (const transformer_views::GradientRow& row : transformer_views::gradientRows(spec, r)) {
        if (row.ruleAbove) {
            t.rulesAbove.push_back(int(t.rows.size()));
        }
        t.rows.push_back({{qs(row.name)},
                          {QStringLiteral("%1 × %2").arg(row.rows).arg(row.cols), pdf::kMuted},
                          {qs(readableNumber(row.norm, 4))},
                          {qs(readableNumber(row.largest, 4))}});
    }
    FigureRowsBox::Row intro{
        {noteFigure(htmlEscaped(qs(transformer_views::gradientLossText(r))), area.width)}, 0, 2};
    intro.keepWithNext = true;
    box->addRow(intro);
    box->addRow({{gridFigure(t)}, 0, 4});
    for (const QString& line : gradientCheckLines(r.gradcheck)) {
        box->addRow({{labelFigure(line, smallFont(), pdf::kInk, area.width)}, 0, 2});
    }
    return box;
}

} // namespace attnbook::transformer_paint
