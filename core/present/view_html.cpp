#include "core/present/view_html.h"

#include "core/math/number_format.h"
#include "core/math/shares_shown.h"
#include "core/math/worked_steps.h"
#include "core/present/heat_colours.h"
#include "core/present/html_text.h"

#include <algorithm>
#include <cmath>

namespace attnbook {

std::string barRowHtml(const std::string& rowClass, const std::string& label, double share,
                       const std::string& value, const std::string& mark) {
    // A bar in percent of the track, to two decimals: the same length at any width.
    const std::string percent = fixedNumber(100.0 * std::clamp(share, 0.0, 1.0), 2);
    return "<tr class=\"" + rowClass + "\"><th scope=\"row\">" + htmlText(label) +
           "</th><td class=\"track\"><span class=\"bar\" style=\"width: " + percent +
           "%\"></span></td><td class=\"chance\">" + htmlText(value) + "</td><td class=\"mark\">" +
           htmlText(mark) + "</td></tr>\n";
}

namespace {

std::string labelAt(const std::vector<std::string>& labels, int i) {
    return i < int(labels.size()) ? labels[size_t(i)] : std::string();
}

std::string headerRow(const PresentedMatrix& t, int shownColumns) {
    std::string html = "<thead><tr><td></td>";
    for (int c = 0; c < shownColumns; ++c) {
        html += "<th scope=\"col\">" + htmlText(labelAt(t.columnLabels, c)) + "</th>";
    }
    if (shownColumns < int(t.values.n_cols)) {
        html += "<th scope=\"col\" class=\"more\">…</th>";
    }
    return html + "</tr></thead>\n";
}

std::string entryCell(const PresentedMatrix& t, int r, int c, bool wholeTable) {
    const double v = t.values(arma::uword(r), arma::uword(c));
    const bool blocked = !t.blocked.is_empty() && t.blocked(arma::uword(r), arma::uword(c)) != 0;
    // As the PDF writes it (exports/paint/pdf_figures.cpp): a blocked share is 0, a blocked
    // score −∞.
    const std::string text = blocked && std::isfinite(v) ? std::string("0")
                             : wholeTable                ? readableNumber(v, t.digits)
                                                         : fixedNumber(v, t.digits);
    return blocked
               ? "<td class=\"blocked\" title=\"blocked by the mask\">" + htmlText(text) + "</td>"
               : "<td>" + htmlText(text) + "</td>";
}

constexpr int kMaxHeadsShown = 4; // as the PDF (exports/paint/pdf_cells.cpp)

std::string entryText(double value, int digits, bool whole) {
    return whole ? readableNumber(value, digits) : fixedNumber(value, digits);
}

std::string headHeatmap(const AttentionResult& r, int head) {
    const HeadResult& h = r.head[size_t(head)];
    const int n = std::min(r.n, 24);
    const int m = std::min(r.m, 24);
    const int digits = m <= 8 ? 4 : 2;
    const bool wholeGrid = allWhole(h.weightsT.memptr(), h.weightsT.n_elem);
    const bool showValues = m <= 14;
    std::string html = "<table class=\"heatmap\">\n<caption>" +
                       htmlText(r.h > 1 ? "Shares, head " + std::to_string(head + 1) : "Shares") +
                       " <span class=\"note\">row reads column</span></caption>\n"
                       "<thead><tr><td></td>";
    for (int j = 0; j < m; ++j) {
        html += "<th scope=\"col\">" + htmlText(keyLabel(r, j)) + "</th>";
    }
    html += "</tr></thead>\n<tbody>\n";
    for (int i = 0; i < n; ++i) {
        html += "<tr><th scope=\"row\">" + htmlText(queryLabel(r, i)) + "</th>";
        for (int j = 0; j < m; ++j) {
            if (h.blocked(arma::uword(i), arma::uword(j))) {
                html += "<td class=\"blocked\" title=\"blocked by the mask\"></td>";
                continue;
            }
            const double w = h.weight(arma::uword(i), arma::uword(j));
            const Rgb background = shareColour(std::isfinite(w) ? w : 0.0);
            const std::string value = entryText(w, digits, wholeGrid);
            html += "<td style=\"background: " + cssColour(background) +
                    "; color: " + cssColour(textOn(background)) + "\"" +
                    (showValues ? ">" + htmlText(value) : " title=\"" + htmlText(value) + "\">") +
                    "</td>";
        }
        html += "</tr>\n";
    }
    return html + "</tbody>\n</table>\n";
}

std::string headShares(const AttentionResult& r, int head, int row) {
    const HeadResult& h = r.head[size_t(head)];
    const std::vector<int> keys = sharesShown(r, row);
    std::string note = r.h > 1 ? "head " + std::to_string(head + 1) : "";
    if (int(keys.size()) < r.m) {
        note += (note.empty() ? "" : " · ") + std::string("the ") + std::to_string(keys.size()) +
                " largest of " + std::to_string(r.m) + " shares";
    }
    const bool wholeBars = allWhole(h.weightsT.colptr(arma::uword(row)), h.weightsT.n_rows);
    std::string html =
        "<table class=\"bars\">\n<caption>" +
        htmlText("Shares of " + queryLabel(r, row) + " (row " + std::to_string(row + 1) + ")") +
        (note.empty() ? "" : " <span class=\"note\">" + htmlText(note) + "</span>") +
        "</caption>\n<tbody>\n";
    for (const int j : keys) {
        if (h.blocked(arma::uword(row), arma::uword(j))) {
            html += barRowHtml("word blocked", keyLabel(r, j), 0.0, "blocked", "");
            continue;
        }
        const double share = h.weight(arma::uword(row), arma::uword(j));
        html += barRowHtml("word", keyLabel(r, j), share, entryText(share, 4, wholeBars), "");
    }
    return html + "</tbody>\n</table>\n";
}

constexpr size_t kMaxLinesPerStep = 16; // as the PDF

// At most kMaxLinesPerStep lines as list items, then how many more there are.
std::string listedLines(const std::vector<std::string>& lines) {
    std::string html;
    const size_t shown = std::min(lines.size(), kMaxLinesPerStep);
    for (size_t i = 0; i < shown; ++i) {
        html += "<li>" + htmlText(lines[i]) + "</li>";
    }
    if (shown < lines.size()) {
        html += "<li class=\"more\">… " + std::to_string(lines.size() - shown) + " more lines</li>";
    }
    return html;
}

} // namespace

std::string arithmeticHtml(const AttentionResult& r, int focus) {
    focus = std::clamp(focus, 0, std::max(0, r.n - 1));
    std::string html;
    for (int head = 0; head < std::min(r.h, kMaxHeadsShown) && r.n > 0; ++head) {
        html +=
            "<p class=\"view-note\">" +
            htmlText((r.h > 1 ? "Head " + std::to_string(head + 1) + ", " : std::string()) +
                     "query " + queryLabel(r, focus) + " (row " + std::to_string(focus + 1) + ")") +
            "</p>\n";
        int counter = 0; // the lines are numbered on through the steps, as the PDF numbers them
        for (const WorkedSection& section : workedArithmetic(r, head, focus)) {
            html += "<div class=\"worked\"><p class=\"worked-title\">" + htmlText(section.title) +
                    "</p><ol start=\"" + std::to_string(counter + 1) + "\">" +
                    listedLines(section.lines) + "</ol></div>\n";
            counter += int(std::min(section.lines.size(), kMaxLinesPerStep));
        }
    }
    return html;
}

std::string traceHtml(const AttentionResult& r, int focus) {
    focus = std::clamp(focus, 0, std::max(0, r.n - 1));
    std::string html;
    for (int head = 0; head < std::min(r.h, kMaxHeadsShown) && r.n > 0; ++head) {
        if (r.h > 1) {
            html += "<p class=\"view-note\">Head " + std::to_string(head + 1) + "</p>\n";
        }
        html += "<table class=\"trace\">\n<tbody>\n";
        for (const TraceStep& step : traceSteps(r, head, focus)) {
            html += "<tr><th scope=\"row\">" + htmlText(step.title) + "</th><td><ul>" +
                    listedLines(step.lines) + "</ul></td></tr>\n";
        }
        html += "</tbody>\n</table>\n";
    }
    return html;
}

std::string heatmapHtml(const AttentionResult& r) {
    std::string html = "<div class=\"matrix-group\">\n";
    for (int head = 0; head < std::min(r.h, kMaxHeadsShown); ++head) {
        html += headHeatmap(r, head);
    }
    return html + "</div>\n";
}

std::string sharesHtml(const AttentionResult& r, int focus) {
    focus = std::clamp(focus, 0, std::max(0, r.n - 1));
    std::string html = "<div class=\"matrix-group\">\n";
    for (int head = 0; head < std::min(r.h, kMaxHeadsShown) && r.n > 0; ++head) {
        html += headShares(r, head, focus);
    }
    return html + "</div>\n";
}

std::string matrixTableHtml(const PresentedMatrix& t) {
    const int rows = int(t.values.n_rows);
    const int columns = int(t.values.n_cols);
    const int shownRows = std::min(rows, t.maxRows);
    const int shownColumns = std::min(columns, t.maxColumns);
    const bool wholeTable = allWhole(t.values.memptr(), t.values.n_elem);
    std::string html = "<table class=\"matrix\">\n";
    if (!t.caption.empty()) {
        html += "<caption>" + htmlText(t.caption);
        if (!t.note.empty()) {
            html += " <span class=\"note\">" + htmlText(t.note) + "</span>";
        }
        html += "</caption>\n";
    }
    html += headerRow(t, shownColumns) + "<tbody>\n";
    for (int r = 0; r < shownRows; ++r) {
        html += "<tr><th scope=\"row\">" + htmlText(labelAt(t.rowLabels, r)) + "</th>";
        for (int c = 0; c < shownColumns; ++c) {
            html += entryCell(t, r, c, wholeTable);
        }
        if (shownColumns < columns) {
            html += "<td class=\"more\">…</td>";
        }
        html += "</tr>\n";
    }
    if (shownRows < rows) {
        html += "<tr class=\"more\"><th scope=\"row\">⋮</th><td colspan=\"" +
                std::to_string(shownColumns + (shownColumns < columns ? 1 : 0)) + "\">" +
                std::to_string(rows - shownRows) + " more rows</td></tr>\n";
    }
    return html + "</tbody>\n</table>\n";
}

std::string attentionMatricesHtml(const AttentionCellSpec& spec, const AttentionResult& r) {
    std::string html;
    int group = -1;
    for (const PresentedMatrix& m : presentedMatrices(spec, r, true)) {
        if (m.group != group) {
            html += group < 0 ? "" : "</div>\n";
            html += "<div class=\"matrix-group\">\n";
            group = m.group;
        }
        html += matrixTableHtml(m);
    }
    if (group >= 0) {
        html += "</div>\n";
    }
    if (plainInputProjections(spec, r)) {
        html += "<p class=\"view-note\">Q = K = V = X here: the projections are the identity and "
                "the biases zero.</p>\n";
    }
    return html;
}

std::string nextWordsHtml(const NextWordsView& view) {
    std::string html = "<p class=\"view-note\">" + htmlText(view.note) + "</p>\n";
    html += "<table class=\"bars chances\">\n<thead><tr><th scope=\"col\">word</th>"
            "<th scope=\"col\" colspan=\"2\">chance</th><td></td></tr></thead>\n<tbody>\n";
    for (const NextWordBar& bar : view.bars) {
        html +=
            barRowHtml(std::string(bar.chosen ? "chosen" : "word") + (bar.extra ? " apart" : ""),
                       bar.word, bar.share, fixedNumber(bar.share, 4), bar.chosen ? view.mark : "");
    }
    html += "</tbody>\n</table>\n";
    if (view.loss) {
        html += "<p class=\"view-note\">Loss over the targets (mean cross-entropy): " +
                htmlText(fixedNumber(*view.loss, 4)) + ".</p>\n";
    }
    return html;
}

} // namespace attnbook
