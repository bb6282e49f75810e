#include "core/present/gradient_view_html.h"

#include "core/document/matrix_names.h"
#include "core/math/gradient_check.h"
#include "core/present/attention_matrices.h"
#include "core/present/attention_views.h"
#include "core/present/html_text.h"
#include "core/present/view_html.h"

namespace attnbook {

namespace {

PresentedMatrix gradientTable(const std::string& caption, std::vector<std::string> rowLabels,
                              const arma::mat& values) {
    PresentedMatrix t;
    t.caption = caption;
    t.rowLabels = std::move(rowLabels);
    t.columnLabels = coordinateLabelTexts(int(values.n_cols));
    t.values = values;
    return t;
}

// The rows of a gradient as its matrix's rows are labelled (matrix_names.h).
std::vector<std::string> rowLabelsOf(const InputMatrixName& entry, const AttentionResult& r,
                                     int rows) {
    switch (entry.rowLabels) {
    case MatrixRowLabels::Queries:
        return queryLabelTexts(r);
    case MatrixRowLabels::Keys:
        return keyLabelTexts(r);
    case MatrixRowLabels::Index:
        return coordinateLabelTexts(rows);
    case MatrixRowLabels::Bias:
        break;
    }
    return {""};
}

} // namespace

std::string attentionGradientsHtml(const AttentionCellSpec& spec, const AttentionResult& r) {
    const AttentionGradients& g = r.grad;
    // The inputs' gradients (G_Y, then ∂L/∂X or ∂L/∂Q, K, V), then the parameters'.
    std::string inputs, parameters;
    if (!g.upstream.is_empty()) {
        // (n × d_o) the gradient the loss sends into the output
        inputs += matrixTableHtml(gradientTable("G_Y = ∂L/∂Y", queryLabelTexts(r), g.upstream));
    }
    std::vector<std::string> names;
    if (!spec.config.direct) {
        names.emplace_back("X"); // ∂L/∂X: the token vectors' gradient
    }
    for (const std::string& name : parameterGradientNames(spec.config)) {
        names.push_back(name);
    }
    for (const std::string& name : names) {
        const InputMatrixName* entry = inputMatrixOfGradient(name);
        if (!entry) {
            continue;
        }
        // Each has the shape of its matrix: (n × d) for X, (d × d_k h) for W_Q, (1 × …) a bias.
        const arma::mat values = entry->gradient       ? arma::mat(g.*(entry->gradient))
                                 : entry->gradientBias ? arma::mat(g.*(entry->gradientBias))
                                                       : arma::mat();
        if (values.is_empty()) {
            continue;
        }
        // Given directly, Q, K and V are named as the PDF names them.
        const std::string shown = name == "queries"  ? "Q"
                                  : name == "keys"   ? "K"
                                  : name == "values" ? "V"
                                                     : name;
        const PresentedMatrix table =
            gradientTable("∂L/∂" + shown, rowLabelsOf(*entry, r, int(values.n_rows)), values);
        (entry->role == InputMatrixName::Role::Projection ||
                 entry->role == InputMatrixName::Role::Bias
             ? parameters
             : inputs) += matrixTableHtml(table);
    }
    std::string html;
    for (const std::string* group : {&inputs, &parameters}) {
        if (!group->empty()) {
            html += "<div class=\"matrix-group\">\n" + *group + "</div>\n";
        }
    }
    for (const std::string& line : gradientCheckSentences(r.gradcheck, false)) {
        html += "<p class=\"view-note\">" + htmlText(line) + "</p>\n";
    }
    return html;
}

} // namespace attnbook
