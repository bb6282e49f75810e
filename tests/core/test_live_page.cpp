// The live web page's side of the core (docs/web-page.md): the marks the page's prose carries
// (core/present/live_marks.h) and the answer to a reader's what-ifs (core/live/live_page.h),
// which the WebAssembly module gives the page. Expected values are worked out here from the
// attention formula, not read back from the engine.
#include "core/document/cell_reread.h"
#include "core/live/live_page.h"
#include "core/live/reader_controls.h"
#include "core/live/reader_what_ifs.h"
#include "core/live/what_if.h"
#include "core/present/live_marks.h"
#include "core/present/presented_lesson.h"

#include "core/math/attention_engine.h"

#include "test_support.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace attnbook;

namespace {

// Two one-hot tokens, the identity projections: a query meets its own key with score 1 and
// the other with 0, both scaled by 1/√2 (d = 2). The reader may change the tokens and the mask
// (and the vocab, for a new word), not the heads.
const char* kLesson = R"(# Two colours

```attention c
tokens: [red, blue]
vocab:
  red: [1, 0]
  blue: [0, 1]
controls: [tokens, mask]
```

Red gives blue {{c.head[0].weights[0][1]:4}} of its attention{{? c.head[0].weights[0][1] > 0.1}}, and itself {{c.head[0].weights[0][0]:4}}.

<!-- a note: {{c.tokens[0]}} -->
The last token is {{c.tokens[1]}}.{{? c.tokens[1] == "blue"}}
)";

std::string fourDecimals(double x) {
    char text[32];
    std::snprintf(text, sizeof text, "%.4f", x);
    return text;
}

struct Opened {
    Lesson lesson;
    LessonResults results;
};

Opened open(const char* text) {
    Opened o{parseLesson(text, "colours.md"), {}};
    AttentionEngine engine;
    o.results = computeLesson(o.lesson, engine);
    return o;
}

LivePage ask(const Opened& o, const std::vector<std::string>& words) {
    AttentionEngine engine;
    return livePage(o.lesson, o.results, words, engine);
}

const double kScaled = 1 / std::sqrt(2.0); // a token's score with itself, scaled

} // namespace

TEST_CASE("live marks number each value and claim and come out again") {
    const std::string marked = markedValue(3, "0.25") + " and " + markedClaim(2) + ".";
    CHECK_EQ(marked, "\xEE\x80\x80"
                     "3\xEE\x80\x81"
                     "0.25\xEE\x80\x82 and \xEE\x80\x83"
                     "2\xEE\x80\x82.");
    CHECK_EQ(withoutLiveMarks(marked), "0.25 and .");
    CHECK_EQ(withoutLiveMarks("plain"), "plain");

    // one reader of the format: the steps in order; a stray close and a mark with no number
    // say nothing
    std::string steps;
    readLiveMarks(std::string(kMarkClose) + "a" + markedValue(12, "x") +
                      std::string(kClaimMarkOpen) + "b" + markedClaim(3),
                  {[&](std::string_view text) { steps += "[" + std::string(text) + "]"; },
                   [&](int n) { steps += "v" + std::to_string(n); }, [&] { steps += "/v"; },
                   [&](int n) { steps += "c" + std::to_string(n); }});
    CHECK_EQ(steps, "[a]v12[x]/v[b]c3");
}

TEST_CASE("the presented prose marks values and claims in the lesson's order") {
    const Opened o = open(kLesson);
    REQUIRE(o.results.diagnostics.empty());
    const PresentedLesson marked = presentLesson(o.lesson, o.results, ProseMarks::Live);
    const PresentedLesson plain = presentLesson(o.lesson, o.results);
    REQUIRE_EQ(marked.parts.size(), plain.parts.size());
    std::string all;
    for (size_t i = 0; i < marked.parts.size(); ++i) {
        if (!marked.parts[i].isCell()) {
            // a reader reads the same words either way
            CHECK_EQ(withoutLiveMarks(marked.parts[i].prose().markdown),
                     plain.parts[i].prose().markdown);
            all += marked.parts[i].prose().markdown;
        }
    }
    const std::string w01 = fourDecimals(1 / (1 + std::exp(kScaled)));
    const std::string w00 = fourDecimals(std::exp(kScaled) / (1 + std::exp(kScaled)));
    CHECK(all.find(markedValue(0, w01) + " of its attention" + markedClaim(0)) !=
          std::string::npos);
    CHECK(all.find(markedValue(1, w00)) != std::string::npos);
    // the binding in the note has no number: the note leaves the page
    CHECK(all.find("red") == std::string::npos);
    CHECK(all.find(markedValue(2, "blue") + "." + markedClaim(1)) != std::string::npos);

    const NumberedProse numbered = numberedProsePieces(o.lesson.document);
    REQUIRE_EQ(numbered.values.size(), 3u);
    REQUIRE_EQ(numbered.claims.size(), 2u);
    CHECK_EQ(numbered.values[2].binding->expression, "c.tokens[1]");
    CHECK_EQ(numbered.values[2].line, 14);
    CHECK_EQ(numbered.claims[1].number, 1);
}

TEST_CASE("the live page carries its lesson without the authors' notes") {
    const Opened o = open(kLesson);
    const std::string carried = liveLessonSource(o.lesson.document);
    const std::string original = o.lesson.document.serialize();
    CHECK(carried.find("a note") == std::string::npos);
    CHECK(carried.find("<!--") == std::string::npos);
    REQUIRE_EQ(carried.size(), original.size()); // lines and columns kept
    CHECK_EQ(std::count(carried.begin(), carried.end(), '\n'),
             std::count(original.begin(), original.end(), '\n'));
    // and it numbers its bindings as the page does
    const Lesson reread = parseLesson(carried, "lesson.md");
    const NumberedProse numbered = numberedProsePieces(reread.document);
    REQUIRE_EQ(numbered.values.size(), 3u);
    CHECK_EQ(numbered.values[2].binding->expression, "c.tokens[1]");
}

TEST_CASE("the live page answers the lesson as it is without what-ifs") {
    const Opened o = open(kLesson);
    const LivePage page = ask(o, {});
    CHECK(page.applied.empty());
    CHECK(page.refused.empty());
    CHECK(page.editedCells.empty());
    CHECK_EQ(page.values,
             std::vector<std::string>{fourDecimals(1 / (1 + std::exp(kScaled))),
                                      fourDecimals(1 / (1 + std::exp(-kScaled))), "blue"});
    CHECK_EQ(page.valueNotes, std::vector<std::string>(3));
    CHECK_EQ(page.falseClaims, std::vector<std::string>(2));
}

TEST_CASE("the live page follows a reader's what-ifs, and marks the claims they make false") {
    const Opened o = open(kLesson);
    SUBCASE("the causal mask: red may not look at blue") {
        const LivePage page = ask(o, {"c.mask=causal"});
        CHECK_EQ(page.applied, std::vector<std::string>{"c.mask=causal"});
        CHECK_EQ(page.editedCells, std::vector<std::string>{"c"});
        CHECK_EQ(page.values[0], "0.0000");
        CHECK_EQ(page.values[1], "1.0000");
        CHECK(page.falseClaims[0].starts_with("c.head[0].weights[0][1] > 0.1: "));
        CHECK_EQ(page.falseClaims[1], "");
    }
    SUBCASE("three tokens: red shares with red and blue") {
        const LivePage page = ask(o, {"c.tokens=[red, red, blue]"});
        const double e = std::exp(kScaled);
        CHECK_EQ(page.values[0], fourDecimals(e / (2 * e + 1)));
        CHECK_EQ(page.values[1], fourDecimals(e / (2 * e + 1)));
        CHECK_EQ(page.values[2], "red");
        CHECK_EQ(page.falseClaims[0], "");
        CHECK(page.falseClaims[1].starts_with("c.tokens[1] == \"blue\": "));
    }
    SUBCASE("one token: a value the what-if took away reads as a dash, with why") {
        const LivePage page = ask(o, {"c.tokens=[red]"});
        CHECK_EQ(page.values[0], "—");
        CHECK_FALSE(page.valueNotes[0].empty());
        CHECK(page.valueNotes[0].starts_with("c.head[0].weights[0][1]: "));
        CHECK_EQ(page.values[2], "—");
        CHECK_FALSE(page.falseClaims[1].empty());
    }
}

namespace {

// The entries of the table captioned `caption` in `html`, row by row, as written; a blocked
// entry is prefixed with "blocked:".
std::vector<std::vector<std::string>> tableEntries(const std::string& html,
                                                   const std::string& caption) {
    std::vector<std::vector<std::string>> rows;
    size_t at = html.find("<caption>" + caption);
    const size_t end = at == std::string::npos ? at : html.find("</table>", at);
    while (at != std::string::npos && (at = html.find("<tr><th", at)) < end) {
        std::vector<std::string>& row = rows.emplace_back();
        const size_t rowEnd = html.find("</tr>", at);
        while ((at = html.find("<td", at)) < rowEnd) {
            const std::string blockedTag = "<td class=\"blocked\"";
            const bool blocked = html.compare(at, blockedTag.size(), blockedTag) == 0;
            const size_t open = html.find('>', at) + 1;
            const size_t close = html.find("</td>", open);
            row.push_back((blocked ? "blocked:" : "") + html.substr(open, close - open));
            at = close;
        }
        at = rowEnd;
    }
    return rows;
}

} // namespace

TEST_CASE("the live page redraws an edited cell's tables and summary, and only those") {
    const Opened o = open(kLesson);
    CHECK(ask(o, {}).cells.empty()); // the lesson as exported: the page keeps its own
    const LivePage page = ask(o, {"c.mask=causal"});
    REQUIRE_EQ(page.cells.size(), 1u);
    const LiveCellViews& c = page.cells[0];
    CHECK_EQ(c.cellId, "c");
    CHECK_EQ(c.summary, "tokens red, blue · width 2 · 1 head · scores ÷ √2 · causal mask");
    REQUIRE_EQ(c.views.count("matrices"), 1u);
    REQUIRE_EQ(c.views.count("heatmap"), 1u);
    CHECK_EQ(c.views.count("shares"), 0u); // not among the cell's views
    const std::string& html = c.views.at("matrices");
    // red may not look at blue: its score −∞ and its share 0, both marked; blue shares
    // 1/(1+e^{1/√2}) with red and the rest with itself
    const std::string ownScore = fourDecimals(kScaled);
    CHECK_EQ(tableEntries(html, "S = Q Kᵀ · s"),
             std::vector<std::vector<std::string>>{{ownScore, "blocked:−∞"}, {"0.0000", ownScore}});
    CHECK_EQ(tableEntries(html, "A = softmax(S)"),
             std::vector<std::vector<std::string>>{{"1.0000", "blocked:0"},
                                                   {fourDecimals(1 / (1 + std::exp(kScaled))),
                                                    fourDecimals(1 / (1 + std::exp(-kScaled)))}});
    CHECK(html.find("<caption>X <span class=\"note\">token vectors</span>") != std::string::npos);
    // the heatmap: the same shares, coloured, the blocked square marked and empty
    const std::string& heatmap = c.views.at("heatmap");
    CHECK(heatmap.find(">1.0000</td><td class=\"blocked\" title=\"blocked by the mask\"></td>") !=
          std::string::npos);
    CHECK(heatmap.find(">" + fourDecimals(1 / (1 + std::exp(-kScaled))) + "</td>") !=
          std::string::npos);
    CHECK(heatmap.find("style=\"background: #08306b; color: #fafafc\">1.0000") !=
          std::string::npos); // all of it: the palette's deepest blue, white digits
    CHECK(html.find("Q = K = V = X here") != std::string::npos);
    const Json json = livePageJson(page);
    const Json* cellJson = json.find("cells") ? json.find("cells")->find("c") : nullptr;
    REQUIRE(cellJson);
    CHECK_EQ(cellJson->find("summary")->string(), c.summary);
    CHECK_EQ(cellJson->find("views")->find("matrices")->string(), html);

    // three tokens: a row and a column more, labelled with the tokens
    const LivePage three = ask(o, {"c.tokens=[red, red, blue]"});
    REQUIRE_EQ(three.cells.size(), 1u);
    CHECK_EQ(tableEntries(three.cells[0].views.at("matrices"), "A = softmax(S)").size(), 3u);
    CHECK(three.cells[0].views.at("matrices").find("<th scope=\"col\">blue</th>") !=
          std::string::npos);
}

TEST_CASE("the live page redraws a transformer cell's chances, and a cell taking its model") {
    // `u` takes `t`'s model and its temperature; a reader may change t's temperature.
    std::string text = test::kOneLayerTransformerLesson;
    text.replace(text.find("temperature: 1\n"), 15, "temperature: 1\ncontrols: [temperature]\n");
    text += "\n```transformer u\nmodel: t\ntokens: [blue, red]\n```\n";
    Opened o{parseLesson(text, "shared.md"), {}};
    AttentionEngine engine;
    o.results = computeLesson(o.lesson, engine);
    REQUIRE(o.results.cell("t"));
    const LivePage page = livePage(o.lesson, o.results, {"t.temperature=2"}, engine);
    REQUIRE_EQ(page.applied, std::vector<std::string>{"t.temperature=2"});
    REQUIRE_EQ(page.cells.size(), 1u); // u keeps its own temperature: not computed again
    const LiveCellViews& t = page.cells[0];
    CHECK_EQ(t.cellId, "t");
    CHECK(t.summary.find(" · T = 2 · 4 words") != std::string::npos);
    REQUIRE_EQ(t.views.count("next"), 1u);
    const std::string& html = t.views.at("next");
    CHECK(html.find("with T = 2, the 4 most likely of 4 words:") != std::string::npos);
    // At T = 2 each chance is √p / Σ√p of the chances at T = 1: softmax(z/2) ∝ e^{z/2}.
    const arma::rowvec p1 = o.results.cell("t")->transformer->probs.tail_rows(1);
    const arma::rowvec p2 = arma::sqrt(p1) / arma::accu(arma::sqrt(p1));
    const std::vector<std::string>& words = o.results.cell("t")->transformer->words;
    for (size_t k = 0; k < words.size(); ++k) {
        CAPTURE(words[k]);
        const std::string row = "<th scope=\"row\">" + words[k] + "</th>";
        const size_t at = html.find(row);
        REQUIRE(at != std::string::npos);
        const std::string open = "<td class=\"chance\">";
        const size_t chance = html.find(open, at) + open.size();
        CHECK_EQ(html.substr(chance, 6), fourDecimals(p2(k)));
    }
    // the likeliest word is marked as the greedy pick of the generation
    const size_t chosen = html.find("<tr class=\"chosen\">");
    REQUIRE(chosen != std::string::npos);
    CHECK(html.find("chosen (greedy)", chosen) != std::string::npos);
}

TEST_CASE("a compute policy may leave the gradient check out, and nothing else changes") {
    const Lesson lesson = parseLesson(test::kOneLayerTransformerLesson, "one.md");
    AttentionEngine engine;
    ComputePolicy without;
    without.gradientCheck = [](const LessonCell&) { return false; };
    const LessonResults checked = computeLesson(lesson, engine);
    const LessonResults unchecked = computeLesson(lesson, engine, without);
    const TransformerResult& a = *checked.cell("t")->transformer;
    const TransformerResult& b = *unchecked.cell("t")->transformer;
    CHECK(a.gradcheck.ran);
    CHECK_FALSE(b.gradcheck.ran);
    CHECK_EQ(b.gradcheck.forwardPasses, 0u);
    // the forward pass, the gradients and the generation are the same to the last bit
    CHECK(arma::approx_equal(a.probs, b.probs, "absdiff", 0.0));
    CHECK(arma::approx_equal(a.grad.X0, b.grad.X0, "absdiff", 0.0));
    CHECK_EQ(a.generation.steps.size(), b.generation.steps.size());
}

namespace {

// The one-layer lesson with `cellLines` added to its cell and `prose` after it, asked
// `t.temperature=2` in two steps (LiveChecks::Later) and whole (LiveChecks::Now).
struct TwoSteps {
    Opened opened;
    LivePage first;
    LivePage whole;
};

TwoSteps temperatureInTwoSteps(const std::string& cellLines, const std::string& prose) {
    std::string text = test::kOneLayerTransformerLesson;
    text.replace(text.find("temperature: 1\n"), 15, "temperature: 1\n" + cellLines);
    text += prose;
    TwoSteps out{{parseLesson(text, "steps.md"), {}}, {}, {}};
    AttentionEngine engine;
    out.opened.results = computeLesson(out.opened.lesson, engine);
    for (const LiveChecks checks : {LiveChecks::Later, LiveChecks::Now}) {
        (checks == LiveChecks::Later ? out.first : out.whole) = livePage(
            out.opened.lesson, out.opened.results, {"t.temperature=2"}, engine, {}, checks);
    }
    return out;
}

} // namespace

TEST_CASE("a what-if's gradient check may come second: what reads it waits, the rest does not") {
    const std::string prose =
        "\nThe loss is {{t.loss:3}} and the check's error {{t.gradcheck.max_rel_error:2}}."
        "{{? t.gradcheck.max_rel_error < 1e-6}}{{? t.loss > 0}}\n";
    const TwoSteps steps = temperatureInTwoSteps("controls: [temperature]\n", prose);
    const Opened& o = steps.opened;
    const LivePage& first = steps.first;
    const LivePage& whole = steps.whole;
    AttentionEngine engine;
    std::string text = o.lesson.document.serialize();
    CHECK_FALSE(first.complete());
    CHECK_EQ(first.pendingValues, std::vector<int>{1});
    CHECK_EQ(first.pendingClaims, std::vector<int>{0});
    CHECK_EQ(first.values[1], "…");
    CHECK_EQ(first.values[0], whole.values[0]); // the loss does not wait
    CHECK_EQ(first.falseClaims[1], whole.falseClaims[1]);
    CHECK(whole.complete());
    CHECK_NE(whole.values[1], "…");
    CHECK_EQ(whole.falseClaims[0], ""); // the check passes
    // the lesson as it is: nothing computed again, nothing waits
    CHECK(livePage(o.lesson, o.results, {}, engine, {}, LiveChecks::Later).complete());
    // a session answers the second question on its own, and keeps both
    LivePageSession session(parseLesson(text, "steps.md"));
    CHECK_FALSE(session.answer({"t.temperature=2"}, LiveChecks::Later).complete());
    CHECK(session.answer({"t.temperature=2"}, LiveChecks::Now).complete());
    CHECK_EQ(session.answer({"t.temperature=2"}, LiveChecks::Now).values, whole.values);
    const std::string json = livePageJson(first).dump();
    CHECK(json.find("\"complete\": false") != std::string::npos);
}

TEST_CASE("a what-if's knock-outs come second: what reads them and their view wait") {
    // value 0 reads the knock-outs, value 1 does not; claim 0 reads them, claim 1 does not
    const TwoSteps steps = temperatureInTwoSteps(
        "controls: [temperature]\nviews: [next, knockout]\n",
        "\nWithout head 1 the loss is {{t.knockout.head[0][0].loss:4}}; with it "
        "{{t.loss:4}}.{{? t.knockout.head[0][0].loss > 0}}{{? t.loss > 0}}\n");
    const LivePage& first = steps.first;
    const LivePage& whole = steps.whole;
    AttentionEngine engine;
    CHECK_FALSE(first.complete());
    CHECK_EQ(first.pendingValues, std::vector<int>{0});
    CHECK_EQ(first.values[0], "…");
    CHECK_EQ(first.valueNotes[0], "the knock-outs are being computed");
    CHECK_EQ(first.values[1], whole.values[1]); // the loss does not wait
    CHECK_EQ(first.pendingClaims, std::vector<int>{0});
    REQUIRE_EQ(first.cells.size(), 1u);
    CHECK_EQ(first.cells[0].pending, std::vector<std::string>{"knockout"});
    CHECK_EQ(first.cells[0].views.count("knockout"), 0u);
    CHECK_EQ(first.cells[0].views.at("next"), whole.cells[0].views.at("next"));
    // the second answer has them all, and the knock-out's loss is the one compute gives
    CHECK(whole.complete());
    REQUIRE_EQ(whole.cells.size(), 1u);
    CHECK(whole.cells[0].pending.empty());
    CHECK_EQ(whole.cells[0].views.count("knockout"), 1u);
    const TransformerResult& knocked = *whole.results->cell("t")->transformer;
    REQUIRE(knocked.knockouts.computed);
    CHECK_EQ(whole.values[0], formatBoundValue(*knocked.knockouts.head[0][0].loss, 4));
    CHECK_EQ(whole.falseClaims[0], "");
    // a page that shows no knock-outs and quotes none has nothing to wait for
    std::string plain = test::kOneLayerTransformerLesson;
    plain.replace(plain.find("temperature: 1\n"), 15, "temperature: 1\ncontrols: [temperature]\n");
    Opened p{parseLesson(plain, "plain.md"), {}};
    p.results = computeLesson(p.lesson, engine);
    CHECK(livePage(p.lesson, p.results, {"t.temperature=2"}, engine, {}, LiveChecks::Later)
              .complete());
    const std::string json = livePageJson(first).dump();
    CHECK(json.find("\"pending\": [\"knockout\"]") != std::string::npos);
}

TEST_CASE(
    "a session takes the values and claims of cells a what-if leaves alone from the lesson's") {
    // two cells: a what-if of c leaves d's value and claim as the lesson's, and c's are new
    std::string text = kLesson;
    text += "\n```attention d\ntokens: [red, blue]\nvocab: {red: [2, 0], blue: [0, 1]}\n```\n"
            "\nc gives {{c.head[0].weights[0][1]:4}}, d gives {{d.head[0].weights[0][1]:4}}."
            "{{? c.head[0].weights[0][1] > 0.3}}{{? d.head[0].weights[0][1] < 0.5}}\n";
    LivePageSession session(parseLesson(text, "two.md"));
    const LivePage lessons = session.answer({});
    const LivePage masked = session.answer({"c.mask=causal"});
    AttentionEngine engine;
    Opened o{parseLesson(text, "two.md"), {}};
    o.results = computeLesson(o.lesson, engine);
    const LivePage alone = livePage(o.lesson, o.results, {"c.mask=causal"}, engine);
    CHECK_EQ(masked.values, alone.values); // the same as worked out from scratch
    CHECK_EQ(masked.falseClaims, alone.falseClaims);
    const size_t n = masked.values.size();
    REQUIRE_GE(n, 2u);
    CHECK_EQ(masked.values[n - 2], "0.0000"); // c's: red no longer sees blue
    CHECK_NE(lessons.values[n - 2], "0.0000");
    CHECK_EQ(masked.values[n - 1], lessons.values[n - 1]); // d's is the lesson's
    const size_t m = masked.falseClaims.size();
    CHECK_NE(masked.falseClaims[m - 2], ""); // c's claim no longer holds
    CHECK_EQ(masked.falseClaims[m - 1], ""); // d's still does
}

TEST_CASE("a session names the views a what-if leaves as the lesson has them, and sends the rest") {
    std::string text = test::kOneLayerTransformerLesson;
    text.replace(text.find("temperature: 1\n"), 15,
                 "temperature: 1\ncontrols: [temperature, tokens]\n"
                 "views: [stream, next, generation]\n");
    LivePageSession session(parseLesson(text, "views.md"));
    AttentionEngine engine;
    Opened o{parseLesson(text, "views.md"), {}};
    o.results = computeLesson(o.lesson, engine);
    const LivePage alone = livePage(o.lesson, o.results, {"t.temperature=2"}, engine);
    const LivePage warmer = session.answer({"t.temperature=2"});
    REQUIRE_EQ(warmer.cells.size(), 1u);
    REQUIRE_EQ(alone.cells.size(), 1u);
    const LiveCellViews& kept = warmer.cells[0];
    // the temperature leaves the stream as it was; the chances and the settings follow it
    CHECK(std::find(kept.asLesson.begin(), kept.asLesson.end(), "stream") != kept.asLesson.end());
    CHECK_EQ(kept.views.count("stream"), 0u);
    CHECK_EQ(kept.views.at("next"), alone.cells[0].views.at("next"));
    CHECK_EQ(kept.views.at("settings"), alone.cells[0].views.at("settings"));
    // every view is either sent or named, and a named one is the lesson's own, as sent alone
    const LivePage lessons = livePage(o.lesson, o.results, {"t.tokens=[blue, blue, blue]"}, engine);
    for (const auto& [view, html] : alone.cells[0].views) {
        const bool named =
            std::find(kept.asLesson.begin(), kept.asLesson.end(), view) != kept.asLesson.end();
        CHECK_NE(named, kept.views.count(view) == 1u);
    }
    // a new token changes the stream: it is sent
    const LivePage tokens = session.answer({"t.tokens=[blue, blue, blue]"});
    REQUIRE_EQ(tokens.cells.size(), 1u);
    REQUIRE_EQ(tokens.cells[0].views.count("stream"), 1u);
    CHECK_EQ(tokens.cells[0].views.at("stream"), lessons.cells[0].views.at("stream"));
    CHECK(livePageJson(warmer).dump().find("\"asLesson\": [") != std::string::npos);
}

TEST_CASE("the live page refuses what a reader may not do and applies the rest") {
    const Opened o = open(kLesson);
    const LivePage page = ask(
        o, {"c.heads=2", "no equals sign", "d.tokens=[red]", "c.tokens=[green]", "c.mask=causal"});
    CHECK_EQ(page.applied, std::vector<std::string>{"c.mask=causal"});
    REQUIRE_EQ(page.refused.size(), 4u);
    CHECK_EQ(page.refused[0].words, "c.heads=2");
    CHECK_EQ(page.refused[0].why, "cell c does not let a reader change heads");
    CHECK_EQ(page.refused[1].words, "no equals sign");
    CHECK_FALSE(page.refused[1].why.empty());
    CHECK_EQ(page.refused[2].why, "this lesson has no cell 'd'");
    // the lesson's own refusal: a token the vocab does not have
    CHECK_EQ(page.refused[3].words, "c.tokens=[green]");
    CHECK(page.refused[3].why.find("green") != std::string::npos);
    CHECK_EQ(page.values[0], "0.0000"); // the mask still applied
}

TEST_CASE("the live page's answer as JSON names every part the page reads") {
    const Opened o = open(kLesson);
    const std::string json = livePageJson(ask(o, {"c.mask=causal", "x"})).dump();
    for (const char* key : {"\"applied\"", "\"refused\"", "\"edited\"", "\"values\"",
                            "\"valueNotes\"", "\"falseClaims\"", "\"words\"", "\"why\""}) {
        CHECK_MESSAGE(json.find(key) != std::string::npos, key);
    }
}

TEST_CASE("a live page session answers as livePage does, and keeps its recent answers") {
    const Opened o = open(kLesson);
    LivePageSession session(parseLesson(kLesson, "colours.md"));
    for (const std::vector<std::string>& words : {std::vector<std::string>{},
                                                  {"c.mask=causal"},
                                                  {"c.tokens=[red, red, blue]"},
                                                  {"c.heads=2", "c.tokens=[red]"},
                                                  {"c.tokens=[green]", "c.mask=causal"}}) {
        // the session reads only the edited cell again (CellRereader), livePage the lesson
        const LivePage& answered = session.answer(words);
        const LivePage direct = ask(o, words);
        for (size_t i = 0; i < direct.refused.size() && i < answered.refused.size(); ++i) {
            CHECK_EQ(answered.refused[i].words, direct.refused[i].words);
            CHECK_EQ(answered.refused[i].why, direct.refused[i].why);
        }
        REQUIRE_EQ(answered.cells.size(), direct.cells.size());
        for (size_t i = 0; i < direct.cells.size(); ++i) {
            CHECK_EQ(answered.cells[i].views, direct.cells[i].views);
        }
        CHECK_EQ(answered.applied, direct.applied);
        CHECK_EQ(answered.values, direct.values);
        CHECK_EQ(answered.valueNotes, direct.valueNotes);
        CHECK_EQ(answered.falseClaims, direct.falseClaims);
        CHECK_EQ(answered.refused.size(), direct.refused.size());
        CHECK_EQ(&session.answer(words), &answered); // kept, not computed again
    }
}

namespace {

// Each edited cell's controls in `page` are the ones read from the cell under its own what-ifs
// (cellUnderWhatIfs), and every edited cell with controls has them, unless it takes its model
// from another edited cell. Returns how many were compared.
size_t checkControls(const Lesson& lesson, const LivePage& page,
                     const std::vector<std::string>& words) {
    const CellRereader rereader(lesson);
    size_t compared = 0;
    for (const std::string& id : page.editedCells) {
        const auto carried = std::find_if(page.controls.begin(), page.controls.end(),
                                          [&](const ReaderControls& c) { return c.cellId == id; });
        const std::optional<LessonCell> read = cellUnderWhatIfs(lesson, rereader, words, id);
        REQUIRE(read);
        const ReaderControls expected = readerControls(*read);
        const TransformerCellSpec* spec = read->transformer();
        const bool sharesAnEdited =
            spec && spec->sharedModel &&
            std::count(page.editedCells.begin(), page.editedCells.end(), spec->sharedModel->cell);
        if (expected.controls.empty() || sharesAnEdited) {
            CHECK(carried == page.controls.end());
            continue;
        }
        REQUIRE(carried != page.controls.end());
        CHECK_EQ(readerControlsJson(*carried).dump(), readerControlsJson(expected).dump());
        ++compared;
    }
    return compared;
}

} // namespace

TEST_CASE("an answer carries each edited cell's controls, as the cell read under them has them") {
    size_t compared = 0;
    for (const char* name : {"guide.md", "attention.md", "transformer.md"}) {
        const std::string path = std::string(ATTNBOOK_SOURCE_DIR "/documents/") + name;
        const auto bytes = test::readFile(path);
        REQUIRE(bytes);
        const Lesson lesson = parseLesson(*bytes, path);
        LivePageSession session(parseLesson(*bytes, path));
        std::vector<std::string> firstOfEach; // one what-if of every cell, all in force at once
        for (const LessonCell& cell : lesson.cells) {
            std::vector<std::vector<std::string>> asked;
            for (const ReaderWhatIf& whatIf : readerWhatIfs(cell)) {
                std::vector<std::string> words;
                for (size_t k = 0; k < whatIf.keys.size(); ++k) {
                    words.push_back(whatIf.setText(k));
                }
                asked.push_back(words);
            }
            for (const ReaderViewWhatIf& view : readerViewWhatIfs(cell)) {
                asked.push_back({view.setText()});
            }
            for (size_t i = 0; i < asked.size() && i < 6; ++i) {
                INFO(std::string(name) << ": " << asked[i].front());
                const LivePage& page = session.answer(asked[i], LiveChecks::Later);
                REQUIRE_EQ(page.editedCells, std::vector<std::string>{cell.id});
                compared += checkControls(lesson, page, asked[i]);
            }
            if (!asked.empty()) {
                firstOfEach.insert(firstOfEach.end(), asked[0].begin(), asked[0].end());
            }
        }
        const LivePage& all = session.answer(firstOfEach);
        INFO(std::string(name) << ": every cell's first what-if at once");
        CHECK_EQ(all.applied, firstOfEach);
        compared += checkControls(lesson, all, firstOfEach);
    }
    CHECK(compared >= 30);
    // a cell taking an edited cell's model leaves its controls to the page to ask
    std::string text = test::kOneLayerTransformerLesson;
    text.replace(text.find("temperature: 1\n"), 15, "temperature: 1\ncontrols: [temperature]\n");
    text += "\n```transformer u\nmodel: t\ntokens: [blue, red]\ncontrols: [temperature]\n```\n";
    LivePageSession shared(parseLesson(text, "shared.md"));
    const std::vector<std::string> both = {"t.temperature=2", "u.temperature=3"};
    const LivePage& page = shared.answer(both);
    REQUIRE_EQ(page.editedCells.size(), 2u);
    REQUIRE_EQ(page.controls.size(), 1u);
    CHECK_EQ(page.controls[0].cellId, "t");
    CHECK_EQ(page.controls[0].temperature, 2.0);
    CHECK_EQ(checkControls(shared.lesson(), page, both), 1u);
    const std::string json = livePageJson(page).dump();
    CHECK(json.find("\"controls\": {\n    \"t\": {\n      \"cell\": \"t\",") != std::string::npos);
    CHECK(json.find("\"u\": {\n      \"cell\"") == std::string::npos);
}

TEST_CASE("a session gives the cell its last answer read for the next edit, else reads it") {
    const std::string path = std::string(ATTNBOOK_SOURCE_DIR "/documents/transformer.md");
    const auto bytes = test::readFile(path);
    REQUIRE(bytes);
    const Lesson lesson = parseLesson(*bytes, path);
    const CellRereader rereader(lesson);
    LivePageSession session(parseLesson(*bytes, path));
    // `kept`: the session gives the cell it read for its last answer, the same read each time
    const auto same = [&](const std::vector<std::string>& words, const std::string& id, bool kept) {
        const std::optional<LessonCell> given = session.cellUnderWhatIfs(words, id);
        const std::optional<LessonCell> again = session.cellUnderWhatIfs(words, id);
        const std::optional<LessonCell> read = cellUnderWhatIfs(lesson, rereader, words, id);
        REQUIRE_EQ(given.has_value(), read.has_value());
        if (read) {
            CHECK_EQ(readerControlsJson(readerControls(*given)).dump(),
                     readerControlsJson(readerControls(*read)).dump());
            CHECK_EQ(given->transformer()->config.temperature,
                     read->transformer()->config.temperature);
            CHECK_EQ(given->transformer()->config.tokens, read->transformer()->config.tokens);
            CHECK_EQ(&given->read() == &again->read(), kept);
        }
    };
    const std::vector<std::string> own = {"playground.tokens=[a, big]", "playground.view.norm=off"};
    const LivePage& page = session.answer(own, LiveChecks::Later);
    REQUIRE_EQ(page.controls.size(), 1u);
    CHECK_EQ(page.controls[0].cellId, "playground");
    same(own, "playground", true);
    same({"playground.view.norm=off", "playground.tokens=[a, big]"}, "playground", false); // order
    same({"playground.tokens=[a, big]"}, "playground", false);   // fewer words: read again
    same({}, "tiny", true);                                      // the lesson's own, shared
    same({"tiny.temperature=3"}, "tiny", false);                 // another cell: read
    same({"stream_small.temperature=2"}, "stream_small", false); // not the reader's: as cellUnder…
    CHECK_FALSE(session.cellUnderWhatIfs(own, "no_such_cell").has_value());
    // playground takes tiny's model: with tiny edited too, it is read again on its own words
    const std::vector<std::string> both = {"tiny.temperature=2", "playground.tokens=[a, big]"};
    const LivePage& shared = session.answer(both, LiveChecks::Later);
    REQUIRE_EQ(shared.controls.size(), 1u);
    CHECK_EQ(shared.controls[0].cellId, "tiny");
    same({"tiny.temperature=2"}, "tiny", true);
    same(both, "playground", false);
    // a newer answer replaces what is kept
    session.answer({"tiny.temperature=0.5"}, LiveChecks::Later);
    same({"tiny.temperature=2"}, "tiny", false);
    same({"tiny.temperature=0.5"}, "tiny", true);
    CHECK_EQ(session.cellUnderWhatIfs({"tiny.temperature=0.5"}, "tiny")
                 ->transformer()
                 ->config.temperature,
             0.5);
}

TEST_CASE(
    "a what-if charges a cell it takes as it was what the cell cost, without working it out") {
    // two equal cells: each fits the JSON limit alone, not both
    std::string text = kLesson;
    const std::string cell = text.substr(text.find("```attention c"),
                                         text.find("```\n\n") + 4 - text.find("```attention c"));
    std::string second = cell;
    second.replace(second.find(" c\n"), 3, " d\n");
    text += "\n" + second;
    const Lesson lesson = parseLesson(text, "two.md");
    REQUIRE_EQ(lesson.cells.size(), 2u);
    AttentionEngine engine;
    const CellCost one = cellCost(lesson.cells[0]);
    REQUIRE(one.jsonBytes > 0);
    const LessonResults unlimited = computeLesson(lesson, engine);
    REQUIRE(unlimited.cell("c")->cost);
    CHECK_EQ(unlimited.cell("c")->cost->jsonBytes, one.jsonBytes);
    CHECK_EQ(unlimited.cell("c")->cost->multiplyAdds, one.multiplyAdds);
    CHECK_EQ(unlimited.cell("d")->cost->bytes, cellCost(lesson.cells[1]).bytes);

    const CostLimits before = costLimits();
    CostLimits room = before;
    room.maxJsonBytes = 1.5 * one.jsonBytes;
    setCostLimits(room);
    const LessonResults results = computeLesson(lesson, engine);
    const auto refusedAfter = [](const LessonResults& r) {
        return std::any_of(r.diagnostics.begin(), r.diagnostics.end(), [](const Diagnostic& d) {
            return d.cellId == "d" &&
                   d.message.find("too costly to compute after the cells before it") !=
                       std::string::npos;
        });
    };
    CHECK(refusedAfter(results));
    // d's what-if takes c as it was (not computed again): c is charged all the same
    std::string error;
    const WhatIf whatIf =
        applyWhatIf(lesson, {*parseSetOption("d.mask=causal", error)}, engine, &results);
    setCostLimits(before);
    CHECK_EQ(whatIf.results.cell("c")->attention, results.cell("c")->attention); // taken
    CHECK(refusedAfter(whatIf.results));
    CHECK_FALSE(whatIf.results.cell("d")->ok);
}

TEST_CASE("a what-if computes again exactly the cells it changes, and those taking their model") {
    // `u` takes `t`'s model: a what-if on t's model changes u, one on t's temperature does not.
    const std::string text = std::string(test::kOneLayerTransformerLesson) +
                             "\n```transformer u\nmodel: t\ntokens: [blue, red]\n```\n";
    Opened o{parseLesson(text, "shared.md"), {}};
    AttentionEngine engine;
    o.results = computeLesson(o.lesson, engine);
    REQUIRE(o.results.cell("u"));
    for (const SetOption& set :
         {SetOption{"t", "temperature", "2"},
          SetOption{"t", "vocab",
                    "{red: [2, 0, 0, 0], blue: [0, 1, 0, 0], green: [0, 0, 1, 0], "
                    "gold: [0, 0, 0, 1]}"},
          SetOption{"u", "tokens", "[red, red]"}}) {
        CAPTURE(set.key);
        const WhatIf reused = applyWhatIf(o.lesson, {set}, engine, &o.results);
        const WhatIf fresh = applyWhatIf(o.lesson, {set}, engine);
        REQUIRE(reused.errors.empty());
        for (const char* id : {"t", "u"}) {
            CAPTURE(id);
            REQUIRE(reused.results.cell(id));
            CHECK_EQ(reused.results.cell(id)->json.dump(), fresh.results.cell(id)->json.dump());
        }
    }
    // and the model's change did reach u
    const WhatIf vocab =
        applyWhatIf(o.lesson,
                    {{"t", "vocab",
                      "{red: [2, 0, 0, 0], blue: [0, 1, 0, 0], green: [0, 0, 1, 0], "
                      "gold: [0, 0, 0, 1]}"}},
                    engine, &o.results);
    CHECK_NE(vocab.results.cell("u")->json.dump(), o.results.cell("u")->json.dump());
}
