// The live page's cell controls (core/live/reader_controls.h): what each shows under the
// what-ifs in force, and the `compute --set` words a reader's change with one of them gives —
// written by the window's edits, so the page never quotes YAML itself.
#include "core/live/reader_controls.h"

#include "core/document/cell_reread.h"

#include "test_support.h"

using namespace attnbook;

namespace {

const char* kLesson = R"(# Controls

```attention c
tokens: [red, blue, red]
vocab:
  red: [1, 0, 0, 0]
  blue: [0, 1, 0, 0]
  "<b>&": [0, 0, 1, 0]
controls: [tokens, heads, mask, positional, scale]
```

```transformer t
tokens: [red, blue]
vocab:
  red: [1, 0, 0, 0]
  blue: [0, 1, 0, 0]
positional: none
layers:
  - attention: {heads: 1, mask: causal}
    ln1: none
    ffn: none
    ln2: none
final_ln: none
controls: [tokens, temperature, generate, positional]
```

```attention fixed
tokens: [red]
X: [[1, 0]]
controls: []
```
)";

using Keys = std::vector<std::pair<std::string, std::string>>;

Keys edit(const LessonCell& cell, ReaderEdit e) {
    std::string why;
    const auto keys = readerEditKeys(cell, e, why);
    REQUIRE_MESSAGE(keys.has_value(), why);
    return *keys;
}

std::string refusal(const LessonCell& cell, ReaderEdit e) {
    std::string why;
    CHECK_FALSE(readerEditKeys(cell, e, why).has_value());
    return why;
}

} // namespace

TEST_CASE("an attention cell's controls show its settings, and only what its controls offer") {
    const Lesson lesson = parseLesson(kLesson, "controls.md");
    REQUIRE(lesson.diagnostics.empty());
    const ReaderControls c = readerControls(*lesson.cell("c"));
    CHECK(c.kind == "attention");
    CHECK(c.controls == std::vector<std::string>{"tokens", "heads", "mask", "positional", "scale"});
    CHECK(c.tokens == std::vector<std::string>{"red", "blue", "red"});
    CHECK(c.words == std::vector<std::string>{"red", "blue", "<b>&"});
    CHECK(c.heads == 1);
    CHECK(c.allowedHeads == std::vector<int>{1, 2, 4});
    CHECK(c.mask == "none");
    CHECK(c.positional == "none");
    // learned positions need a table the cell does not have
    CHECK(c.positionals == std::vector<std::string>{"none", "sinusoidal"});
    CHECK(c.scale == "sqrt");
    CHECK(readerControls(*lesson.cell("fixed")).controls.empty());
}

TEST_CASE("the vectors and projections controls: their matrices, and an entry changed") {
    const Lesson lesson = parseLesson(R"(# Grids

```attention g
tokens: [a, b]
X: [[1, 0], [0, 1]]
controls: [vectors, projections]
```
)",
                                      "grids.md");
    REQUIRE(lesson.diagnostics.empty());
    const LessonCell& g = *lesson.cell("g");
    const ReaderControls c = readerControls(g);
    REQUIRE(c.matrices.size() == 5);
    CHECK(c.matrices[0].name == "X0");
    CHECK(c.matrices[0].control == "vectors");
    CHECK(arma::approx_equal(c.matrices[0].values, arma::mat{{1, 0}, {0, 1}}, "absdiff", 0));
    CHECK(c.matrices[1].name == "W_Q");
    CHECK(c.matrices[1].control == "projections");
    CHECK(arma::approx_equal(c.matrices[1].values, arma::mat{{1, 0}, {0, 1}}, "absdiff", 0));
    CHECK(edit(g, {"vectors", "entry", 1, 0, "X0", 0.5}) == Keys{{"X", "[[1, 0], [0.5, 1]]"}});
    CHECK(edit(g, {"projections", "entry", 0, 1, "W_K", -2}) == Keys{{"W_K", "[[1, -2], [0, 1]]"}});
    CHECK(refusal(g, {"vectors", "entry", 0, 0, "W_Q", 1}) ==
          "the vectors control has no matrix 'W_Q'");
}

TEST_CASE("each attention control's change gives the keys the window's Keep writes") {
    const Lesson lesson = parseLesson(kLesson, "controls.md");
    const LessonCell& c = *lesson.cell("c");
    CHECK(edit(c, {"tokens", "remove", 1}) == Keys{{"tokens", "[red, red]"}});
    // the focus stays on the token it followed, as the window keeps it
    CHECK(edit(c, {"tokens", "move", 0, 1}) ==
          Keys{{"tokens", "[blue, red, red]"}, {"focus", "1"}});
    // a vocab word with markup is quoted by the core's YAML writer
    CHECK(edit(c, {"tokens", "add", 0, 0, "<b>&"}) ==
          Keys{{"tokens", "[red, blue, red, \"<b>&\"]"}});
    CHECK(edit(c, {"heads", "set", 0, 0, "", 2}) == Keys{{"heads", "2"}});
    CHECK(edit(c, {"mask", "set", 0, 0, "causal"}) == Keys{{"mask", "causal"}});
    CHECK(edit(c, {"positional", "set", 0, 0, "sinusoidal"}) == Keys{{"positional", "sinusoidal"}});
    CHECK(edit(c, {"scale", "set", 0, 0, "divisor", 2}) == Keys{{"scale", "2"}});
    CHECK(edit(c, {"scale", "set", 0, 0, "off"}) == Keys{{"scale", "false"}});
    CHECK(refusal(c, {"heads", "set", 0, 0, "", 3}) != "");
    CHECK(refusal(c, {"tokens", "move", 0, 3}) == "a token moves within the sentence");
    CHECK(refusal(c, {"tokens", "remove", 7}) == "there is no token 8");
    CHECK(refusal(c, {"temperature", "set", 0, 0, "", 2}) ==
          "cell c does not let a reader change temperature");
    CHECK(refusal(*lesson.cell("fixed"), {"tokens", "remove", 0}) ==
          "cell fixed does not let a reader change tokens");
}

TEST_CASE("a transformer cell's controls: tokens of its vocab, temperature, words generated") {
    const Lesson lesson = parseLesson(kLesson, "controls.md");
    const LessonCell& t = *lesson.cell("t");
    const ReaderControls c = readerControls(t);
    CHECK(c.kind == "transformer");
    CHECK(c.controls ==
          std::vector<std::string>{"tokens", "temperature", "generate", "positional"});
    CHECK(c.tokens == std::vector<std::string>{"red", "blue"});
    CHECK(c.temperature == 1.0);
    CHECK(c.generate == 0);
    CHECK(edit(t, {"tokens", "move", 1, 0}) == Keys{{"tokens", "[blue, red]"}});
    CHECK(edit(t, {"tokens", "add", 0, 0, "blue"}) == Keys{{"tokens", "[red, blue, blue]"}});
    CHECK(edit(t, {"temperature", "set", 0, 0, "", 0.5}) == Keys{{"temperature", "0.5"}});
    CHECK(refusal(t, {"tokens", "add", 0, 0, "green"}) == "'green' is not in the vocab");
    CHECK(refusal(t, {"generate", "set", 0, 0, "", 1.5}) == "generate a whole number of words");
    // How generated words are picked: only once some are generated, and by name.
    CHECK(c.pick == "greedy");
    CHECK(refusal(t, {"generate", "pick", 0, 0, "sample"}) ==
          "choose how many words to generate first");
    const Lesson generating = parseLesson(
        std::string(kLesson).replace(std::string(kLesson).find("controls: [tokens, temperature"), 0,
                                     "generate: {steps: 2, pick: greedy}\n"),
        "controls.md");
    const LessonCell& g = *generating.cell("t");
    CHECK(edit(g, {"generate", "pick", 0, 0, "sample"}) ==
          Keys{{"generate", "{steps: 2, pick: sample, seed: 0}"}});
    CHECK(refusal(g, {"generate", "pick", 0, 0, "best"}) ==
          "words are picked greedy or sample, not 'best'");
}

TEST_CASE("the controls under the what-ifs in force: a cell's own words, read again alone") {
    const Lesson lesson = parseLesson(kLesson, "controls.md");
    const CellRereader rereader(lesson);
    const std::optional<LessonCell> c = cellUnderWhatIfs(
        lesson, rereader, {"c.tokens=[blue]", "t.temperature=2", "c.heads=2"}, "c");
    REQUIRE(c.has_value());
    const ReaderControls shown = readerControls(*c);
    CHECK(shown.tokens == std::vector<std::string>{"blue"});
    CHECK(shown.heads == 2);
    // a change is made from there: the words it gives replace the cell's earlier ones
    CHECK(edit(*c, {"tokens", "add", 0, 0, "red"}) == Keys{{"tokens", "[blue, red]"}});
    const std::optional<LessonCell> t =
        cellUnderWhatIfs(lesson, rereader, {"c.tokens=[blue]", "t.temperature=2"}, "t");
    REQUIRE(t.has_value());
    CHECK(readerControls(*t).temperature == 2.0);
    // words the cell cannot read are none the page would send: the controls are not read
    // what the controls show after an edit, without reading the cell: as read with its keys
    for (const ReaderEdit& e :
         {ReaderEdit{"tokens", "add", 0, 0, "red"}, ReaderEdit{"heads", "set", 0, 0, "", 4},
          ReaderEdit{"positional", "set", 0, 0, "sinusoidal"}}) {
        std::string why;
        ReaderControls after;
        const auto keys = readerEditKeys(*c, e, why, &after);
        REQUIRE(keys.has_value());
        std::vector<std::string> words = {"c.tokens=[blue]", "c.heads=2"};
        for (const auto& [key, yaml] : *keys) {
            words.push_back("c." + key + "=" + yaml);
        }
        const std::optional<LessonCell> read = cellUnderWhatIfs(lesson, rereader, words, "c");
        REQUIRE(read.has_value());
        CHECK(readerControlsJson(after).dump() == readerControlsJson(readerControls(*read)).dump());
    }
    ReaderControls afterT;
    std::string whyT;
    REQUIRE(readerEditKeys(*t, {"temperature", "set", 0, 0, "", 0.25}, whyT, &afterT));
    CHECK(afterT.temperature == 0.25);
    CHECK(afterT.tokens == std::vector<std::string>{"red", "blue"});
    CHECK_FALSE(cellUnderWhatIfs(lesson, rereader, {"c.heads=[1"}, "c").has_value());
    CHECK_FALSE(cellUnderWhatIfs(lesson, rereader, {"c.tokens=7"}, "c").has_value());
    CHECK_FALSE(cellUnderWhatIfs(lesson, rereader, {}, "nothing").has_value());
}

TEST_CASE("the controls' answer gives a large matrix's shape, not its numbers") {
    // X (3 × 8: 24 numbers) is a grid's; W_Q (8 × 8: 64) is past kMostGridEntries
    const auto unitRow = [](int one) {
        std::string row = "[";
        for (int k = 0; k < 8; ++k) {
            row += std::string(k ? ", " : "") + (k == one ? "1" : "0");
        }
        return row + "]";
    };
    std::string x = "[", w = "[";
    for (int r = 0; r < 8; ++r) {
        x += r < 3 ? std::string(r ? ", " : "") + unitRow(r) : "";
        w += std::string(r ? ", " : "") + unitRow(r);
    }
    const std::string text = "# Big\n\n```attention big\ntokens: [a, b, c]\nX: " + x +
                             "]\nW_Q: " + w + "]\ncontrols: [vectors, projections]\n```\n";
    const Lesson lesson = parseLesson(text, "big.md");
    REQUIRE_FALSE(hasErrors(lesson.diagnostics));
    const Json json = readerControlsJson(readerControls(*lesson.cell("big")));
    const Json* matrices = json.find("matrices");
    REQUIRE(matrices);
    bool sawGrid = false;
    int large = 0;
    for (const Json& m : matrices->array()) {
        const Json* shape = m.find("shape");
        REQUIRE(shape);
        const double rows = shape->array()[0].number(), cols = shape->array()[1].number();
        if (rows * cols <= double(kMostGridEntries)) {
            sawGrid = true;
            REQUIRE(m.find("rows"));
            CHECK_EQ(m.find("rows")->array().size(), size_t(rows));
        } else {
            ++large; // W_Q as written, and W_K, W_V, W_O: the identity, 8 × 8 as well
            CHECK(m.find("name")->string().starts_with("W_"));
            CHECK_EQ(rows * cols, 64.0);
            CHECK(m.find("rows") == nullptr);
        }
    }
    CHECK(sawGrid);
    CHECK_EQ(large, 4);
    // a large matrix's entry is changed as a grid's is
    std::string why;
    const auto keys =
        readerEditKeys(*lesson.cell("big"), {"projections", "entry", 2, 1, "W_Q", 0.25}, why);
    REQUIRE_MESSAGE(keys.has_value(), why);
    REQUIRE_EQ(keys->size(), 1u);
    CHECK_EQ(keys->front().first, "W_Q");
    CHECK(keys->front().second.find("0.25") != std::string::npos);
}
