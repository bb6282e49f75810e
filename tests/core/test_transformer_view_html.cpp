// A transformer cell's views as the web page writes them (core/present/transformer_view_html.h),
// and the live page's answer listing them after a what-if. Expected numbers are worked out here
// (sinusoidal positions, the cache's counts, ReLU), not read back from the HTML writer.
#include "core/document/lesson.h"
#include "core/live/live_page.h"
#include "core/math/attention_engine.h"
#include "core/math/number_format.h"
#include "core/present/transformer_settings.h"
#include "core/present/transformer_view_html.h"
#include "core/present/transformer_views.h"
#include "core/present/view_html.h"

#include "test_support.h"

#include <doctest/doctest.h>

#include <cmath>
#include <string>

using namespace attnbook;

namespace {

// The one-layer cell with every view this file writes; `focus` picks the row they follow.
std::string lessonText(int focus) {
    std::string text = test::kOneLayerTransformerLesson;
    text.replace(text.find("temperature: 1\n"), 15,
                 "temperature: 1\nfocus: " + std::to_string(focus) +
                     "\nviews: [stream, ffn, generation, cache, blocks, knockout]\n");
    return text;
}

struct Computed {
    Lesson lesson;
    LessonResults results;
    const TransformerCellSpec& spec() const { return *lesson.cells.at(0).transformer(); }
    const TransformerResult& result() const { return *results.cell("t")->transformer; }
};

Computed compute(const std::string& text) {
    Computed c{parseLesson(text, "views.md"), {}};
    REQUIRE(c.lesson.diagnostics.empty());
    AttentionEngine engine;
    c.results = computeLesson(c.lesson, engine);
    REQUIRE(c.results.cell("t"));
    REQUIRE(c.results.cell("t")->ok);
    return c;
}

bool has(const std::string& html, const std::string& part) {
    return html.find(part) != std::string::npos;
}

size_t count(const std::string& html, const std::string& part) {
    size_t n = 0;
    for (size_t at = html.find(part); at != std::string::npos; at = html.find(part, at + 1)) {
        ++n;
    }
    return n;
}

} // namespace

TEST_CASE("the stream view follows the focus row from the tokens to the final LayerNorm") {
    const Computed c = compute(lessonText(0));
    const std::string html = streamHtml(c.result());
    CHECK(has(html, "The stream of “red” (row 1)"));
    // Row 0 is red [1, 0, 0, 0] at position 0, whose sinusoid is [sin 0, cos 0, sin 0, cos 0]:
    // X⁰ = [1, 1, 0, 1], of length √3.
    CHECK(has(html, "<tr class=\"sum\"><th scope=\"row\">input</th><th scope=\"row\" "
                    "class=\"what\">X⁰ = token + position</th><td>1.000</td><td>1.000</td>"
                    "<td>0.000</td><td>1.000</td><td>1.732</td></tr>"));
    // input, + attention, = R, + FFN, = X¹, the final LayerNorm; d = 4, all coordinates shown
    CHECK_EQ(count(html, "<tr class="), 6u);
    CHECK(has(html, "<tr class=\"added rule\"><th scope=\"row\">layer 1</th><th scope=\"row\" "
                    "class=\"what\">+ attention A</th>"));
    CHECK(has(html, "<th scope=\"row\" class=\"what\">= X¹</th>"));
    CHECK(has(html, "<tr class=\"sum rule\"><th scope=\"row\">final LN</th><th scope=\"row\" "
                    "class=\"what\">Z = LN_f(X¹)</th>"));
    CHECK_FALSE(has(html, "more"));
}

TEST_CASE("the FFN view shows z and its ReLU for a layer of two units") {
    const Computed c = compute(lessonText(1));
    const std::string html = ffnHtml(c.spec(), c.result());
    CHECK(has(html, "The hidden units for “blue” (row 2)"));
    CHECK(has(html, "<strong>Layer 1</strong> · z = G W₁ᵀ + b₁, act = ReLU; d_ff = 2 units"));
    CHECK(has(html, "<thead><tr><th scope=\"col\">unit</th><th scope=\"col\">1</th>"
                    "<th scope=\"col\">2</th></tr></thead>"));
    const arma::mat& z = c.result().layers[0].ffnPre; // (n × d_ff)
    const size_t act = html.find("<th scope=\"row\">act(z)</th>");
    REQUIRE(act != std::string::npos);
    for (arma::uword k = 0; k < 2; ++k) {
        const std::string relu = fixedNumber(std::max(0.0, z(1, k)), 4);
        CAPTURE(relu);
        CHECK(html.find("\">" + relu + "</td>", act) != std::string::npos);
    }
}

TEST_CASE("the generation and cache views count the comparisons with the cache and without") {
    const Computed c = compute(lessonText(0));
    const std::string generation = generationHtml(c.spec(), c.result());
    // n = 3 prompt tokens, 2 steps: step 1 compares 3 × 3 either way; step 2 compares the new
    // row with the n + t − 1 = 4 cached keys, 4 × 4 without the cache.
    CHECK(has(generation, "<td>9</td><td>9</td></tr>"));
    CHECK(has(generation, "<td>4</td><td>16</td></tr>"));
    CHECK(has(generation, "<tr class=\"total\"><th scope=\"row\">all</th><td></td><td></td>"
                          "<td>13</td><td>25</td></tr>"));
    CHECK(has(generation, "Step 1 runs the 3 prompt tokens (n² = 9)"));
    CHECK(has(generation, "<p class=\"view-text generated\">red blue red <strong>"));

    const std::string cache = cacheHtml(c.spec(), c.result(), true);
    // 1 layer · 2 heads · (d_k + d_v = 2 + 2) · 4 positions
    CHECK(has(cache, "<p class=\"view-text\">After the last of 2 steps the cache holds the keys "
                     "and values of n + N "
                     "− 1 = 3 + 2 − 1 = 4 positions (the last word is never fed back): <strong>L "
                     "· h · (d_k + d_v) · (n + N − 1) = 1 · 2 · (2 + 2) · 4 = 32 numbers"
                     "</strong>.</p>"));
    // bars against the largest count, 16: 9/16 = 56.25 %, 4/16 = 25 %
    CHECK(has(cache, "<tr class=\"word\"><th scope=\"row\">step 1</th><td class=\"track\"><span "
                     "class=\"bar\" style=\"width: 56.25%\"></span></td><td class=\"chance\">9"
                     "</td><td class=\"mark\">with the cache</td></tr>"));
    CHECK(has(cache, "<tr class=\"without\"><th scope=\"row\"></th><td class=\"track\"><span "
                     "class=\"bar\" style=\"width: 100.00%\"></span></td><td class=\"chance\">16"
                     "</td><td class=\"mark\">without it</td></tr>"));
    CHECK(has(cache, "style=\"width: 25.00%\"></span></td><td class=\"chance\">4</td>"));
}

TEST_CASE("the blocks view ends where the plain path does, and marks a masked block") {
    const Computed c = compute(lessonText(0));
    const std::string html = blocksHtml(c.spec(), c.result());
    // block size 2 over 3 keys; causal, row 0 reads key 0 alone: the second block is masked
    CHECK(has(html, "<tr><th scope=\"row\">1–2: red, blue</th>"));
    CHECK(has(html, "<tr class=\"masked\"><th scope=\"row\">3: red (masked)</th><td>"));
    CHECK(has(html, "The blocks end where the plain path does"));
    // head 1 of d_v = 2 coordinates: the output is row 0 of V₁, read whole
    const arma::mat& v = c.result().layers[0].attention.V; // (m × h d_v)
    CHECK(has(html, "<th scope=\"row\">output o / ℓ</th><td></td><td></td><td>" +
                        fixedNumber(v(0, 0), 4) + "</td><td>" + fixedNumber(v(0, 1), 4) +
                        "</td></tr>"));
}

TEST_CASE("the knock-out view has the whole model's bar, then one per part") {
    const Computed c = compute(lessonText(2));
    const std::string html = knockoutHtml(c.result());
    REQUIRE_FALSE(html.empty());
    CHECK(has(html, "<tr class=\"chosen\"><th scope=\"row\">whole model</th>"));
    for (const char* part : {"block 1, head 1", "block 1, head 2", "block 1 attention",
                             "block 1 FFN", "block 1 (all of it)"}) {
        CAPTURE(part);
        CHECK(has(html, std::string("<th scope=\"row\">") + part + "</th>"));
    }
    CHECK_EQ(count(html, "<tr class="), 6u);
}

TEST_CASE("a transformer view writes lesson words as text") {
    std::string text = lessonText(1);
    for (size_t at = text.find("blue"); at != std::string::npos; at = text.find("blue", at + 7)) {
        text.replace(at, 4, "\"<b>\"");
    }
    const Computed c = compute(text);
    const std::string views[] = {streamHtml(c.result()), ffnHtml(c.spec(), c.result()),
                                 generationHtml(c.spec(), c.result()),
                                 blocksHtml(c.spec(), c.result()), knockoutHtml(c.result())};
    for (const std::string& html : views) {
        CHECK_FALSE(has(html, "<b>"));
    }
    CHECK(has(views[0], "The stream of “&lt;b&gt;” (row 2)"));
    CHECK(has(views[3], "1–2: red, &lt;b&gt;"));
}

TEST_CASE("the live page redraws a transformer cell's stream, FFN, generation, cache, blocks "
          "and knock-outs") {
    std::string text = lessonText(0);
    text.replace(text.find("temperature: 1\n"), 15, "temperature: 1\ncontrols: [tokens]\n");
    const Computed c = compute(text);
    AttentionEngine engine;
    const LivePage page = livePage(c.lesson, c.results, {"t.tokens=[blue, blue, red]"}, engine);
    REQUIRE_EQ(page.applied.size(), 1u);
    REQUIRE_EQ(page.cells.size(), 1u);
    const Computed edited = compute(lessonText(0).replace(
        lessonText(0).find("tokens: [red, blue, red]"), 24, "tokens: [blue, blue, red]"));
    const std::map<std::string, std::string> expected = {
        {"stream", streamHtml(edited.result())},
        {"ffn", ffnHtml(edited.spec(), edited.result())},
        {"generation", generationHtml(edited.spec(), edited.result())},
        {"cache", cacheHtml(edited.spec(), edited.result(), true)},
        {"blocks", blocksHtml(edited.spec(), edited.result())},
        {"knockout", knockoutHtml(edited.result())}};
    for (const auto& [view, html] : expected) {
        CAPTURE(view);
        REQUIRE_EQ(page.cells[0].views.count(view), 1u);
        CHECK_EQ(page.cells[0].views.at(view), html);
    }
    CHECK(has(page.cells[0].views.at("stream"), "The stream of “blue” (row 1)"));
}

TEST_CASE("a transformer cell's layer attention is written as an attention cell's views") {
    std::string text = lessonText(0);
    text.replace(text.find("views: [stream"), 8, "views: [heatmap, shares, ");
    const Computed c = compute(text);
    const std::string html = transformerAttentionHtml(c.spec(), c.result());
    const AttentionResult& a = c.result().layers[0].attention;
    CHECK(has(html, "<p class=\"view-note\">Attention reads H = LN₁(X⁰), the layer&#39;s input, as "
                    "its X.</p>\n"));
    CHECK(has(html, "<div class=\"layer-view\">\n<p class=\"layer-title\">Attention · Heatmap of "
                    "the shares</p>\n" +
                        heatmapHtml(a) + "</div>\n"));
    CHECK(has(html, "<p class=\"layer-title\">Attention · Shares of attention</p>\n" +
                        sharesHtml(a, 0) + "</div>\n"));
    CHECK(html.find("Heatmap") < html.find("Shares of attention"));
    // a cell that shows no attention view has no such figure
    CHECK(transformerAttentionHtml(compute(lessonText(0)).spec(), c.result()).empty());
}

// The Settings view in words, worked out from the cell: 3 tokens, 1 layer of width 4 (vocab of
// 4, tied), sinusoidal positions, every LayerNorm γ = 1, β = 0 at ε 1e-5, T = 1, two targets and
// a greedy generation of two steps; one layer of 2 heads of d_k = d_v = 4 / 2 = 2, causal, an
// FFN of 2 ReLU units. A what-if of the temperature shows T = 2 in the page's answer.
TEST_CASE("the settings view says what the cell is set to, and follows a what-if") {
    std::string text = lessonText(1);
    text.replace(text.find("temperature: 1\n"), 15, "temperature: 1\ncontrols: [temperature]\n");
    const Computed c = compute(text);
    const std::vector<SettingRow> rows =
        transformerSettingRows(c.lesson.cells.at(0), c.spec(), c.result());
    std::vector<std::string> shown;
    for (const SettingRow& row : rows) {
        shown.push_back(row.label + ": " + row.text + row.focusWord);
    }
    const std::vector<std::string> expected = {
        "Tokens: red, blue, red (n = 3); the views follow row 2, blue",
        "Model: 1 layer, pre-norm (GPT-2's order); width d = 4; the logits score the "
        "vocabulary's 4 words (tied unembedding)",
        "Positions: sinusoidal, added to X₀",
        "Final LayerNorm: γ = 1, β = 0; every LayerNorm uses ε = 0.00001",
        "Temperature: T = 1",
        "Targets: blue, red, ~; loss (mean cross-entropy) " + fixedNumber(*c.result().loss, 4),
        "Generation: 2 steps, greedy (the most likely word)"};
    CHECK_EQ(shown.size(), expected.size());
    for (size_t i = 0; i < expected.size() && i < shown.size(); ++i) {
        CHECK_EQ(shown[i], expected[i]);
    }
    const std::vector<LayerSettingRow> layers = layerSettingRows(c.spec().config, c.result());
    REQUIRE_EQ(layers.size(), 1u);
    CHECK(layers[0].ran);
    CHECK_EQ(layers[0].entries,
             std::vector<std::string>{"1", "2", "2", "2", "causal", "γ = 1, β = 0",
                                      "d_ff = 2, ReLU", "γ = 1, β = 0"});
    const std::string html = transformerSettingsHtml(c.lesson.cells.at(0), c.spec(), c.result());
    CHECK(has(html, "<th scope=\"row\">Temperature</th><td>T = 1</td>"));
    CHECK(has(html, "the views follow row 2, <em>blue</em>"));

    AttentionEngine engine;
    const LivePage page = livePage(c.lesson, c.results, {"t.temperature=2"}, engine);
    REQUIRE_EQ(page.cells.size(), 1u);
    REQUIRE_EQ(page.cells[0].views.count("settings"), 1u);
    CHECK(has(page.cells[0].views.at("settings"), "<td>T = 2</td>"));
}

// The gradients view lists every parameter's gradient in the model's order, each layer a group,
// with its shape; after a what-if the page's answer has it again, for the edited tokens.
TEST_CASE("the gradients view lists each parameter's gradient, and follows a what-if") {
    std::string text = lessonText(0);
    text.replace(text.find("views: ["), 8, "views: [gradients, ");
    text.replace(text.find("temperature: 1\n"), 15, "temperature: 1\ncontrols: [tokens]\n");
    const Computed c = compute(text);
    const std::vector<transformer_views::GradientRow> rows =
        transformer_views::gradientRows(c.spec(), c.result());
    REQUIRE(!rows.empty());
    // X0 is 3 tokens × width 4; the first of layer 0's parameters starts a group.
    CHECK_EQ(rows[0].name, "X0");
    CHECK_EQ(rows[0].rows, 3u);
    CHECK_EQ(rows[0].cols, 4u);
    CHECK(!rows[0].ruleAbove);
    REQUIRE(rows.size() > 1);
    CHECK(rows[1].name.starts_with("layers[0]."));
    CHECK(rows[1].ruleAbove);
    // The norm and the largest entry of X0's gradient, worked out from the entries.
    const arma::mat& gX = c.result().grad.X0;
    double squares = 0, largest = 0;
    for (double v : gX) {
        squares += v * v;
        largest = std::max(largest, std::abs(v));
    }
    CHECK(rows[0].norm == doctest::Approx(std::sqrt(squares)).epsilon(1e-14));
    CHECK_EQ(rows[0].largest, largest);
    const std::string html = transformerGradientsHtml(c.spec(), c.result());
    CHECK(has(html, "<tr><th scope=\"row\">X0</th><td class=\"shape\">3 × 4</td>"));
    CHECK(has(html, "L is the loss over the targets, "));
    CHECK_EQ(count(html, "<tr class=\"group\">"), 2u); // layer 0, then the vocab's group

    AttentionEngine engine;
    const LivePage page = livePage(c.lesson, c.results, {"t.tokens=[blue, blue, red]"}, engine);
    REQUIRE_EQ(page.cells.size(), 1u);
    REQUIRE_EQ(page.cells[0].views.count("gradients"), 1u);
    std::string editedText = text;
    editedText.replace(editedText.find("tokens: [red, blue, red]"), 24,
                       "tokens: [blue, blue, red]");
    const Computed edited = compute(editedText);
    const std::string expected = transformerGradientsHtml(edited.spec(), edited.result());
    CHECK_EQ(page.cells[0].views.at("gradients"), expected);
    CHECK_NE(expected, html);
}

// A training cell's curve: how it trains and how far the loss fell, in words, over the chart;
// after a what-if that changes what it trains (no positions), the page gets the new curve.
TEST_CASE("the training view says how the loss fell, and follows a what-if") {
    const auto withTraining = [](std::string text) {
        text.replace(text.find("views: ["), 8, "views: [training, ");
        text.replace(text.find("temperature: 1\n"), 15,
                     "temperature: 1\ncontrols: [positional]\ntrain:\n  data: [[red, blue, red], "
                     "[blue, red]]\n  steps: 4\n  optimizer: sgd\n  lr: 0.1\n");
        return text;
    };
    const std::string text = withTraining(lessonText(0));
    const Computed c = compute(text);
    const std::vector<double>& loss = c.result().training->loss;
    REQUIRE_EQ(loss.size(), 5u);
    const std::string html = trainingHtml(c.spec(), c.result());
    CHECK(has(html, "SGD, lr 0.1, 2 sentences. The loss fell from " + fixedNumber(loss[0], 4) +
                        " to " + fixedNumber(loss[4], 4) +
                        " in 4 steps; every other view shows the model after step 4"));
    CHECK_EQ(count(html, "<polyline"), 1u);
    CHECK_EQ(count(html.substr(html.find("<polyline")), ","), 5u); // x,y for 5 steps

    AttentionEngine engine;
    const LivePage page = livePage(c.lesson, c.results, {"t.positional=none"}, engine);
    REQUIRE_EQ(page.cells.size(), 1u);
    REQUIRE_EQ(page.cells[0].views.count("training"), 1u);
    std::string editedText = text;
    editedText.replace(editedText.find("positional: sinusoidal"), 22, "positional: none");
    const Computed edited = compute(editedText);
    CHECK_EQ(page.cells[0].views.at("training"), trainingHtml(edited.spec(), edited.result()));
    CHECK_NE(page.cells[0].views.at("training"), html);
}
