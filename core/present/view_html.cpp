#include "core/present/view_html.h"

#include "core/math/number_format.h"
#include "core/present/html_text.h"

#include <algorithm>
#include <cmath>

namespace attnbook {

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

} // namespace

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
    html += "<table class=\"chances\">\n<thead><tr><th scope=\"col\">word</th>"
            "<th scope=\"col\" colspan=\"2\">chance</th><td></td></tr></thead>\n<tbody>\n";
    for (const NextWordBar& bar : view.bars) {
        // A bar in percent of the track, to two decimals: the same length at any width.
        const std::string percent = fixedNumber(100.0 * std::clamp(bar.share, 0.0, 1.0), 2);
        html += std::string(bar.chosen ? "<tr class=\"chosen" : "<tr class=\"word") +
                (bar.extra ? " apart" : "") + "\"><th scope=\"row\">" + htmlText(bar.word) +
                "</th><td class=\"track\"><span class=\"bar\" style=\"width: " + percent +
                "%\"></span></td><td class=\"chance\">" + htmlText(fixedNumber(bar.share, 4)) +
                "</td><td class=\"mark\">" + (bar.chosen ? htmlText(view.mark) : "") +
                "</td></tr>\n";
    }
    html += "</tbody>\n</table>\n";
    if (view.loss) {
        html += "<p class=\"view-note\">Loss over the targets (mean cross-entropy): " +
                htmlText(fixedNumber(*view.loss, 4)) + ".</p>\n";
    }
    return html;
}

} // namespace attnbook
