#include "core/present/transformer_view_html.h"

#include "core/math/gradient_check.h"
#include "core/math/layer_norm.h"
#include "core/math/number_format.h"
#include "core/present/heat_colours.h"
#include "core/present/html_text.h"
#include "core/present/line_chart_svg.h"
#include "core/present/transformer_settings.h"
#include "core/present/transformer_summary.h"
#include "core/present/transformer_views.h"
#include "core/present/view_html.h"
#include "core/present/view_titles.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace attnbook {

namespace {

// The PDF's limits (exports/paint/transformer_paint_helpers.h), so that page and paper show
// the same part of a large cell.
constexpr int kMaxCoordinates = 8; // the stream's and the blocks' coordinates
constexpr int kMaxUnitsShown = 64; // the FFN's grid
constexpr int kUnitsPerRow = 8;
constexpr int kStrongestUnits = 6;
constexpr size_t kMaxCostSteps = 12; // the cache's bars
constexpr int kStreamDigits = 3;

std::string num(int k) {
    return std::to_string(k);
}

// The token at `row`, or "#row+1" past the tokens, shortened as the PDF shortens it.
std::string tokenAt(const TransformerResult& r, int row) {
    return row >= 0 && size_t(row) < r.tokens.size() ? shortWordText(r.tokens[size_t(row)])
                                                     : "#" + num(row + 1);
}

std::string note(const std::string& text) {
    return "<p class=\"view-note\">" + htmlText(text) + "</p>\n";
}

std::string cell(const std::string& text, const std::string& cls = "") {
    return (cls.empty() ? "<td>" : "<td class=\"" + cls + "\">") + htmlText(text) + "</td>";
}

std::string columnHead(const std::string& text) {
    return "<th scope=\"col\">" + htmlText(text) + "</th>";
}

// A square shaded by `value` against `largest` (blue below zero, red above: changeColour),
// its text readable on it.
std::string shadedCell(double value, double largest, const std::string& text) {
    const Rgb fill = changeColour(value / largest);
    return "<td style=\"background: " + cssColour(fill) + "; color: " + cssColour(textOn(fill)) +
           "\">" + htmlText(text) + "</td>";
}

// "⁰", "¹", … "¹²": a layer's number in Xˡ.
std::string superscript(int k) {
    static const char* digits[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
    std::string out;
    for (const char c : std::to_string(k)) {
        out += digits[c - '0'];
    }
    return out;
}

// One stage of the stream: the vector after it, or the change it made.
struct Stage {
    std::string where, what;
    arma::rowvec v;
    bool change;
    bool ruleAbove;
};

} // namespace

std::string streamHtml(const TransformerResult& r) {
    const int focus = r.focus;
    const arma::uword f = arma::uword(focus);
    std::vector<Stage> stages;
    stages.push_back({"input", r.P.is_zero() ? "X⁰ = token" : "X⁰ = token + position", r.X.row(f),
                      false, false});
    for (int l = 0; l < r.layersRun; ++l) {
        const TransformerLayerResult& layer = r.layers[size_t(l)];
        stages.push_back(
            {"layer " + num(l + 1), "+ attention A", layer.attention.output.row(f), true, true});
        if (layer.ffnAct.is_empty()) { // no FFN: X = R
            stages.push_back(
                {"", "= X" + superscript(l + 1) + " (no FFN)", layer.resid2.row(f), false, false});
            continue;
        }
        stages.push_back({"", "= R", layer.resid1.row(f), false, false});
        stages.push_back({"", "+ FFN F", layer.ffnOut.row(f), true, false});
        stages.push_back({"", "= X" + superscript(l + 1), layer.resid2.row(f), false, false});
    }
    stages.push_back({"final LN", "Z = LN_f(X" + superscript(r.layersRun) + ")",
                      r.finalLn.out.row(f), false, true});
    const int shown = std::min(r.d, kMaxCoordinates);
    std::vector<double> all;
    for (const Stage& s : stages) {
        for (int i = 0; i < shown && arma::uword(i) < s.v.n_elem; ++i) {
            all.push_back(s.v(arma::uword(i)));
        }
    }
    const NumberStyle number = styleFor(all, kStreamDigits);
    std::string html = note("The stream of “" + tokenAt(r, focus) + "” (row " + num(focus + 1) +
                            "): each layer adds to it. The grey rows are what attention and the "
                            "FFN add, the black rows the stream after the addition; LayerNorm "
                            "only reads the stream.");
    html += "<table class=\"matrix stream\">\n<thead><tr>" + columnHead("stage") + "<td></td>";
    for (int i = 0; i < shown; ++i) {
        html += columnHead(num(i + 1));
    }
    html += columnHead("length") + "</tr></thead>\n<tbody>\n";
    for (const Stage& s : stages) {
        std::string classes =
            std::string(s.change ? "added" : "sum") + (s.ruleAbove ? " rule" : "");
        html += "<tr class=\"" + classes + "\"><th scope=\"row\">" + htmlText(s.where) +
                "</th><th scope=\"row\" class=\"what\">" + htmlText(s.what) + "</th>";
        for (int i = 0; i < shown && arma::uword(i) < s.v.n_elem; ++i) {
            html += cell(number(s.v(arma::uword(i))));
        }
        html += cell(fixedNumber(arma::norm(s.v), kStreamDigits)) + "</tr>\n";
    }
    html += "</tbody>\n</table>\n";
    if (shown < r.d) {
        html += note("Coordinates 1–" + num(shown) + " of " + num(r.d) + " are shown (… " +
                     num(r.d - shown) + " more); the length ‖·‖ counts all " + num(r.d) + ".");
    }
    return html;
}

std::string ffnHtml(const TransformerCellSpec& spec, const TransformerResult& r) {
    const arma::uword f = arma::uword(r.focus);
    std::string html = note("The hidden units for “" + tokenAt(r, r.focus) + "” (row " +
                            num(r.focus + 1) + "), blue below zero, red above.");
    bool any = false;
    for (int l = 0; l < r.layersRun; ++l) {
        const TransformerLayerResult& layer = r.layers[size_t(l)];
        if (layer.ffnAct.is_empty()) {
            continue;
        }
        any = true;
        const Activation act = spec.config.layers[size_t(l)].ffn.activation;
        const arma::rowvec pre = layer.ffnPre.row(f); // (d_ff) z
        const arma::rowvec out = layer.ffnAct.row(f); // (d_ff) act(z)
        const int dff = int(out.n_elem);
        html += "<p class=\"view-note layer\"><strong>Layer " + num(l + 1) +
                "</strong> · z = G W₁ᵀ + b₁, act = " + htmlText(activationLabel(act)) +
                "; d_ff = " + num(dff) + " units</p>\n";
        if (dff <= kMaxCoordinates) {
            // Few units: both rows, each square shaded by its value.
            std::vector<double> all(pre.begin(), pre.end());
            all.insert(all.end(), out.begin(), out.end());
            const NumberStyle number = styleFor(all, 4);
            // (1 × 2 d_ff) one scale for z and act(z)
            const double largest = std::max(1e-12, arma::abs(arma::join_rows(pre, out)).max());
            html += "<table class=\"matrix units\">\n<thead><tr>" + columnHead("unit");
            for (int k = 0; k < dff; ++k) {
                html += columnHead(num(k + 1));
            }
            html += "</tr></thead>\n<tbody>\n";
            for (const auto& [label, values] :
                 {std::pair<const char*, const arma::rowvec*>{"z", &pre}, {"act(z)", &out}}) {
                html += "<tr><th scope=\"row\">" + htmlText(label) + "</th>";
                for (const double v : *values) {
                    html += shadedCell(v, largest, number(v));
                }
                html += "</tr>\n";
            }
            html += "</tbody>\n</table>\n";
            continue;
        }
        // Many units: the first activations as a grid, and the strongest few with their z.
        const int count = std::min(dff, kMaxUnitsShown);
        const double largest = std::max(1e-12, arma::abs(out.head(arma::uword(count))).max());
        html += "<div class=\"matrix-group\">\n<table class=\"heatmap units\">\n<caption>" +
                htmlText("act(z), units 1–" + num(count)) + "</caption>\n<tbody>\n";
        for (int first = 0; first < count; first += kUnitsPerRow) {
            const int last = std::min(count, first + kUnitsPerRow);
            html += "<tr><th scope=\"row\">" +
                    (last - first == 1 ? num(first + 1) : num(first + 1) + "–" + num(last)) +
                    "</th>";
            for (int k = first; k < last; ++k) {
                const double v = out(arma::uword(k));
                html += shadedCell(v, largest, fixedNumber(v, 2));
            }
            html += "</tr>\n";
        }
        html += "</tbody>\n</table>\n";
        std::vector<int> order(static_cast<size_t>(dff));
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
            return std::abs(out(arma::uword(a))) > std::abs(out(arma::uword(b)));
        });
        html +=
            "<table class=\"matrix strongest\">\n<caption>The strongest</caption>\n<thead><tr>" +
            columnHead("unit") + columnHead("z") + columnHead("act(z)") +
            "</tr></thead>\n<tbody>\n";
        for (size_t k = 0; k < order.size() && k < size_t(kStrongestUnits); ++k) {
            const arma::uword u = arma::uword(order[k]);
            html += "<tr><th scope=\"row\">" + num(int(u) + 1) + "</th>" +
                    cell(fixedNumber(pre(u), 3)) + cell(fixedNumber(out(u), 3), "strong") +
                    "</tr>\n";
        }
        html += "</tbody>\n</table>\n</div>\n";
        if (dff > kMaxUnitsShown) {
            html += note("Units 1–" + num(kMaxUnitsShown) + " of " + num(dff) +
                         " are shown in the grid (… " + num(dff - kMaxUnitsShown) +
                         " more); the strongest are taken from all " + num(dff) + ".");
        }
    }
    if (!any) {
        return note("No layer has an FFN (ffn: none, or switched off).");
    }
    return html;
}

std::string generationHtml(const TransformerCellSpec& spec, const TransformerResult& r) {
    const GenerationResult& g = r.generation;
    if (!spec.config.generate) {
        return note("The cell asks for no generation (generate: {steps: N, pick: greedy} appends "
                    "N words).");
    }
    if (!g.refused.empty() && g.steps.empty()) {
        return note("Generation did not run: " + g.refused + ".");
    }
    std::string prompt;
    for (const std::string& token : r.tokens) {
        prompt += (prompt.empty() ? "" : " ") + shortWordText(token);
    }
    std::string words;
    for (const GenerationStep& s : g.steps) {
        words += (words.empty() ? "" : " ") + shortWordText(s.label);
    }
    std::string html = "<p class=\"view-text generated\">" + htmlText(prompt) + " <strong>" +
                       htmlText(words) + "</strong></p>\n";
    html += "<table class=\"matrix generation\">\n<thead><tr>" + columnHead("step t") +
            columnHead("word") + columnHead("chance") + columnHead("comparisons with the cache") +
            columnHead("without it, (n + t − 1)²") + "</tr></thead>\n<tbody>\n";
    double cached = 0, full = 0;
    for (size_t i = 0; i < g.steps.size(); ++i) {
        const GenerationStep& s = g.steps[i];
        cached += s.costCached;
        full += s.costFull;
        html += "<tr><th scope=\"row\">" + num(int(i) + 1) + "</th>" +
                cell(shortWordText(s.label), "word") + cell(fixedNumber(s.prob, 4)) +
                cell(readableNumber(s.costCached, 4)) + cell(readableNumber(s.costFull, 4)) +
                "</tr>\n";
    }
    html += "<tr class=\"total\"><th scope=\"row\">all</th><td></td><td></td>" +
            cell(readableNumber(cached, 4)) + cell(readableNumber(full, 4)) + "</tr>\n";
    html += "</tbody>\n</table>\n";
    std::string text = "Comparisons are query–key products per head and layer. Step 1 runs the " +
                       (r.n == 1 ? std::string("one prompt token") : num(r.n) + " prompt tokens") +
                       " (n² = " + num(r.n * r.n) +
                       "); each later step runs only the new word's row against the n + t − 1 "
                       "cached keys.";
    if (!g.refused.empty()) {
        text += " Stopped early: " + g.refused + ".";
    }
    return html + note(text);
}

std::string cacheHtml(const TransformerCellSpec& spec, const TransformerResult& r,
                      bool generationShown) {
    const GenerationResult& g = r.generation;
    const int steps = g.ran ? int(g.steps.size()) : 0;
    const transformer_views::CacheSize size = transformer_views::cacheSize(r);
    std::string html = "<p class=\"view-text\">" + htmlText(size.lead) + "<strong>" +
                       htmlText(size.formula) + " = " + htmlText(size.numbers) +
                       " numbers</strong>.</p>\n";
    if (spec.config.generate && !g.refused.empty() && steps == 0 && !generationShown) {
        html += note("Generation was refused: " + g.refused + ".");
    }
    if (steps == 0) {
        return html;
    }
    double largest = 1;
    for (const GenerationStep& s : g.steps) {
        largest = std::max(largest, s.costFull);
    }
    html += "<table class=\"bars cost\">\n<caption>Query–key comparisons per head and "
            "layer</caption>\n<tbody>\n";
    for (size_t i = 0; i < g.steps.size() && i < kMaxCostSteps; ++i) {
        const GenerationStep& s = g.steps[i];
        html += barRowHtml("word", "step " + num(int(i) + 1), s.costCached / largest,
                           readableNumber(s.costCached, 4), "with the cache");
        html += barRowHtml("without", "", s.costFull / largest, readableNumber(s.costFull, 4),
                           "without it");
    }
    html += "</tbody>\n</table>\n";
    if (g.steps.size() > kMaxCostSteps) {
        html += note("The first " + num(int(kMaxCostSteps)) + " of " + num(steps) + " steps (… " +
                     num(steps - int(kMaxCostSteps)) + " more).");
    }
    return html;
}

std::string blocksHtml(const TransformerCellSpec& spec, const TransformerResult& r) {
    const std::optional<transformer_views::Blocks> blocks =
        transformer_views::blocksOfFocus(spec, r);
    if (!blocks) {
        return "";
    }
    const AttentionResult& a = r.layers[size_t(blocks->layer)].attention;
    std::string html = note("Blocks of " + num(blocks->blockSize) + " keys. " +
                            transformer_views::blocksLead(*blocks, tokenAt(r, blocks->row)));
    const int shown = transformer_views::blocksCoordinatesShown(*blocks);
    const NumberStyle number = transformer_views::blocksNumberStyle(*blocks);
    static const char* subscripts[] = {"₀", "₁", "₂", "₃", "₄"};
    html += "<table class=\"matrix blocks\">\n<thead><tr>" + columnHead("keys") + columnHead("m") +
            columnHead("ℓ");
    for (int i = 0; i < shown; ++i) {
        html += columnHead(std::string("o") + subscripts[i + 1]);
    }
    html += "</tr></thead>\n<tbody>\n";
    for (const transformer_views::BlockStep& s : blocks->steps) {
        std::string keys;
        for (int k = s.first; k < s.end; ++k) {
            keys +=
                (keys.empty() ? "" : ", ") +
                (size_t(k) < a.tokens.size() ? shortWordText(a.tokens[size_t(k)], 10) : num(k + 1));
        }
        const std::string range =
            s.end - s.first == 1 ? num(s.first + 1) : num(s.first + 1) + "–" + num(s.end);
        html += std::string(s.read ? "<tr>" : "<tr class=\"masked\">") + "<th scope=\"row\">" +
                htmlText(range + ": " + keys + (s.read ? "" : " (masked)")) + "</th>" +
                cell(s.max ? number(*s.max) : "−∞") + cell(number(s.total));
        for (int i = 0; i < shown; ++i) {
            html += cell(number(s.out[size_t(i)]));
        }
        html += "</tr>\n";
    }
    const auto outputRow = [&](const std::string& label, const std::vector<double>& v,
                               const std::string& cls) {
        std::string row = "<tr class=\"" + cls + "\"><th scope=\"row\">" + htmlText(label) +
                          "</th><td></td><td></td>";
        for (int i = 0; i < shown; ++i) {
            row += cell(fixedNumber(v[size_t(i)], 4));
        }
        return row + "</tr>\n";
    };
    html += outputRow("output o / ℓ", blocks->output, "rule total");
    html += outputRow("plain path: softmax(S) V", blocks->plain, "plain");
    html += "</tbody>\n</table>\n";
    return html + note(transformer_views::blocksAgreement(*blocks));
}

std::string transformerAttentionHtml(const TransformerCellSpec& spec, const TransformerResult& r) {
    constexpr int kMaxLayersShown = 4; // as the PDF
    std::vector<std::string> views;
    for (const std::string& view : spec.views) {
        if (view == "matrices" || view == "heatmap" || view == "shares" || view == "arithmetic" ||
            view == "trace") {
            views.push_back(view);
        }
    }
    if (views.empty()) {
        return "";
    }
    std::string html;
    const int layers = std::min(r.layersRun, kMaxLayersShown);
    for (int l = 0; l < layers; ++l) {
        const AttentionResult& a = r.layers[size_t(l)].attention;
        const std::string layer = r.layersRun > 1 ? "Layer " + num(l + 1) : "Attention";
        html +=
            note(layer + " reads H = LN₁(X" + superscript(l) + "), the layer's input, as its X.");
        // The layer's attention as a cell of its own, for the matrices' tables alone (their
        // captions read its settings, and whether Q = K = V = X): a copy of its weights.
        const auto matricesHtml = [&] {
            AttentionCellSpec layerSpec;
            layerSpec.config = spec.config.layers[size_t(l)].attention;
            return attentionMatricesHtml(layerSpec, a);
        };
        for (const std::string& view : views) {
            const std::string body = view == "matrices"     ? matricesHtml()
                                     : view == "heatmap"    ? heatmapHtml(a)
                                     : view == "shares"     ? sharesHtml(a, r.focus)
                                     : view == "arithmetic" ? arithmeticHtml(a, r.focus)
                                                            : traceHtml(a, r.focus);
            html += "<div class=\"layer-view\">\n<p class=\"layer-title\">" +
                    htmlText(layer + " · " + viewTitle(view)) + "</p>\n" + body + "</div>\n";
        }
    }
    if (r.layersRun > layers) {
        html += note("The attention of layers " + num(layers + 1) + "–" + num(r.layersRun) +
                     " is not shown.");
    }
    return html;
}

std::string knockoutHtml(const TransformerResult& r) {
    const std::optional<transformer_views::KnockoutView> view = transformer_views::knockoutView(r);
    if (!view) {
        return "";
    }
    std::string html = note("“" + shortWordText(view->word, 24) + "” after “" +
                            tokenAt(r, view->row) + "” (row " + num(view->row + 1) +
                            "): the model run again with one part removed, each bar the chance "
                            "it then gives the whole model's top word. A head removed: its "
                            "output is zero before W_O. Attention or FFN removed: it adds "
                            "nothing to the stream. A block removed: its input passes straight "
                            "on.");
    html += "<table class=\"bars knockout\">\n<tbody>\n";
    html += barRowHtml("chosen", "whole model", view->full, fixedNumber(view->full, 4), "");
    for (const transformer_views::KnockoutBar& b : view->bars) {
        html += barRowHtml("word", b.part, b.prob, fixedNumber(b.prob, 4),
                           b.topChanged ? "→ “" + shortWordText(b.topWord, 16) + "” first" : "");
    }
    return html + "</tbody>\n</table>\n";
}

std::string transformerSettingsHtml(const LessonCell& lessonCell, const TransformerCellSpec& spec,
                                    const TransformerResult& r) {
    std::string html = "<table class=\"settings\">\n<tbody>\n";
    for (const SettingRow& row : transformerSettingRows(lessonCell, spec, r)) {
        html += "<tr><th scope=\"row\">" + htmlText(row.label) + "</th><td>" + htmlText(row.text) +
                (row.focusWord.empty() ? "" : "<em>" + htmlText(row.focusWord) + "</em>") +
                "</td></tr>\n";
    }
    html += "</tbody>\n</table>\n<table class=\"matrix layers\">\n<thead><tr>";
    for (const std::string& header : layerSettingHeaders()) {
        html += columnHead(header);
    }
    html += "</tr></thead>\n<tbody>\n";
    for (const LayerSettingRow& row : layerSettingRows(spec.config, r)) {
        html += std::string(row.ran ? "<tr>" : "<tr class=\"not-run\">") + "<th scope=\"row\">" +
                htmlText(row.entries.front()) + "</th>";
        for (size_t i = 1; i < row.entries.size(); ++i) {
            // The widths are numbers; the mask, the norms and the FFN words.
            html += cell(row.entries[i], i <= 3 ? "" : "text");
        }
        html += "</tr>\n";
    }
    return html + "</tbody>\n</table>\n";
}

std::string transformerGradientsHtml(const TransformerCellSpec& spec, const TransformerResult& r) {
    std::string html = note(transformer_views::gradientLossText(r));
    html += "<table class=\"matrix gradients\">\n<thead><tr>" + columnHead("parameter") +
            columnHead("shape") + columnHead("‖∂L/∂·‖") + columnHead("largest |entry|") +
            "</tr></thead>\n<tbody>\n";
    for (const transformer_views::GradientRow& row : transformer_views::gradientRows(spec, r)) {
        html += std::string(row.ruleAbove ? "<tr class=\"group\">" : "<tr>") +
                "<th scope=\"row\">" + htmlText(row.name) + "</th>" +
                cell(std::to_string(row.rows) + " × " + std::to_string(row.cols), "shape") +
                cell(readableNumber(row.norm, 4)) + cell(readableNumber(row.largest, 4)) +
                "</tr>\n";
    }
    html += "</tbody>\n</table>\n";
    for (const std::string& line : gradientCheckSentences(r.gradcheck, false)) {
        html += note(line);
    }
    return html;
}

std::string trainingHtml(const TransformerCellSpec& spec, const TransformerResult& r) {
    const std::optional<transformer_views::TrainingCurve> curve =
        transformer_views::trainingCurve(r.training.get());
    if (!curve || !spec.training) {
        return "";
    }
    const std::string text =
        trainingCurveText(*spec.training, curve->loss, curve->shown, curve->shownLoss);
    std::string html = "<p class=\"view-text\">" + htmlText(text) + "</p>\n";
    if (!curve->stopped.empty()) {
        html += "<p class=\"view-text\">" + htmlText(curve->stopped + ".") + "</p>\n";
    }
    const transformer_views::TrainingChart chart = transformer_views::trainingChart(*curve);
    // The PDF's figure is 360 × 170 points; the legend rows come on top of that.
    return html + lineChartSvg(chart.chart, chart.series, 360, 170 + 16 * int(chart.series.size()),
                               "The loss at each step. " + text);
}

} // namespace attnbook
