#include "exports/html/html_cell_controls.h"

#include "exports/html/html_escape.h"

#include "core/document/json.h"

#include <algorithm>

namespace attnbook {

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

bool offers(const ReaderControls& c, const char* control) {
    return std::find(c.controls.begin(), c.controls.end(), control) != c.controls.end();
}

// One token as a chip: its word, and buttons that move it and take it away, each named with
// the token's place and word for a screen reader. The page script builds the same chips again
// (with textContent) after each what-if.
QString tokenChip(const std::string& token, int index, int count) {
    const QString word = htmlPageText(qs(token));
    const QString which = QStringLiteral("token %1 (%2)").arg(index + 1).arg(word);
    return QStringLiteral("<li class=\"chip\" data-index=\"%1\"><span class=\"chip-word\">%2"
                          "</span><button type=\"button\" data-op=\"left\" aria-label=\"Move "
                          "%3 left\"%4>←</button><button type=\"button\" data-op=\"right\" "
                          "aria-label=\"Move %3 right\"%5>→</button><button type=\"button\" "
                          "data-op=\"remove\" aria-label=\"Remove %3\"%6>×</button></li>\n")
        .arg(index)
        .arg(word, which, index == 0 ? QStringLiteral(" disabled") : QString(),
             index + 1 == count ? QStringLiteral(" disabled") : QString(),
             count == 1 ? QStringLiteral(" disabled") : QString());
}

QString tokensHtml(const ReaderControls& c, const QString& field) {
    QString html = QStringLiteral("<fieldset class=\"control control-tokens\" "
                                  "data-control=\"tokens\"><legend>Tokens</legend>\n"
                                  "<ul class=\"token-chips\" aria-label=\"Tokens\">\n");
    for (size_t i = 0; i < c.tokens.size(); ++i) {
        html += tokenChip(c.tokens[i], int(i), int(c.tokens.size()));
    }
    html += QStringLiteral("</ul>\n<div class=\"what-if-row\"><label for=\"%1-add\">New token"
                           "</label>")
                .arg(field);
    if (c.words.empty()) {
        html += QStringLiteral("<input type=\"text\" id=\"%1-add\" data-field=\"add\" "
                               "spellcheck=\"false\">")
                    .arg(field);
    } else {
        // A word of the vocab: the cell refuses any other.
        html += QStringLiteral("<select id=\"%1-add\" data-field=\"add\">").arg(field);
        for (const std::string& w : c.words) {
            html += QStringLiteral("<option>%1</option>").arg(htmlPageText(qs(w)));
        }
        html += QLatin1String("</select>");
    }
    html += QLatin1String(" <button type=\"button\" data-op=\"add\">Add</button></div>\n"
                          "</fieldset>\n");
    return html;
}

QString headsHtml(const ReaderControls& c, const QString& field) {
    QString counts;
    for (const int h : c.allowedHeads) {
        counts += (counts.isEmpty() ? QString() : QStringLiteral(" ")) + QString::number(h);
    }
    return QStringLiteral("<div class=\"control what-if-row\" data-control=\"heads\" "
                          "role=\"group\" aria-labelledby=\"%1-heads\" data-allowed=\"%2\">"
                          "<span class=\"control-label\" id=\"%1-heads\">Heads</span>"
                          "<button type=\"button\" data-op=\"fewer\" aria-label=\"Fewer heads\">"
                          "−</button><span class=\"stepper-value\" data-field=\"heads\" "
                          "aria-live=\"polite\">%3</span><button type=\"button\" "
                          "data-op=\"more\" aria-label=\"More heads\">+</button></div>\n")
        .arg(field, counts)
        .arg(c.heads);
}

// An on/off switch: a checkbox a screen reader announces as a switch, its label beside it.
QString switchHtml(const QString& field, const char* control, const QString& label, bool on) {
    return QStringLiteral("<div class=\"control what-if-row\" data-control=\"%2\">"
                          "<input type=\"checkbox\" role=\"switch\" id=\"%1-%2\" "
                          "data-field=\"%2\"%3><label for=\"%1-%2\" class=\"switch-label\">"
                          "%4</label></div>\n")
        .arg(field, QLatin1String(control), on ? QStringLiteral(" checked") : QString(), label);
}

QString maskHtml(const ReaderControls& c, const QString& field) {
    return switchHtml(field, "mask",
                      c.kind == "transformer"
                          ? QStringLiteral("Block future tokens (causal mask, every layer)")
                          : QStringLiteral("Block future tokens (causal mask)"),
                      c.mask == "causal");
}

QString choiceHtml(const QString& field, const char* control, const QString& label,
                   const std::vector<std::pair<std::string, QString>>& choices,
                   const std::string& current, const QString& after = {}) {
    QString html = QStringLiteral("<div class=\"control what-if-row\" data-control=\"%2\">"
                                  "<label for=\"%1-%2\">%3</label><select id=\"%1-%2\" "
                                  "data-field=\"%2\">")
                       .arg(field, QLatin1String(control), label);
    for (const auto& [value, shown] : choices) {
        html +=
            QStringLiteral("<option value=\"%1\"%2>%3</option>")
                .arg(qs(value), value == current ? QStringLiteral(" selected") : QString(), shown);
    }
    return html + QLatin1String("</select>") + after + QLatin1String("</div>\n");
}

QString positionalHtml(const ReaderControls& c, const QString& field) {
    std::vector<std::pair<std::string, QString>> choices;
    for (const std::string& kind : c.positionals) {
        choices.emplace_back(kind, kind == "none" ? QStringLiteral("none") : qs(kind));
    }
    return choiceHtml(field, "positional", QStringLiteral("Positions"), choices, c.positional);
}

QString scaleHtml(const ReaderControls& c, const QString& field) {
    const QString divisor =
        QStringLiteral(" <input type=\"number\" class=\"narrow\" data-field=\"divisor\" "
                       "aria-label=\"Divide the scores by\" min=\"0.001\" step=\"any\" "
                       "value=\"%1\">")
            .arg(c.divisor);
    return choiceHtml(field, "scale", QStringLiteral("Scale"),
                      {{"sqrt", QStringLiteral("1/√d_k")},
                       {"off", QStringLiteral("none")},
                       {"divisor", QStringLiteral("divide by…")}},
                      c.scale, divisor);
}

QString temperatureHtml(const ReaderControls& c, const QString& field) {
    return QStringLiteral("<div class=\"control what-if-row\" data-control=\"temperature\">"
                          "<label for=\"%1-temperature\">Temperature</label>"
                          "<input type=\"range\" data-field=\"temperature-slider\" min=\"0.1\" "
                          "max=\"3\" step=\"0.1\" value=\"%2\" aria-label=\"Temperature\"> "
                          "<input type=\"number\" class=\"narrow\" id=\"%1-temperature\" "
                          "data-field=\"temperature\" min=\"0.01\" max=\"100\" step=\"any\" "
                          "value=\"%2\"></div>\n")
        .arg(field)
        .arg(c.temperature);
}

// How many words to generate, and how each is picked (off while none is generated).
QString generateHtml(const ReaderControls& c, const QString& field) {
    return QStringLiteral(
               "<div class=\"control what-if-row\" data-control=\"generate\">"
               "<label for=\"%1-generate\">Words to generate</label>"
               "<input type=\"number\" class=\"narrow\" id=\"%1-generate\" "
               "data-field=\"generate\" min=\"0\" max=\"64\" step=\"1\" "
               "value=\"%2\"> <select data-field=\"pick\" "
               "aria-label=\"How each word is picked: the likeliest (greedy) or drawn by "
               "its chance (sampled)\"%3>"
               "<option value=\"greedy\"%4>greedy</option>"
               "<option value=\"sample\"%5>sampled</option>"
               "</select></div>\n")
        .arg(field)
        .arg(c.generate)
        .arg(c.generate == 0 ? QStringLiteral(" disabled") : QString(),
             c.pick == "greedy" ? QStringLiteral(" selected") : QString(),
             c.pick == "sample" ? QStringLiteral(" selected") : QString());
}

// A transformer's layers run (reader_view_words.h): the first k of them, all by default.
QString layersHtml(const ReaderControls& c, const QString& field) {
    std::vector<std::pair<std::string, QString>> choices;
    for (int k = 1; k <= c.layerCount; ++k) {
        choices.emplace_back(std::to_string(k), k == c.layerCount
                                                    ? QStringLiteral("all %1").arg(k)
                                                    : QStringLiteral("the first %1").arg(k));
    }
    return choiceHtml(field, "layers", QStringLiteral("Layers run"), choices,
                      std::to_string(c.layersRun));
}

// What a grid's row is called: a token vector's row by its token, any other by its number.
QString gridRowName(const ReaderControls& c, const ReaderMatrix& m, arma::uword row) {
    const bool byToken = (m.name == "X0" || m.name == "queries") && row < c.tokens.size();
    return byToken ? QStringLiteral("%1 (%2)").arg(row + 1).arg(htmlPageText(qs(c.tokens[row])))
                   : QString::number(row + 1);
}

// A matrix as a grid of number fields, each named by its matrix, row and column. The page
// script builds the same grid again from the core's answer after each what-if.
QString matrixHtml(const ReaderControls& c, const ReaderMatrix& m) {
    const QString name = htmlPageText(qs(m.name));
    QString html = QStringLiteral("<fieldset class=\"control control-matrix\" "
                                  "data-control=\"%1\" data-matrix=\"%2\"><legend>%2</legend>\n"
                                  "<table class=\"matrix-grid\">\n")
                       .arg(qs(m.control), name);
    for (arma::uword r = 0; r < m.values.n_rows; ++r) {
        const QString row = gridRowName(c, m, r);
        html += QStringLiteral("<tr><th scope=\"row\">%1</th>").arg(row);
        for (arma::uword col = 0; col < m.values.n_cols; ++col) {
            html +=
                QStringLiteral("<td><input type=\"number\" step=\"any\" data-row=\"%1\" "
                               "data-col=\"%2\" aria-label=\"%3 row %4, column %5\" "
                               "value=\"%6\"></td>")
                    .arg(r)
                    .arg(col)
                    .arg(name, row, QString::number(col + 1), qs(shortestDouble(m.values(r, col))));
        }
        html += QLatin1String("</tr>\n");
    }
    return html + QLatin1String("</table>\n</fieldset>\n");
}

// A matrix too large for a grid (a real model's projections, kMostGridEntries): one entry at a
// time, by its row and column, with the number it takes. The page script sends the same edit a
// grid's field does.
QString entryHtml(const ReaderMatrix& m) {
    const QString name = htmlPageText(qs(m.name));
    const auto number = [&](const char* part, const QString& label, arma::uword most) {
        return QStringLiteral("<label>%1 <input type=\"number\" data-entry=\"%2\" min=\"1\" "
                              "max=\"%3\" step=\"1\" value=\"1\" aria-label=\"%4 %1\"></label>\n")
            .arg(label, QLatin1String(part), QString::number(most), name);
    };
    return QStringLiteral("<fieldset class=\"control control-entry\" data-control=\"%1\" "
                          "data-matrix=\"%2\"><legend>%2, %3 × %4: one entry</legend>\n")
               .arg(qs(m.control), name, QString::number(m.values.n_rows),
                    QString::number(m.values.n_cols)) +
           number("row", QStringLiteral("row"), m.values.n_rows) +
           number("col", QStringLiteral("column"), m.values.n_cols) +
           QStringLiteral("<label>becomes <input type=\"number\" data-entry=\"value\" "
                          "step=\"any\" aria-label=\"%1: the entry becomes\"></label>\n"
                          "<button type=\"button\" data-entry=\"set\">Set</button>\n"
                          "</fieldset>\n")
               .arg(name);
}

} // namespace

QString cellControlsHtml(const ReaderControls& c, const QString& field) {
    QString html;
    if (offers(c, "tokens")) {
        html += tokensHtml(c, field);
    }
    if (offers(c, "heads") && c.allowedHeads.size() > 1) {
        html += headsHtml(c, field);
    }
    if (offers(c, "mask")) {
        html += maskHtml(c, field);
    }
    if (offers(c, "positional") && c.positionals.size() > 1) {
        html += positionalHtml(c, field);
    }
    if (offers(c, "scale")) {
        html += scaleHtml(c, field);
    }
    if (offers(c, "temperature")) {
        html += temperatureHtml(c, field);
    }
    if (offers(c, "generate")) {
        html += generateHtml(c, field);
    }
    // A transformer's views: what runs, switched as in the window; the lesson keeps its own.
    if (offers(c, "layers")) {
        html += layersHtml(c, field);
    }
    if (offers(c, "norm")) {
        html += switchHtml(field, "norm", QStringLiteral("LayerNorm (every layer and the last)"),
                           c.norm);
    }
    if (offers(c, "ffn")) {
        html +=
            switchHtml(field, "ffn", QStringLiteral("Feed-forward network (every layer)"), c.ffn);
    }
    bool tooLarge = false;
    QString grids;
    for (const ReaderMatrix& m : c.matrices) {
        if (m.values.n_elem <= kMostGridEntries) {
            grids += matrixHtml(c, m);
        } else {
            tooLarge = true;
            grids += entryHtml(m);
        }
    }
    if (!grids.isEmpty()) {
        html += QLatin1String("<div class=\"matrix-grids\">\n") + grids + QLatin1String("</div>\n");
    }
    if (tooLarge) {
        html += QStringLiteral(
                    "<p class=\"what-if-hint\">A matrix of more than %1 numbers has no grid here: "
                    "set one entry by its row and column, pick a change of it under <strong>More "
                    "what-ifs</strong>, or write it whole under <strong>Your own</strong>.</p>\n")
                    .arg(kMostGridEntries);
    }
    return html.isEmpty()
               ? html
               : QStringLiteral("<div class=\"controls\">\n") + html + QLatin1String("</div>\n");
}

} // namespace attnbook
