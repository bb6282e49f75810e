// The what-if sweep of `check --what-ifs` (each sentence a reader's what-if may make
// false without a mark), the sentences it reads, the lint for whole numbers and percentages,
// and the coincidences check --fix declines. The planted sentences stand in a copy of
// documents/attention.md, after its playground, whose controls open everything.
#include "core/document/cell_cost.h"
#include "core/document/lesson.h"
#include "core/document/prose_sentences.h"
#include "core/document/typed_numbers.h"
#include "core/live/reader_what_ifs.h"
#include "core/live/typed_number_coincidences.h"
#include "core/live/what_if_sweep.h"

#include "test_support.h"

#include <algorithm>

using namespace attnbook;

namespace {

std::string shipped(const std::string& name) {
    const auto bytes = test::readFile(std::string(ATTNBOOK_SOURCE_DIR "/documents/") + name);
    REQUIRE_MESSAGE(bytes, "cannot read documents/" << name);
    return *bytes;
}

struct Computed {
    Lesson lesson;
    LessonResults results;
};

Computed compute(const std::string& text, const std::string& path = "attention.md") {
    Computed c{parseLesson(text, ATTNBOOK_SOURCE_DIR "/documents/" + path), {}};
    AttentionEngine engine;
    c.results = computeLesson(c.lesson, engine);
    REQUIRE_MESSAGE(!hasErrors(c.results.diagnostics), path);
    return c;
}

// attention.md with `text` after the paragraph that closes its playground section.
struct Planted {
    std::string text;
    int firstLine = 0; // of the planted text
    int lineOf(const std::string& words) const {
        const size_t at = text.find(words);
        REQUIRE_MESSAGE(at != std::string::npos, words);
        return int(std::count(text.begin(), text.begin() + long(at), '\n')) + 1;
    }
};

Planted plantInAttention(const std::string& text) {
    std::string lesson = shipped("attention.md");
    const std::string anchor = "positional encoding and then reorder the tokens.<!-- general -->\n";
    const size_t at = lesson.find(anchor);
    REQUIRE(at != std::string::npos);
    lesson.insert(at + anchor.size(), "\n" + text);
    return {lesson, int(std::count(lesson.begin(), lesson.begin() + long(at), '\n')) + 3};
}

std::vector<Diagnostic> sweep(const std::string& text) {
    const Computed c = compute(text);
    AttentionEngine engine;
    return sweepReaderWhatIfs(c.lesson, c.results, engine).warnings;
}

const Diagnostic* warningAt(const std::vector<Diagnostic>& all, int line) {
    const auto found =
        std::find_if(all.begin(), all.end(), [&](const Diagnostic& d) { return d.line == line; });
    return found == all.end() ? nullptr : &*found;
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace

TEST_CASE("sentences: a claim or a general mark after the full stop belongs to the sentence") {
    const Lesson parsed =
        parseLesson(std::string("# One\n\nFirst sentence {{c.n}}. Second one.{{? c.n == 3}} Third "
                                "one.<!-- general -->\n\n- An item, {{c.d}}.\n\n| a | {{c.n}} |\n"
                                "|---|---|\n\n```text\nCode. Not a sentence.\n```\n\n# Two\n\n"
                                "<!-- a note --> Last.\n"),
                    "x.md");
    const LessonSentences cut = proseSentences(parsed.document);
    REQUIRE(cut.sentences.size() == 5);
    const auto& s = cut.sentences;
    CHECK(s[0].source == "First sentence {{c.n}}.");
    CHECK(s[0].values.size() == 1);
    CHECK(s[0].claims.empty());
    CHECK(s[1].claims.size() == 1);
    CHECK(s[1].claims[0].expression == "c.n == 3");
    CHECK_FALSE(s[1].general);
    CHECK(s[2].general);
    CHECK(s[2].line == 3);
    CHECK(s[3].source == "An item, {{c.d}}.");
    CHECK(s[3].column == 3);
    CHECK(s[3].paragraph != s[2].paragraph);
    CHECK(s[4].source == "Last.");
    CHECK(s[4].section == s[0].section + 1);
    CHECK_FALSE(s[4].general);

    // Closing emphasis after the full stop is the sentence's: the mark after it is too.
    const Lesson listed = parseLesson(
        std::string("# One\n\n- *the cat sat .*<!-- general -->\n- *a dog ran .*\n"), "x.md");
    const LessonSentences items = proseSentences(listed.document);
    REQUIRE(items.sentences.size() == 2);
    CHECK(items.sentences[0].source == "*the cat sat .*");
    CHECK(items.sentences[0].general);
    CHECK_FALSE(items.sentences[1].general);
}

TEST_CASE("the sweep finds nothing in the shipped lessons, and tries their what-ifs") {
    for (const std::string name : {"guide.md", "attention.md", "transformers.md", "real-head.md",
                                   "transformer.md", "training.md"}) {
        CAPTURE(name);
        const Computed c = compute(shipped(name), name);
        AttentionEngine engine;
        const SweepReport report = sweepReaderWhatIfs(c.lesson, c.results, engine);
        CHECK(report.whatIfs > 0);
        for (const Diagnostic& d : report.warnings) {
            FAIL_CHECK(name << ":" << d.line << ":" << d.column << ": " << d.message);
        }
    }
}

TEST_CASE("the sweep finds each kind of sentence a reader's what-if makes false") {
    const Planted planted = plantInAttention(
        "Because the mask is causal here, the first token reads only itself.\n\n"
        "The middle token is *blue*, so it stands out.\n\n"
        "Each score is divided by √4 = 2 before the softmax.{{? sqrt(playground.d) == 2}}\n\n"
        "The first row's shares add up: {{playground.head[0].weights[0][0]}} + "
        "{{playground.head[0].weights[0][1]}} + {{playground.head[0].weights[0][2]}} = 1.\n\n"
        "The playground starts with three tokens.\n");
    const std::vector<Diagnostic> all = sweep(planted.text);
    REQUIRE(all.size() == 5);
    for (const Diagnostic& d : all) {
        CHECK(d.severity == Severity::Warning);
        CHECK(contains(d.message, "this sentence may be false when playground."));
        CHECK(d.column == 1);
    }

    const Diagnostic* causal = warningAt(all, planted.lineOf("Because the mask"));
    REQUIRE(causal);
    CHECK(contains(causal->message, "playground.mask=causal (causal mask) (it says 'mask'"));

    const Diagnostic* token = warningAt(all, planted.lineOf("The middle token"));
    REQUIRE(token);
    CHECK(contains(token->message, "(it says 'blue'; the cell now gives token 2: "));

    // The claim tests whether √d is whole, never whether the scores are divided by it.
    const Diagnostic* scale = warningAt(all, planted.lineOf("Each score"));
    REQUIRE(scale);
    CHECK(contains(scale->message, "playground.scale=false (no scaling) (it says '√'"));

    // Three terms: a fourth token makes the sum false.
    const Diagnostic* sum = warningAt(all, planted.lineOf("The first row's"));
    REQUIRE(sum);
    CHECK(contains(sum->message, "(it says '0.3837'; the cell now gives "));

    const Diagnostic* count = warningAt(all, planted.lineOf("three tokens"));
    REQUIRE(count);
    CHECK(contains(count->message, "(it says 'three tokens'"));
}

TEST_CASE("a claim that fails with the what-if, or a general mark, quiets the sweep") {
    const Planted planted = plantInAttention(
        "With no mask here, every token reads every token.{{? playground.mask == \"none\"}}\n\n"
        "Each score is divided by √{{playground.d_k:0}}.{{? playground.divides_by_sqrt_dk}}\n\n"
        "The first row's shares are {{playground.head[0].weights[0][0]}} and more.<!-- general "
        "-->\n\n"
        "The middle token is *{{playground.tokens[1]}}*.<!-- general -->\n");
    const std::vector<Diagnostic> all = sweep(planted.text);
    for (const Diagnostic& d : all) {
        FAIL_CHECK(d.line << ": " << d.message);
    }
}

TEST_CASE("a claim that always holds guards nothing") {
    const Planted planted =
        plantInAttention("The first share is {{playground.head[0].weights[0][0]}}.{{? 1 == 1}}\n\n"
                         "The first share is {{playground.head[0].weights[0][0]}} "
                         "again.{{? playground.n > 0}}\n");
    const std::vector<Diagnostic> all = sweep(planted.text);
    CHECK(warningAt(all, planted.firstLine));
    CHECK(warningAt(all, planted.firstLine + 2));
}

TEST_CASE("the lint finds whole numbers and percentages that restate a result") {
    const Planted planted = plantInAttention(
        "```attention sums\ntokens: [a, b]\nvocab:\n  a: [2, 1]\n  b: [1, 3]\nscale: false\n```\n\n"
        "b scores {{sums.head[0].scores[1][0]:0}} against a and 10 against itself, in Part 2 of "
        "3 (a score of 5 is a's).\n\n"
        "Red gives 38% of its attention to itself in the playground, and 100% to all "
        "{{playground.n:0}} tokens.\n\n"
        "The score of b against itself is 10, but this paragraph binds no cell.\n");
    const Computed c = compute(planted.text);
    const std::vector<TypedNumber> sites = findTypedNumbers(c.lesson, c.results);
    REQUIRE(sites.size() == 3);
    CHECK(sites[0].line == planted.lineOf("b scores {{"));
    CHECK(sites[0].typed == "10");
    CHECK(sites[0].binding == "sums.head[0].scores[1][1]:0");
    CHECK(sites[1].typed == "5"); // a against a, and a against b (and b against a)
    CHECK(sites[1].binding == "sums.head[0].scores[0][0]:0");
    CHECK(sites[1].candidates.size() == 3);
    CHECK(sites[2].line == planted.lineOf("Red gives 38%"));
    CHECK(sites[2].column == 11);
    CHECK(sites[2].typed == "38");
    CHECK(sites[2].replacement() == "{{100 * playground.head[0].weights[0][0]:0}}");
    CHECK(sites[2].candidates.size() > 1); // red's share of itself, of the other red, …
}

// The what-ifs of every cell, each observed by the check.
void observeEveryWhatIf(const Computed& c, CoincidenceCheck& check) {
    AttentionEngine engine;
    forEachReaderWhatIf(c.lesson, c.results, engine,
                        [&](const SweepWhatIf& whatIf, const LessonResults& now) {
                            check.observe(now, whatIf.setting);
                        });
}

TEST_CASE("--fix declines the scale beside scores that vary") {
    // 0.5 is the scale here, and the author's "which gives 0.5" reads as a share worked out
    // from the scores: when the reader removes a token, the scores change and the scale not.
    const Planted planted = plantInAttention(
        "Red scores {{playground.head[0].scores[0]}} against the three tokens, which gives "
        "0.5.\n");
    const Computed c = compute(planted.text);
    const std::vector<TypedNumber> sites = findTypedNumbers(c.lesson, c.results);
    REQUIRE(sites.size() == 1);
    CHECK(sites[0].typed == "0.5");
    CHECK(sites[0].binding == "playground.scale:1");
    CoincidenceCheck check(c.results, sites);
    observeEveryWhatIf(c, check);
    CHECK(contains(check.why(0), "it equals playground.scale only by coincidence, it seems: "
                                 "when playground."));
    CHECK(contains(check.why(0), "{{playground.head[0].scores[0]}} beside it becomes "));
}

// Three tokens whose shares all differ; the reader may change their vectors.
const char* const kDistinct = "```attention distinct\ntokens: [a, b, c]\nvocab:\n"
                              "  a: [2, 0, 0, 0]\n  b: [0, 1, 0, 0]\n  c: [1, 1, 2, 0]\n"
                              "controls: [vectors]\n```\n\n";

TEST_CASE("--fix binds a number only one value shows") {
    const Computed probe = compute(kDistinct);
    const Json* share = probe.results.cell("distinct")->json.find("head")->at(0)->find("weights");
    const std::string typed = formatBoundValue(*share->at(0)->at(1), 4);
    const Computed c =
        compute(std::string(kDistinct) + "The first token gives " + typed + " to the second.\n");
    const std::vector<TypedNumber> sites = findTypedNumbers(c.lesson, c.results);
    REQUIRE(sites.size() == 1);
    CHECK(sites[0].binding == "distinct.head[0].weights[0][1]:4");
    CHECK(sites[0].candidates.size() == 1);
    CoincidenceCheck check(c.results, sites);
    observeEveryWhatIf(c, check);
    CHECK(check.why(0).empty());
}

TEST_CASE("--fix declines a constant beside numbers that vary") {
    // The scale, 0.5, is the same whatever the reader does to the tokens; the weight beside it
    // is not: the 0.5 is more likely a share the author worked out than the scale.
    const Computed c = compute(std::string(kDistinct) +
                               "The first weight is {{distinct.head[0].weights[0][0]}}, and "
                               "halving gives 0.5.\n");
    const std::vector<TypedNumber> sites = findTypedNumbers(c.lesson, c.results);
    REQUIRE(sites.size() == 1);
    CHECK(sites[0].binding == "distinct.scale:1");
    CoincidenceCheck check(c.results, sites);
    observeEveryWhatIf(c, check);
    CHECK(contains(check.why(0), "only by coincidence"));
}

TEST_CASE("--fix weighs only numbers of the chosen value's cell") {
    // The scale of `distinct` stays put while the playground's share beside it changes: the
    // playground's what-ifs say nothing about `distinct`.
    const Computed c = compute(std::string(kDistinct) +
                               "The playground gives {{playground.head[0].weights[0][0]}}, and "
                               "`distinct` scales by 0.5.\n\n" +
                               "```attention playground\ntokens: [red, blue]\nvocab:\n"
                               "  red: [1, 0]\n  blue: [0, 1]\ncontrols: [tokens]\n```\n");
    const std::vector<TypedNumber> sites = findTypedNumbers(c.lesson, c.results);
    REQUIRE(sites.size() == 1);
    CHECK(sites[0].binding == "distinct.scale:1");
    CoincidenceCheck check(c.results, sites);
    observeEveryWhatIf(c, check);
    CHECK(check.why(0).empty());
}

TEST_CASE("the sweep tries a transformer cell's views, which no key holds") {
    std::string lesson = shipped("transformer.md");
    const std::string anchor = "The rest of the lesson shows where those numbers come from.\n";
    const size_t at = lesson.find(anchor);
    REQUIRE(at != std::string::npos);
    lesson.insert(at + anchor.size(), "Every block normalizes its input with LayerNorm.\n");
    const int line = int(std::count(lesson.begin(), lesson.begin() + long(at), '\n')) + 2;
    const Computed c = compute(lesson, "transformer.md");

    const LessonCell* tiny = c.lesson.cell("tiny");
    REQUIRE(tiny);
    const std::vector<ReaderViewWhatIf> views = readerViewWhatIfs(*tiny);
    REQUIRE(views.size() == 1); // tiny's controls: norm and temperature
    CHECK(views[0].label == "norm off");

    AttentionEngine engine;
    const std::vector<Diagnostic> all = sweepReaderWhatIfs(c.lesson, c.results, engine).warnings;
    const Diagnostic* found = warningAt(all, line);
    REQUIRE(found);
    CHECK(views[0].setText() == "tiny.view.norm=off");
    CHECK(contains(found->message, "when tiny.view.norm=off (norm off) "
                                   "(it says 'LayerNorm'; the cell now gives norm off)"));
}

TEST_CASE("the sweep reads a quiz's explanation, not its question") {
    const Planted planted = plantInAttention(
        "```quiz planted_quiz\nquestion: \"What share does red give {{playground.tokens[1]}}?\"\n"
        "answer: \"{{playground.head[0].weights[0][1]}}\"\nexplain: >-\n"
        "  The middle token is *blue*, and red gives it\n"
        "  {{playground.head[0].weights[0][1]:4}}.\n```\n");
    const std::vector<Diagnostic> all = sweep(planted.text);
    REQUIRE(all.size() == 1);
    CHECK(all[0].line == planted.lineOf("  The middle token"));
    CHECK(all[0].column == 3);
    // The first what-if that moves a token it names: the first red one, named in plain words.
    CHECK_MESSAGE(contains(all[0].message, "(it says 'red'"), all[0].message);
}

namespace {

// transformer.md with `text` after the paragraph that introduces its playground (whose
// controls open the prompt, the temperature and generation).
Planted plantInTransformer(const std::string& text) {
    std::string lesson = shipped("transformer.md");
    const std::string anchor =
        "try other seeds.<!-- general --> No sentence of this lesson depends on it.\n";
    const size_t at = lesson.find(anchor);
    REQUIRE(at != std::string::npos);
    lesson.insert(at + anchor.size(), "\n" + text);
    return {lesson, int(std::count(lesson.begin(), lesson.begin() + long(at), '\n')) + 3};
}

// Each planted sentence is false under some what-if a reader can make, in one of the four ways
// the sweep once missed. Every one must be reported, at its own line.
void checkEveryPlantedSentenceIsFound(const Planted& planted,
                                      const std::vector<std::string>& sentences,
                                      const std::string& path) {
    const Computed c = compute(planted.text, path);
    AttentionEngine engine;
    const std::vector<Diagnostic> all = sweepReaderWhatIfs(c.lesson, c.results, engine).warnings;
    for (const std::string& sentence : sentences) {
        CAPTURE(sentence);
        const Diagnostic* found = warningAt(all, planted.lineOf(sentence));
        CHECK_MESSAGE(found, "not reported: " << sentence);
    }
    // Nothing else: the lesson around them stays quiet.
    CHECK_EQ(all.size(), sentences.size());
}

// `name` with `text` right after the cell `cellId`, in that cell's section.
Planted plantAfterCell(const std::string& name, const std::string& cellId,
                       const std::string& text) {
    std::string lesson = shipped(name);
    const size_t open = lesson.find("```attention " + cellId + "\n");
    REQUIRE(open != std::string::npos);
    const size_t close = lesson.find("\n```\n", open);
    REQUIRE(close != std::string::npos);
    const size_t at = close + 5;
    lesson.insert(at, "\n" + text);
    return {lesson, int(std::count(lesson.begin(), lesson.begin() + long(at), '\n')) + 2};
}

std::string paragraphs(const std::vector<std::string>& sentences) {
    std::string text;
    for (const std::string& sentence : sentences) {
        text += sentence + "\n\n";
    }
    return text;
}

} // namespace

TEST_CASE("the sweep finds twenty planted sentences of the four kinds it once missed") {
    // Twelve in the attention lesson, after its playground (tokens red, blue, red; every control).
    const std::vector<std::string> attention = {
        // numbers and proportions in words
        "In the playground the first token keeps about 38% of its attention for itself.",
        "The first token gives {{playground.head[0].weights[0][1]:2}} to the second, three times "
        "as much as to the third.",
        "The first row's largest share is more than 0.3.",
        "The last token gives less than a third of its attention to the first.",
        // qualitative facts with no bound number
        "The playground's first and second token vectors are orthogonal.",
        "For the first token, the second token is the second pick.",
        "The middle token spreads its attention evenly.",
        // a token named in plain words
        "The middle token is blue, so it stands out.",
        "Each red token reads the others the same way.",
        // a bound number whose only claim guards something else
        "The first token gives {{playground.head[0].weights[0][0]:2}} to itself, more than to "
        "any other token.{{? playground.mask == \"none\"}}",
        "Its output starts with {{playground.output[0][0]:2}}, nearly twice the second "
        "entry.{{? playground.heads == 1}}",
        "The first token's largest share is {{playground.head[0].weights[0][0]:2}}.{{? "
        "playground.d_k == 4}}",
    };
    checkEveryPlantedSentenceIsFound(plantInAttention(paragraphs(attention)), attention,
                                     "attention.md");

    // Eight in the transformer lesson, after its playground (prompt "a dog"; tokens,
    // temperature, generation).
    const std::vector<std::string> transformer = {
        "After a dog the playground gives its top word less than half of the chance.",
        "At this temperature the top word's chance is about 0.3.",
        "The playground's top two words are almost equally likely.",
        "Its top word beats the second by only a hair.",
        "The prompt ends with dog, an animal.",
        "A dog is what the playground starts from.",
        "The playground's top word takes {{playground.next[0].prob:2}}, more than twice the "
        "third word's chance.{{? playground.n == 2}}",
        "Its top word takes {{playground.next[0].prob:2}} of the chance, less than a "
        "third.{{? playground.n == 2}}",
    };
    checkEveryPlantedSentenceIsFound(plantInTransformer(paragraphs(transformer)), transformer,
                                     "transformer.md");
}

TEST_CASE("the sweep finds planted sentences in the other three shipped lessons too") {
    struct Plant {
        const char* lesson;
        const char* cell;
        std::vector<std::string> sentences;
    };
    const Plant plants[] = {
        {"guide.md",
         "try",
         {"In the cell above, the first red token gives blue less than half of its attention.",
          "Here blue sits between two reds."}},
        {"transformers.md",
         "them_toy",
         {"In this toy, the pronoun gives keys more than 0.5 of its attention.",
          "The vectors of the two nouns are orthogonal."}},
        {"real-head.md",
         "head",
         {"In this head, slept looks back at its subject.",
          "The last row gives its largest share to the subject."}},
    };
    for (const Plant& plant : plants) {
        CAPTURE(plant.lesson);
        checkEveryPlantedSentenceIsFound(
            plantAfterCell(plant.lesson, plant.cell, paragraphs(plant.sentences)), plant.sentences,
            plant.lesson);
    }
}

TEST_CASE("a claim that reads the numbers guards words about them") {
    const std::vector<std::string> guarded = {
        "The first token gives {{playground.head[0].weights[0][0]:2}} to itself, more than to "
        "any other token.{{? playground.head[0].weights[0][0] > playground.head[0].weights[0][1]}}",
        "In the playground the first token keeps about {{100 * "
        "playground.head[0].weights[0][0]:0}}% of its attention for itself.<!-- general -->",
    };
    const Planted planted = plantInAttention(paragraphs(guarded));
    const std::vector<Diagnostic> all = sweep(planted.text);
    for (const Diagnostic& d : all) {
        FAIL_CHECK(d.line << ": " << d.message);
    }
}

// A 400-token cell made the sweep behind check --strict run 47 s (2010 what-ifs, each with its
// gradient check). The sweep is charged cell by cell before it runs (sweepWork), and a cell
// that would take it past --max-work is skipped with a warning that says so and why.
TEST_CASE("the sweep is charged before each cell's what-ifs, and skips what would pass the limit") {
    const std::string cell = "```attention a\ntokens: [red, blue, red]\nvocab:\n  red: [1, 0]\n"
                             "  blue: [0, 1]\nheads: 1\nmask: none\npositional: none\n```\n\n"
                             "Red gives {{a.head[0].weights[0][1]:4}} to blue, more than half.\n\n";
    std::string second = cell;
    second.replace(second.find("attention a"), 11, "attention b");
    second.replace(second.find("{{a."), 4, "{{b.");
    const std::string text = "# Two\n\n" + cell + second;
    const Computed c = compute(text, "two.md");
    const size_t whatIfs = readerWhatIfs(c.lesson.cells[0]).size();
    REQUIRE(whatIfs > 3);
    const size_t body = c.lesson.document.cells()[0]->body.size();
    const double one = sweepWork(c.lesson.cells[0], whatIfs, body, text.size());
    CHECK(one == doctest::Approx(sweepWork(c.lesson.cells[1], whatIfs, body, text.size())));
    // Each what-if reads the cell's body again: a larger body costs more.
    CHECK(sweepWork(c.lesson.cells[0], whatIfs, 100 * body, text.size()) > 10 * one);

    AttentionEngine engine;
    const SweepReport both = sweepReaderWhatIfs(c.lesson, c.results, engine);
    CHECK(both.whatIfs == 2 * whatIfs);

    const CostLimits before = costLimits();
    CostLimits room = before;
    room.maxMultiplyAdds = 1.5 * one; // the first cell's sweep, not both
    setCostLimits(room);
    const SweepReport first = sweepReaderWhatIfs(c.lesson, c.results, engine);
    setCostLimits(before);
    CHECK(first.whatIfs == whatIfs);
    const auto skip = std::find_if(first.warnings.begin(), first.warnings.end(),
                                   [](const Diagnostic& d) { return d.cellId == "b"; });
    REQUIRE(skip != first.warnings.end());
    CHECK(skip->line == c.lesson.cells[1].openLine);
    CHECK_MESSAGE(contains(skip->message, "the what-if sweep skips cell 'b': its " +
                                              std::to_string(whatIfs) +
                                              " what-ifs would take the sweep to about "),
                  skip->message);
    CHECK_MESSAGE(contains(skip->message, "multiply-adds (the limit is "), skip->message);
    CHECK_MESSAGE(contains(skip->message, "--max-work), so the sentences are not checked"),
                  skip->message);
}
