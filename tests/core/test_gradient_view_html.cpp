// An attention cell's gradients view as the web page writes it (core/present/gradient_view_html.h)
// and the live page redrawing it. Expected numbers are worked out here: two one-hot tokens with
// identity projections and the upstream gradient all ones, so L = Σ Y = Σ_i Σ_j A_ij (v_j · 1)
// with every v_j · 1 = 1: L = n whatever the shares, and only the value path has a gradient.
#include "core/document/lesson.h"
#include "core/live/live_page.h"
#include "core/math/attention_engine.h"
#include "core/present/gradient_view_html.h"

#include <doctest/doctest.h>

#include <string>

using namespace attnbook;

namespace {

const char* kLesson = R"(# Gradients

```attention g
tokens: [red, blue]
vocab:
  red: [1, 0]
  blue: [0, 1]
W_Q: [[1, 0], [0, 1]]
W_K: [[1, 0], [0, 1]]
W_V: [[1, 0], [0, 1]]
W_O: [[1, 0], [0, 1]]
views: [gradients]
controls: [tokens, mask]
```
)";

struct Computed {
    Lesson lesson;
    LessonResults results;
};

Computed compute(const std::string& text) {
    Computed c{parseLesson(text, "gradients.md"), {}};
    REQUIRE(c.lesson.diagnostics.empty());
    AttentionEngine engine;
    c.results = computeLesson(c.lesson, engine);
    REQUIRE(c.results.cell("g"));
    REQUIRE(c.results.cell("g")->ok);
    return c;
}

bool has(const std::string& html, const std::string& part) {
    return html.find(part) != std::string::npos;
}

} // namespace

TEST_CASE("the gradients view writes G_Y and each gradient of the mode as tables") {
    const Computed c = compute(kLesson);
    const std::string html =
        attentionGradientsHtml(*c.lesson.cells.at(0).attention(), *c.results.cell("g")->attention);
    // G_Y: ones, as the cell gives no upstream gradient
    CHECK(has(html, "<table class=\"matrix\">\n<caption>G_Y = ∂L/∂Y</caption>\n<thead><tr><td>"
                    "</td><th scope=\"col\">1</th><th scope=\"col\">2</th></tr></thead>\n<tbody>\n"
                    "<tr><th scope=\"row\">red</th><td>1</td><td>1</td></tr>\n<tr><th scope=\"row"
                    "\">blue</th><td>1</td><td>1</td></tr>\n</tbody>\n</table>\n"));
    // ∂L/∂X = ∂L/∂V W_V: each key's column of A sums to 1 (two tokens, no mask)
    CHECK(has(html,
              "<caption>∂L/∂X</caption>\n<thead><tr><td></td><th scope=\"col\">1</th><th "
              "scope=\"col\">2</th></tr></thead>\n<tbody>\n<tr><th scope=\"row\">red</th><td>1"
              "</td><td>1</td></tr>\n<tr><th scope=\"row\">blue</th><td>1</td><td>1</td></tr>"));
    // ∂L/∂b_O = Σ_i G_Y[i] = [2, 2]; ∂L/∂b_V = Σ_i Σ_j A_ij = n each
    CHECK(has(html, "<caption>∂L/∂b_O</caption>\n<thead><tr><td></td><th scope=\"col\">1</th><th "
                    "scope=\"col\">2</th></tr></thead>\n<tbody>\n<tr><th scope=\"row\"></th><td>2"
                    "</td><td>2</td></tr>\n</tbody>\n</table>\n"));
    CHECK(has(html, "<caption>∂L/∂b_V</caption>\n<thead><tr><td></td><th scope=\"col\">1</th><th "
                    "scope=\"col\">2</th></tr></thead>\n<tbody>\n<tr><th scope=\"row\"></th><td>2"
                    "</td><td>2</td></tr>"));
    for (const char* caption : {"∂L/∂W_Q", "∂L/∂W_K", "∂L/∂W_V", "∂L/∂W_O", "∂L/∂b_Q", "∂L/∂b_K"}) {
        CAPTURE(caption);
        CHECK(has(html, std::string("<caption>") + caption + "</caption>"));
    }
    // inputs in one group, parameters in the other
    CHECK(html.find("∂L/∂X") < html.find("</div>"));
    CHECK(html.find("∂L/∂W_Q") > html.find("</div>"));
    CHECK(has(html, "<p class=\"view-note\">Gradient check against central differences: "
                    "relative error "));
    CHECK(has(html, "passed (below 1e-6 passes).</p>"));
}

TEST_CASE("given Q, K and V directly, the gradients view names them so") {
    const Computed c = compute(R"(# Direct

```attention g
tokens: [a, b]
queries: [[1, 0], [0, 1]]
keys: [[1, 0], [0, 1]]
values: [[1, 2], [3, 4]]
views: [gradients]
```
)");
    const std::string html =
        attentionGradientsHtml(*c.lesson.cells.at(0).attention(), *c.results.cell("g")->attention);
    for (const char* caption : {"∂L/∂Q", "∂L/∂K", "∂L/∂V"}) {
        CAPTURE(caption);
        CHECK(has(html, std::string("<caption>") + caption + "</caption>"));
    }
    CHECK_FALSE(has(html, "∂L/∂X"));
    CHECK_FALSE(has(html, "W_Q"));
}

TEST_CASE("the live page redraws an attention cell's gradients after a what-if") {
    const Computed c = compute(kLesson);
    AttentionEngine engine;
    const LivePage page = livePage(c.lesson, c.results, {"g.mask=causal"}, engine);
    REQUIRE_EQ(page.cells.size(), 1u);
    REQUIRE_EQ(page.cells[0].views.count("gradients"), 1u);
    const std::string& html = page.cells[0].views.at("gradients");
    // Causal: red reads itself alone, blue gives red 1 − a and itself a = σ(1/√2) = 0.66976:
    // key red's column of A sums to 1.33024, blue's to 0.66976, and so does ∂L/∂X's row.
    CHECK(has(html, "<caption>∂L/∂X</caption>\n<thead><tr><td></td><th scope=\"col\">1</th><th "
                    "scope=\"col\">2</th></tr></thead>\n<tbody>\n<tr><th scope=\"row\">red</th>"
                    "<td>1.3302</td><td>1.3302</td></tr>\n<tr><th scope=\"row\">blue</th><td>"
                    "0.6698</td><td>0.6698</td></tr>"));
    // ∂L/∂b_O = Σ_i G_Y[i] does not read the shares
    CHECK(has(html, "<caption>∂L/∂b_O</caption>\n<thead><tr><td></td><th scope=\"col\">1</th><th "
                    "scope=\"col\">2</th></tr></thead>\n<tbody>\n<tr><th scope=\"row\"></th><td>2"
                    "</td><td>2</td></tr>"));
}
