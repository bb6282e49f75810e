// Longer than 500 lines on purpose: one printed box per view of a transformer cell (settings,
// stream, ffn, next, generation, cache, blocks, gradients), each with its own small figure, all
// built on the text grid at the top; split, each part would need the grid and the number
// helpers in a shared header of their own.
#include "exports/pdf_transformer.h"

#include "core/present/view_titles.h"

#include "core/document/json.h"
#include "core/math/blockwise_attention.h"
#include "core/math/layer_norm.h"
#include "core/math/number_format.h"
#include "core/math/transformer_engine.h"
#include "core/present/transformer_views.h"
#include "exports/heat_palette.h"
#include "exports/pdf_figures.h"
#include "exports/pdf_prose.h"

#include <QtCore/QRegularExpression>
#include <QtGui/QFontMetricsF>
#include <QtGui/QPainter>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>

namespace attnbook {

namespace {

constexpr int kMaxCoordinates = 8; // stream and blocks tables: the first coordinates of a row
constexpr int kMaxLayersShown = 4; // each layer's attention views
constexpr int kMaxUnitsShown = 64; // the FFN grid
constexpr int kStreamDigits = 3;

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

QString fixed(double v, int digits) {
    return qs(fixedNumber(v, digits));
}

QString readable(double v, int digits = 4) {
    return qs(readableNumber(v, digits));
}

// A setting as the author wrote it: T = 0.5, not 0.5000.
QString shortest(double v) {
    return readable(v, 6).remove(QRegularExpression(QStringLiteral("\\.?0+$")));
}

// How a cell trains: "Adam, lr 0.05, 4 sentences, from random weights (seed 7)".
QString trainingMethod(const TrainingSpec& t) {
    return QStringLiteral("%1, lr %2, %3 %4%5")
        .arg(t.optimizer == TrainingSpec::Optimizer::Adam ? QStringLiteral("Adam")
                                                          : QStringLiteral("SGD"))
        .arg(shortest(t.lr))
        .arg(t.data.size())
        .arg(t.data.size() == 1 ? QStringLiteral("sentence") : QStringLiteral("sentences"))
        .arg(t.init ? QStringLiteral(", from random weights (seed %1)").arg(t.init->seed)
                    : QString());
}

qreal textWidth(const QFont& font, const QString& text) {
    return QFontMetricsF(font, layoutDevice()).horizontalAdvance(text);
}

QString elided(const QString& text, const QFont& font, qreal width) {
    return QFontMetricsF(font, layoutDevice()).elidedText(text, Qt::ElideRight, width);
}

// "¹", "²", … for a layer's number in X¹.
QString superscript(int k) {
    static const char* const digits[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
    QString out;
    for (QChar c : QString::number(k)) {
        out += QString::fromUtf8(digits[c.digitValue()]);
    }
    return out;
}

QString subscript(int k) {
    static const char* const digits[] = {"₀", "₁", "₂", "₃", "₄", "₅", "₆", "₇", "₈", "₉"};
    QString out;
    for (QChar c : QString::number(k)) {
        out += QString::fromUtf8(digits[c.digitValue()]);
    }
    return out;
}

// Every entry of a table one way: whole numbers when all are whole, else `digits` decimals.
struct NumberStyle {
    bool whole = false;
    int digits = 3;
    QString operator()(double v) const { return whole ? readable(v, digits) : fixed(v, digits); }
};

NumberStyle styleFor(const std::vector<double>& values, int digits) {
    return {allWhole(values.data(), values.size()), digits};
}

QString tokenAt(const TransformerResult& r, int row) {
    return row >= 0 && size_t(row) < r.tokens.size() ? shortWord(r.tokens[size_t(row)])
                                                     : QStringLiteral("#%1").arg(row + 1);
}

// A font per use, never shared: variants are laid out on several threads, and a QFont's
// engine is resolved per thread.
QFont smallFont() {
    return pdf::font(pdf::kSans, 8);
}

// A paragraph of small print as a figure (notes under a table, the cache in words).
Figure noteFigure(const QString& html, qreal width, const QColor& colour = pdf::kInk) {
    return textFigure(
        htmlDocument(QStringLiteral("<p style=\"color:%1\">%2</p>").arg(colour.name(), html),
                     smallFont(), width));
}

void addNote(FigureRowsBox& box, const QString& html, const CellPrintArea& area,
             qreal spaceBefore = 4, const QColor& colour = pdf::kMuted) {
    box.addRow({{noteFigure(html, area.width, colour)}, 0, spaceBefore});
}

bool hasLayerNorm(const LayerNormParams& ln) {
    return !ln.identity;
}

QString normWords(const LayerNormParams& ln) {
    if (ln.identity) {
        return QStringLiteral("none");
    }
    const bool gamma = !ln.gamma.is_empty();
    const bool beta = !ln.beta.is_empty();
    return gamma && beta ? QStringLiteral("γ, β given")
           : gamma       ? QStringLiteral("γ given, β = 0")
           : beta        ? QStringLiteral("γ = 1, β given")
                         : QStringLiteral("γ = 1, β = 0");
}

// "data/tiny/model.safetensors (27 tensors); data/tiny/vocab.txt": where the weights came from.
// The files the cell read, as paper lists them: those that gave weights (with how many values
// each gave) and those that gave training sentences.
struct CellSources {
    QString weights, sentences;
};

CellSources cellSources(const LessonCell& cell, const TransformerCellSpec& spec) {
    std::map<std::string, int> tensors;
    std::set<std::string> sentences;
    for (const auto& [key, origin] : spec.loadedFrom) {
        if (key == "train.data" || key == "train.held_out") {
            sentences.insert(origin);
            continue;
        }
        size_t end = origin.find(" tensor ");
        end = std::min(end, origin.find(", shape"));
        ++tensors[origin.substr(0, end)];
    }
    QStringList weights, read;
    std::vector<std::string> files;
    for (const std::string& file : cell.read.dataFiles) {
        if (std::find(files.begin(), files.end(), file) == files.end()) {
            files.push_back(file);
        }
    }
    for (const std::string& file : files) {
        const auto it = tensors.find(file);
        if (sentences.count(file) && it == tensors.end()) {
            read << htmlEscaped(qs(file));
        } else if (it != tensors.end() && it->second > 1) {
            weights << QStringLiteral("%1 (%2 values)").arg(htmlEscaped(qs(file))).arg(it->second);
        } else {
            weights << htmlEscaped(qs(file));
        }
    }
    return {weights.join(QStringLiteral("; ")), read.join(QStringLiteral("; "))};
}

QString tokenList(const std::vector<std::string>& tokens, size_t most = 12) {
    QStringList words;
    for (size_t i = 0; i < tokens.size() && i < most; ++i) {
        words << shortWord(tokens[i]);
    }
    if (tokens.size() > most) {
        words << QStringLiteral("… (%1 in all)").arg(tokens.size());
    }
    return words.join(QStringLiteral(", "));
}

// ---- Settings ----

PdfBoxPtr settingsView(const LessonCell& cell, const TransformerCellSpec& spec,
                       const TransformerResult& r, const CellPrintArea& area) {
    const TransformerConfig& c = spec.config;
    auto box = cellViewBox(QStringLiteral("Settings"), area);
    QStringList rows;
    const auto row = [&](const QString& label, const QString& value) {
        rows << QStringLiteral("<tr><td width=\"110\" style=\"color:%1\">%2</td><td>%3</td></tr>")
                    .arg(pdf::kMuted.name(), label, value);
    };
    row(QStringLiteral("Tokens"), QStringLiteral("%1 (n = %2); the views follow row %3, <i>%4</i>")
                                      .arg(htmlEscaped(tokenList(r.tokens)))
                                      .arg(r.n)
                                      .arg(r.focus + 1)
                                      .arg(htmlEscaped(tokenAt(r, r.focus))));
    const int L = int(c.layers.size());
    row(QStringLiteral("Model"),
        QStringLiteral("%1, pre-norm (GPT-2's order); width d = %2; %3 %4 words%5")
            .arg(r.layersRun == L
                     ? QStringLiteral("%1 %2").arg(L).arg(L == 1 ? "layer" : "layers")
                     : QStringLiteral("the first %1 of %2 layers").arg(r.layersRun).arg(L))
            .arg(r.d)
            .arg(c.tiedUnembed ? QStringLiteral("the logits score the vocabulary's")
                               : QStringLiteral("the logits score"))
            .arg(r.V)
            .arg(c.tiedUnembed ? QStringLiteral(" (tied unembedding)")
                               : QStringLiteral(" (their own unembedding)")));
    row(QStringLiteral("Positions"),
        c.positional == PositionalKind::Sinusoidal ? QStringLiteral("sinusoidal, added to X₀")
        : c.positional == PositionalKind::Learned  ? QStringLiteral("given, added to X₀")
                                                   : QStringLiteral("none"));
    bool norms = hasLayerNorm(c.finalLn);
    for (const TransformerLayer& layer : c.layers) {
        norms = norms || hasLayerNorm(layer.ln1) || hasLayerNorm(layer.ln2);
    }
    const int epsDecimals = std::clamp(int(std::ceil(-std::log10(c.eps) - 1e-9)), 0, 12);
    row(QStringLiteral("Final LayerNorm"), norms ? QStringLiteral("%1; every LayerNorm uses ε = %2")
                                                       .arg(normWords(c.finalLn))
                                                       .arg(readable(c.eps, epsDecimals))
                                                 : QStringLiteral("none (no LayerNorm anywhere)"));
    row(QStringLiteral("Temperature"), QStringLiteral("T = %1").arg(shortest(c.temperature)));
    if (!c.targets.empty()) {
        QStringList targets;
        for (int t : c.targets) {
            targets << (t >= 0 && size_t(t) < r.words.size()
                            ? htmlEscaped(shortWord(r.words[size_t(t)]))
                            : QStringLiteral("~"));
        }
        row(QStringLiteral("Targets"),
            targets.join(QStringLiteral(", ")) +
                (r.loss ? QStringLiteral("; loss (mean cross-entropy) %1").arg(fixed(*r.loss, 4))
                        : QString()));
    }
    if (c.generate) {
        row(QStringLiteral("Generation"),
            QStringLiteral("%1 %2, %3")
                .arg(c.generate->steps)
                .arg(c.generate->steps == 1 ? "step" : "steps")
                .arg(c.generate->pick == PickKind::Greedy
                         ? QStringLiteral("greedy (the most likely word)")
                         : QStringLiteral("sampled with seed %1").arg(c.generate->seed)));
    }
    if (spec.training && r.training) {
        row(QStringLiteral("Training"),
            QStringLiteral("%1 %2: %3; the numbers are the model's after step %4")
                .arg(spec.training->steps)
                .arg(spec.training->steps == 1 ? "step" : "steps")
                .arg(trainingMethod(*spec.training))
                .arg(r.training->shown));
    }
    const CellSources sources = cellSources(cell, spec);
    if (!sources.weights.isEmpty()) {
        row(QStringLiteral("Weights read from"), sources.weights);
    }
    if (!sources.sentences.isEmpty()) {
        row(QStringLiteral("Sentences read from"), sources.sentences);
    }
    box->addRow(
        {{textFigure(htmlDocument(QStringLiteral("<table cellspacing=\"0\" cellpadding=\"1.5\" "
                                                 "width=\"100%\">%1</table>")
                                      .arg(rows.join(QString())),
                                  smallFont(), area.width))},
         0,
         3});

    GridTable layers;
    layers.headers = {QStringLiteral("layer"), QStringLiteral("heads"), QStringLiteral("d_k"),
                      QStringLiteral("d_v"),   QStringLiteral("mask"),  QStringLiteral("LN₁"),
                      QStringLiteral("FFN"),   QStringLiteral("LN₂")};
    layers.leftAligned = {true, false, false, false, true, true, true, true};
    for (int l = 0; l < L; ++l) {
        const TransformerLayer& layer = c.layers[size_t(l)];
        const bool ran = l < r.layersRun;
        const AttentionResult* a = ran ? &r.layers[size_t(l)].attention : nullptr;
        const QColor ink = ran ? pdf::kInk : pdf::kMuted;
        QString ffn = QStringLiteral("none");
        if (layer.ffn.present) {
            ffn = QStringLiteral("d_ff = %1, %2")
                      .arg(layer.ffn.W1.n_rows)
                      .arg(QString::fromUtf8(activationLabel(layer.ffn.activation)));
        }
        layers.rows.push_back(
            {{QString::number(l + 1) + (ran ? QString() : QStringLiteral(" (not run)")), ink},
             {QString::number(a ? a->h : layer.attention.heads), ink},
             {a ? QString::number(a->dK) : QStringLiteral("—"), ink},
             {a ? QString::number(a->dV) : QStringLiteral("—"), ink},
             {layer.attention.mask == MaskKind::Causal ? QStringLiteral("causal")
                                                       : QStringLiteral("none"),
              ink},
             {normWords(layer.ln1), ink},
             {ffn, ink},
             {normWords(layer.ln2), ink}});
    }
    box->addRow({{gridFigure(layers)}, 0, 6});
    return box;
}

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
            row.push_back({number(s.v(arma::uword(i))), ink});
        }
        row.push_back({fixed(arma::norm(s.v), kStreamDigits), ink});
        t.rows.push_back(row);
        if (s.ruleAbove) {
            t.rulesAbove.push_back(int(k));
        }
    }
    return gridFigure(t);
}

PdfBoxPtr streamView(const TransformerResult& r, const CellPrintArea& area) {
    const int focus = r.focus;
    auto box = cellViewBox(
        QStringLiteral("Residual stream of “%1” (row %2)").arg(tokenAt(r, focus)).arg(focus + 1),
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

PdfBoxPtr ffnView(const TransformerCellSpec& spec, const TransformerResult& r,
                  const CellPrintArea& area) {
    const arma::uword f = arma::uword(r.focus);
    auto box = cellViewBox(QStringLiteral("The FFN's hidden units for “%1” (row %2)")
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
                    row.push_back({number(v), HeatPalette::textOn(fill), false, QColor(fill)});
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

// ---- The next word ----

Figure nextWordsFigure(const TransformerResult& r, int chosen, const QString& mark, qreal width) {
    const arma::uword last = r.probs.n_rows - 1;
    // The words by chance, as `next` lists them (at most 10), and the chosen word if it is not
    // among them.
    std::vector<int> shown;
    for (const NextWord& w : r.next) {
        const auto it = std::find(r.words.begin(), r.words.end(), w.word);
        shown.push_back(int(it - r.words.begin()));
    }
    const bool chosenExtra =
        chosen >= 0 && std::find(shown.begin(), shown.end(), chosen) == shown.end();
    if (chosenExtra) {
        shown.push_back(chosen);
    }
    const QFont font = smallFont();
    const QFont bold = pdf::font(pdf::kSans, 8, true);
    const qreal labelMax = 96;
    qreal labelW = 0;
    QStringList labels;
    for (int k : shown) {
        labels << elided(shortWord(r.words[size_t(k)], 40), bold, labelMax);
        labelW = std::max(labelW, textWidth(bold, labels.back()) + 8);
    }
    const qreal valueW = 44;
    const qreal markW = textWidth(bold, mark) + 14;
    const qreal trackW = std::clamp<qreal>(width - labelW - valueW - markW, 80, 230);
    const qreal barH = 13;
    const qreal gapH = chosenExtra ? 8 : 0;
    const qreal h = shown.size() * barH + gapH + 2;
    const arma::rowvec p = r.probs.row(last);
    return Figure{
        QSizeF(labelW + trackW + valueW + markW, h), [=](QPainter& painter) {
            for (size_t i = 0; i < shown.size(); ++i) {
                const int k = shown[i];
                const bool isChosen = k == chosen;
                const qreal y = i * barH + (chosenExtra && i + 1 == shown.size() ? gapH : 0);
                painter.setFont(isChosen ? bold : font);
                painter.setPen(isChosen ? pdf::kAccent : pdf::kInk);
                painter.drawText(QRectF(0, y, labelW - 6, barH), Qt::AlignRight | Qt::AlignVCenter,
                                 labels[qsizetype(i)]);
                const QRectF track(labelW, y + 2.5, trackW, barH - 5);
                painter.fillRect(track, pdf::kFaint);
                const double share = p(arma::uword(k));
                painter.fillRect(QRectF(track.left(), track.top(),
                                        track.width() * std::clamp(share, 0.0, 1.0),
                                        track.height()),
                                 isChosen ? pdf::kAccent : pdf::heat(0.35 + 0.65 * share));
                painter.setFont(isChosen ? bold : font);
                painter.setPen(pdf::kInk);
                painter.drawText(QRectF(labelW + trackW + 6, y, valueW, barH),
                                 Qt::AlignLeft | Qt::AlignVCenter, fixed(share, 4));
                if (isChosen) {
                    painter.setPen(pdf::kAccent);
                    painter.drawText(QRectF(labelW + trackW + valueW + 4, y, markW, barH),
                                     Qt::AlignLeft | Qt::AlignVCenter, QStringLiteral("◀ ") + mark);
                }
            }
            if (chosenExtra) {
                painter.setPen(pdf::kMuted);
                painter.setFont(font);
                painter.drawText(QRectF(labelW, (shown.size() - 1) * barH - 2, trackW, gapH + 4),
                                 Qt::AlignLeft | Qt::AlignVCenter, QStringLiteral("⋮"));
            }
        }};
}

PdfBoxPtr nextView(const TransformerCellSpec& spec, const TransformerResult& r,
                   const CellPrintArea& area) {
    const int last = r.n - 1;
    auto box = cellViewBox(
        QStringLiteral("The next word after “%1” (row %2)").arg(tokenAt(r, last)).arg(last + 1),
        area);
    const int chosen = transformer_views::chosenNextWord(r);
    const bool generated = r.generation.ran && !r.generation.steps.empty();
    const QString mark = !generated ? QStringLiteral("greedy pick")
                         : spec.config.generate->pick == PickKind::Greedy
                             ? QStringLiteral("chosen (greedy)")
                             : QStringLiteral("chosen (sampled)");
    addNote(*box,
            QStringLiteral("p = softmax(logits / T) with T = %1, the %2 most likely of %3 words:")
                .arg(shortest(spec.config.temperature))
                .arg(std::min<size_t>(r.next.size(), 10))
                .arg(r.V),
            area, 2, pdf::kInk);
    box->addRow({{nextWordsFigure(r, chosen, mark, area.width)}, 0, 4});
    if (r.loss) {
        addNote(*box,
                QStringLiteral("Loss over the targets (mean cross-entropy): %1.")
                    .arg(fixed(*r.loss, 4)),
                area, 4, pdf::kInk);
    }
    return box;
}

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

PdfBoxPtr knockoutView(const TransformerResult& r, const CellPrintArea& area) {
    const std::optional<transformer_views::KnockoutView> view = transformer_views::knockoutView(r);
    if (!view) {
        return nullptr;
    }
    auto box = cellViewBox(QStringLiteral("Knock-outs: “%1” after “%2” (row %3)")
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
    auto box = cellViewBox(QStringLiteral("Training: the loss at each step"), area);
    const int last = int(curve->loss.size()) - 1;
    addNote(*box,
            QStringLiteral("%1. The loss fell from %2 to %3 in %4 steps; every other view "
                           "shows the model after step %5 (loss %6).")
                .arg(trainingMethod(t))
                .arg(fixed(curve->loss.front(), 4), fixed(curve->loss.back(), 4))
                .arg(last)
                .arg(curve->shown)
                .arg(fixed(curve->shownLoss, 4)),
            area, 2, pdf::kInk);
    if (!curve->stopped.empty()) {
        addNote(*box, htmlEscaped(qs(curve->stopped)) + QStringLiteral("."), area, 2, pdf::kInk);
    }
    ChartCellSpec chart;
    chart.xLabel = "step";
    chart.yLabel = "loss";
    chart.from = 0;
    chart.to = std::max(last, 1);
    std::vector<ChartSeries> series{{"on the lesson's sentences", curve->steps, curve->loss}};
    if (!curve->heldOut.empty()) {
        series.push_back({"on the held-out sentences", curve->steps, curve->heldOut});
    }
    box->addRow(
        {{chartFigure(chart, series, QSizeF(std::min<qreal>(area.width, 360), 170))}, 0, 4});
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

PdfBoxPtr cacheView(const TransformerCellSpec& spec, const TransformerResult& r,
                    bool generationShown, const CellPrintArea& area) {
    auto box = cellViewBox(QStringLiteral("The key/value cache"), area);
    const GenerationResult& g = r.generation;
    // Cached numbers a position: Σ over layers of h·(d_k + d_v).
    double perPosition = 0;
    bool uniform = true;
    for (int l = 0; l < r.layersRun; ++l) {
        const AttentionResult& a = r.layers[size_t(l)].attention;
        perPosition += double(a.h) * double(a.dK + a.dV);
        const AttentionResult& first = r.layers[0].attention;
        uniform = uniform && a.h == first.h && a.dK == first.dK && a.dV == first.dV;
    }
    const int steps = g.ran ? int(g.steps.size()) : 0;
    const int positions = r.n + std::max(0, steps - 1);
    QString formula;
    if (r.layersRun > 0 && uniform) {
        const AttentionResult& a = r.layers[0].attention;
        formula = QStringLiteral("L · h · (d_k + d_v) · %1 = %2 · %3 · (%4 + %5) · %6")
                      .arg(steps > 0 ? QStringLiteral("(n + N − 1)") : QStringLiteral("n"))
                      .arg(r.layersRun)
                      .arg(a.h)
                      .arg(a.dK)
                      .arg(a.dV)
                      .arg(positions);
    } else {
        formula = QStringLiteral("Σ over layers h · (d_k + d_v) × %1 = %2 × %3")
                      .arg(steps > 0 ? QStringLiteral("(n + N − 1)") : QStringLiteral("n"))
                      .arg(readable(perPosition))
                      .arg(positions);
    }
    const double numbers = steps > 0 ? g.cacheNumbers : perPosition * positions;
    QString text;
    if (steps > 0) {
        text = QStringLiteral("After the last of %1 steps the cache holds the keys and values of "
                              "n + N − 1 = %2 + %1 − 1 = %3 positions (the last word is never fed "
                              "back): <b>%4 = %5 numbers</b>.")
                   .arg(steps)
                   .arg(r.n)
                   .arg(positions)
                   .arg(htmlEscaped(formula))
                   .arg(readable(numbers));
    } else {
        text = QStringLiteral("No generation ran, so the cache holds the prompt's keys and values "
                              "alone: <b>%1 = %2 numbers</b>.")
                   .arg(htmlEscaped(formula))
                   .arg(readable(numbers));
    }
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
    if (r.layersRun < 1) {
        return nullptr;
    }
    const int layer = r.layersRun - 1;
    const AttentionResult& a = r.layers[size_t(layer)].attention;
    const AttentionConfig& c = spec.config.layers[size_t(layer)].attention;
    const int B = std::max(1, spec.blockSize);
    const int focus = r.focus;
    auto box = cellViewBox(QStringLiteral("Attention in blocks of %1 keys").arg(B), area);
    const arma::uword dK = arma::uword(a.dK), dV = arma::uword(a.dV);
    const BlockwiseHead blocks = blockwiseHead(a.Q.cols(0, dK - 1), a.K.cols(0, dK - 1),
                                               a.V.cols(0, dV - 1), a.scale, c.mask, c.padding, B);
    const arma::uword f = arma::uword(focus);
    addNote(*box,
            QStringLiteral("Head 1 of layer %1, row %2 (%3): each block updates the running "
                           "maximum m, the running total ℓ and the running output o; the row "
                           "never holds more than %4 scores at once.")
                .arg(layer + 1)
                .arg(focus + 1)
                .arg(htmlEscaped(tokenAt(r, focus)))
                .arg(B),
            area, 2, pdf::kInk);
    const int shown = std::min<int>(int(dV), 4);
    std::vector<double> all;
    for (const BlockwiseStep& s : blocks.steps) {
        for (int i = 0; i < shown; ++i) {
            all.push_back(s.runningOut(f, arma::uword(i)));
        }
        all.push_back(s.runningTotal(f));
        if (std::isfinite(s.runningMax(f))) {
            all.push_back(s.runningMax(f));
        }
    }
    const NumberStyle number = styleFor(all, 4);
    GridTable t;
    t.headers = {QStringLiteral("keys"), QStringLiteral("m"), QStringLiteral("ℓ")};
    for (int i = 0; i < shown; ++i) {
        t.headers << QStringLiteral("o") + subscript(i + 1);
    }
    t.leftAligned = {true};
    t.sameWidthFrom = 1;
    t.sameWidthTo = 2 + shown;
    for (const BlockwiseStep& s : blocks.steps) {
        QStringList keys;
        for (int k = s.firstKey; k < s.endKey; ++k) {
            keys << (size_t(k) < a.tokens.size() ? shortWord(a.tokens[size_t(k)], 10)
                                                 : QString::number(k + 1));
        }
        const QString range = s.endKey - s.firstKey == 1
                                  ? QString::number(s.firstKey + 1)
                                  : QStringLiteral("%1–%2").arg(s.firstKey + 1).arg(s.endKey);
        bool read = false;
        for (int k = s.firstKey; k < s.endKey; ++k) {
            read = read || !a.head[0].blocked(f, arma::uword(k));
        }
        const QColor ink = read ? pdf::kInk : pdf::kMuted;
        std::vector<GridCell> row{
            {range + QStringLiteral(": ") + keys.join(QStringLiteral(", ")) +
                 (read ? QString() : QStringLiteral(" (masked)")),
             ink},
            {std::isfinite(s.runningMax(f)) ? number(s.runningMax(f)) : QStringLiteral("−∞"), ink},
            {number(s.runningTotal(f)), ink}};
        for (int i = 0; i < shown; ++i) {
            row.push_back({number(s.runningOut(f, arma::uword(i))), ink});
        }
        t.rows.push_back(row);
    }
    const arma::rowvec blockOut = blocks.output.row(f);
    const arma::rowvec plain = a.head[0].context.row(f);
    const auto outputRow = [&](const QString& label, const arma::rowvec& v, bool bold) {
        std::vector<GridCell> row{{label, pdf::kInk, bold}, {}, {}};
        for (int i = 0; i < shown; ++i) {
            row.push_back({fixed(v(arma::uword(i)), 4), pdf::kInk, bold});
        }
        t.rows.push_back(row);
    };
    t.rulesAbove.push_back(int(t.rows.size()));
    outputRow(QStringLiteral("output o / ℓ"), blockOut, true);
    outputRow(QStringLiteral("plain path: softmax(S) V"), plain, false);
    box->addRow({{gridFigure(t)}, 0, 4});
    const double difference = arma::abs(blockOut - plain).max();
    QString note =
        difference <= 1e-12
            ? QStringLiteral("The blocks end where the plain path does: the largest difference is "
                             "%1, below 1e-12.")
                  .arg(difference == 0 ? QStringLiteral("0") : QString::number(difference, 'e', 1))
            : QStringLiteral("The blocks differ from the plain path by %1.")
                  .arg(QString::number(difference, 'e', 1));
    if (shown < int(dV)) {
        note += QStringLiteral(" Coordinates 1–%1 of d_v = %2 are shown.").arg(shown).arg(dV);
    }
    addNote(*box, htmlEscaped(note), area);
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
    const auto add = [&](const QString& name, const arma::mat& g, bool rule = false) {
        if (g.is_empty()) {
            return;
        }
        if (rule) {
            t.rulesAbove.push_back(int(t.rows.size()));
        }
        t.rows.push_back({{name},
                          {QStringLiteral("%1 × %2").arg(g.n_rows).arg(g.n_cols), pdf::kMuted},
                          {qs(readableNumber(arma::norm(g, "fro"), 4))},
                          {qs(readableNumber(arma::abs(g).max(), 4))}});
    };
    const TransformerGradients& g = r.grad;
    add(QStringLiteral("X0"), g.X0);
    for (size_t l = 0; l < g.layers.size(); ++l) {
        const TransformerLayerGradients& layer = g.layers[l];
        const QString p = QStringLiteral("layers[%1].").arg(l);
        bool first = true;
        const auto addLayer = [&](const QString& name, const arma::mat& m) {
            if (!m.is_empty()) {
                add(p + name, m, first);
                first = false;
            }
        };
        addLayer(QStringLiteral("ln1.gamma"), layer.ln1Gamma);
        addLayer(QStringLiteral("ln1.beta"), layer.ln1Beta);
        addLayer(QStringLiteral("attention.W_Q"), layer.attention.W_Q);
        addLayer(QStringLiteral("attention.W_K"), layer.attention.W_K);
        addLayer(QStringLiteral("attention.W_V"), layer.attention.W_V);
        addLayer(QStringLiteral("attention.W_O"), layer.attention.W_O);
        addLayer(QStringLiteral("attention.b_Q"), layer.attention.b_Q);
        addLayer(QStringLiteral("attention.b_K"), layer.attention.b_K);
        addLayer(QStringLiteral("attention.b_V"), layer.attention.b_V);
        addLayer(QStringLiteral("attention.b_O"), layer.attention.b_O);
        addLayer(QStringLiteral("ln2.gamma"), layer.ln2Gamma);
        addLayer(QStringLiteral("ln2.beta"), layer.ln2Beta);
        addLayer(QStringLiteral("ffn.W_1"), layer.W1);
        addLayer(QStringLiteral("ffn.b_1"), layer.b1);
        addLayer(QStringLiteral("ffn.W_2"), layer.W2);
        addLayer(QStringLiteral("ffn.b_2"), layer.b2);
    }
    add(QStringLiteral("final_ln.gamma"), g.finalGamma, true);
    add(QStringLiteral("final_ln.beta"), g.finalBeta);
    add(QStringLiteral("vocab"), g.vocab, g.finalGamma.is_empty());
    if (g.vocab.is_empty()) {
        add(QStringLiteral("unembed"), g.unembed, g.finalGamma.is_empty());
    }
    if (!spec.config.unembedBias.is_empty()) {
        add(QStringLiteral("b_U"), g.unembedBias);
    }
    FigureRowsBox::Row intro{
        {noteFigure(
            r.loss ? QStringLiteral("L is the loss over the targets, %1.").arg(fixed(*r.loss, 4))
                   : QStringLiteral("Without targets, L = Σ upstream ⊙ logits (upstream "
                                    "ones unless given)."),
            area.width)},
        0,
        2};
    intro.keepWithNext = true;
    box->addRow(intro);
    box->addRow({{gridFigure(t)}, 0, 4});
    for (const QString& line : gradientCheckLines(r.gradcheck)) {
        box->addRow({{labelFigure(line, smallFont(), pdf::kInk, area.width)}, 0, 2});
    }
    return box;
}

bool isAttentionView(const std::string& view) {
    static const std::vector<std::string> own = {"matrices", "heatmap", "shares", "arithmetic",
                                                 "trace"};
    return std::find(own.begin(), own.end(), view) != own.end();
}

} // namespace

QString shortWord(const std::string& word, int chars) {
    QString text = QString::fromStdString(word);
    text.replace(u'\n', u' ').replace(u'\t', u' ');
    if (text.size() > chars) {
        text = text.left(chars - 1) + QStringLiteral("…");
    }
    return text;
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

QString transformerSummary(const TransformerCellSpec& spec, const TransformerResult& r) {
    QStringList parts;
    parts << QStringLiteral("tokens %1").arg(tokenList(r.tokens, 8));
    const int L = int(spec.config.layers.size());
    parts << (L == 1 ? QStringLiteral("1 layer") : QStringLiteral("%1 layers").arg(L));
    if (!r.layers.empty()) {
        const int h = r.layers.front().attention.h;
        parts << (h == 1 ? QStringLiteral("1 head") : QStringLiteral("%1 heads").arg(h));
    }
    parts << QStringLiteral("d %1").arg(r.d);
    for (const TransformerLayer& layer : spec.config.layers) {
        if (layer.ffn.present) {
            parts << QStringLiteral("d_ff %1 %2")
                         .arg(layer.ffn.W1.n_rows)
                         .arg(QString::fromUtf8(activationLabel(layer.ffn.activation)));
            break;
        }
    }
    bool norms = hasLayerNorm(spec.config.finalLn);
    for (const TransformerLayer& layer : spec.config.layers) {
        norms = norms || hasLayerNorm(layer.ln1) || hasLayerNorm(layer.ln2);
    }
    if (!norms) {
        parts << QStringLiteral("no LayerNorm");
    }
    parts << QStringLiteral("T = %1").arg(shortest(spec.config.temperature));
    parts << QStringLiteral("%1 words").arg(r.V);
    return parts.join(QStringLiteral(" · "));
}

std::vector<PdfBoxPtr> transformerCellBoxes(const LessonCell& cell, const TransformerCellSpec& spec,
                                            const TransformerResult& r, const CellPrintArea& area) {
    std::vector<PdfBoxPtr> boxes;
    boxes.push_back(
        cellHeaderBox(QStringLiteral("Transformer"), cell.id, transformerSummary(spec, r), area));
    boxes.push_back(settingsView(cell, spec, r, area));
    std::vector<std::string> views = spec.views;
    if (views.empty()) {
        views = {"stream", "next"};
    }
    std::vector<std::string> attentionViews;
    for (const std::string& view : views) {
        if (isAttentionView(view)) {
            attentionViews.push_back(view);
        }
    }
    bool attentionDone = false;
    for (const std::string& view : views) {
        if (isAttentionView(view)) {
            if (attentionDone) {
                continue;
            }
            attentionDone = true;
            // Each layer's attention as an attention cell prints it, its input H = LN₁(Xˡ⁻¹).
            const int layers = std::min(r.layersRun, kMaxLayersShown);
            for (int l = 0; l < layers; ++l) {
                AttentionCellSpec layerSpec;
                layerSpec.config = spec.config.layers[size_t(l)].attention;
                AttentionViewOptions options;
                options.titlePrefix = r.layersRun > 1 ? QStringLiteral("Layer %1 · ").arg(l + 1)
                                                      : QStringLiteral("Attention · ");
                options.inputCaption =
                    QStringLiteral("H = LN₁(X") + superscript(l) + QStringLiteral(")");
                options.inputNote = QStringLiteral("the layer's input");
                for (PdfBoxPtr& box : attentionViewBoxes(layerSpec, r.layers[size_t(l)].attention,
                                                         attentionViews, r.focus, area, options)) {
                    boxes.push_back(std::move(box));
                }
            }
            if (r.layersRun > layers) {
                auto box = std::make_shared<FigureRowsBox>(area.width, area.maxHeight);
                addNote(*box,
                        QStringLiteral("The attention of layers %1–%2 is not printed.")
                            .arg(layers + 1)
                            .arg(r.layersRun),
                        area, 0);
                box->spaceBefore = 6;
                boxes.push_back(box);
            }
            continue;
        }
        PdfBoxPtr box;
        if (view == "stream") {
            box = streamView(r, area);
        } else if (view == "ffn") {
            box = ffnView(spec, r, area);
        } else if (view == "next") {
            box = nextView(spec, r, area);
        } else if (view == "generation") {
            box = generationView(spec, r, area);
        } else if (view == "cache") {
            box = cacheView(
                spec, r, std::find(views.begin(), views.end(), "generation") != views.end(), area);
        } else if (view == "blocks") {
            box = blocksView(spec, r, area);
        } else if (view == "knockout") {
            box = knockoutView(r, area);
        } else if (view == "training") {
            box = trainingView(spec, r, area);
        } else if (view == "gradients") {
            box = gradientsView(spec, r, area);
        }
        if (box) {
            boxes.push_back(box);
        }
    }
    std::const_pointer_cast<PdfBox>(boxes.back())->keepWithNext = false;
    return boxes;
}

} // namespace attnbook
