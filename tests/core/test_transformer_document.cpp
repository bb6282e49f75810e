// documents/transformer.md (transformer.md, docs/lesson-format.md): the lesson checks clean and
// its main cell, which reads every weight of the tiny trained decoder from documents/data/tiny,
// gives the logits, chances and loss of reference.json; each of the lesson's claims about what a
// part of the model does fails once that part stops doing it; and the main cell's values typed
// by hand are found and bound. The transformer cell as a document reads it, on a small cell of
// its own, is in test_transformer_document_cell.cpp.
#include "core/document/cell_editor.h"
#include "core/document/lesson.h"
#include "core/document/typed_numbers.h"

#include "test_support.h"
#include "transformer_document_helpers.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>

using namespace attnbook;
using test::compute;
using test::Computed;
using test::describe;

namespace {

const std::string kLessonPath = ATTNBOOK_SOURCE_DIR "/documents/transformer.md";

// The largest |a − b| / max(1, |b|) over a matrix and the reference's rows.
double largestDifference(const arma::mat& got, const nlohmann::json& rows) {
    REQUIRE_EQ(got.n_rows, arma::uword(rows.size()));
    double worst = 0;
    for (arma::uword r = 0; r < got.n_rows; ++r) {
        REQUIRE_EQ(got.n_cols, arma::uword(rows[r].size()));
        for (arma::uword c = 0; c < got.n_cols; ++c) {
            const double expected = rows[r][c].get<double>();
            worst =
                std::max(worst, std::abs(got(r, c) - expected) / std::max(1.0, std::abs(expected)));
        }
    }
    return worst;
}

} // namespace

TEST_CASE("transformerLessonChecksClean") {
    const std::optional<std::string> bytes = test::readFile(kLessonPath);
    REQUIRE_MESSAGE(bytes, "cannot read documents/transformer.md");
    // The full path: the main cells read data/tiny/ beside the lesson.
    const Computed c = compute(parseLesson(*bytes, kLessonPath));
    CHECK_MESSAGE(c.problems.empty(), describe(c.problems)); // warnings too, as check --strict
    CHECK_EQ(c.lesson.title(), std::string("A transformer, taken apart"));
    for (const LessonCell& cell : c.lesson.cells) {
        const ComputedCell* computed = c.results.cell(cell.id);
        CHECK_MESSAGE((computed && computed->ok), cell.id);
    }
    CHECK_EQ(lessonDataFiles(c.lesson),
             (std::vector<std::string>{"data/tiny/model.safetensors", "data/tiny/vocab.txt"}));
    // The main cell: both blocks of the trained model, a loss, generation, a passing check.
    const ComputedCell* tiny = c.results.cell("tiny");
    REQUIRE((tiny && tiny->transformer));
    const TransformerResult& r = *tiny->transformer;
    CHECK_EQ(r.layersRun, 2);
    CHECK_EQ(r.V, 37);
    CHECK(r.loss.has_value());
    CHECK_EQ(r.generation.steps.size(), size_t(2));
    CHECK(r.gradcheck.maxRelError < 1e-6);
    // transformer.md's worked numbers: one layer of identity attention and nothing else.
    const ComputedCell* stream = c.results.cell("stream_small");
    REQUIRE((stream && stream->transformer));
    const arma::mat& X1 = stream->transformer->layers[0].resid2;
    const arma::mat expected = {{1.7673, 0.2327, 0, 0}, {0.5481, 1.4519, 0, 0}};
    CHECK(arma::abs(X1.rows(0, 1) - expected).max() < 5e-5);
}

TEST_CASE("transformerLessonMainCellMatchesTheReference") {
    const std::optional<std::string> reference =
        test::readFile(ATTNBOOK_SOURCE_DIR "/documents/data/tiny/reference.json");
    REQUIRE(reference);
    const nlohmann::json ref = nlohmann::json::parse(*reference);
    REQUIRE_EQ(ref.at("tokens"), nlohmann::json({"the", "cat", "sat"}));
    REQUIRE_EQ(ref.at("loss_targets"), nlohmann::json({"cat", "sat", "on"}));

    // The lesson's own main cell, its prompt and targets set to the reference's: every weight
    // is read exactly as the lesson reads it.
    Lesson lesson = parseLesson(test::readFile(kLessonPath).value_or(""), kLessonPath);
    CHECK(!setCellKey(lesson.document, "tiny", "tokens", "[the, cat, sat]"));
    CHECK(!setCellKey(lesson.document, "tiny", "targets", "[cat, sat, on]"));
    CHECK(!setCellKey(lesson.document, "tiny", "focus", "2"));
    const Computed c = compute(parseLesson(lesson.document.serialize(), kLessonPath));
    const ComputedCell* tiny = c.results.cell("tiny");
    REQUIRE_MESSAGE((tiny && tiny->transformer), describe(c.problems));
    const TransformerResult& r = *tiny->transformer;
    CHECK_EQ(r.tokens, (std::vector<std::string>{"the", "cat", "sat"}));
    const double logits = largestDifference(r.logits, ref.at("logits"));
    const double probs = largestDifference(r.probs, ref.at("probs"));
    CHECK_MESSAGE(logits <= 1e-12, "logits differ by " << logits);
    CHECK_MESSAGE(probs <= 1e-12, "chances differ by " << probs);
    REQUIRE(r.loss);
    CHECK(std::abs(*r.loss - ref.at("loss").get<double>()) <= 1e-12);
    // The most likely next word is the reference's.
    const nlohmann::json& last = ref.at("probs").back();
    const size_t best = size_t(std::max_element(last.begin(), last.end()) - last.begin());
    REQUIRE(!r.next.empty());
    REQUIRE(best < r.words.size());
    CHECK_EQ(r.next.front().word, r.words[best]);
}

namespace {

// The body of transformer.md's `tiny` cell with one part made to stop: an FFN given as `none`,
// or the columns of W_O that read a head (all of them for the whole attention) set to zero
// through `set:`, with b_O zero too for the whole attention. `part` is a knock-out's path:
// "head[1][0]", "attention[0]", "ffn[1]", "block[0]" (the attention and the FFN).
std::string tinyWithout(std::string lesson, const std::string& part) {
    const size_t open = lesson.find("```transformer tiny\n");
    REQUIRE(open != std::string::npos);
    const size_t close = lesson.find("\n```\n", open);
    std::string body = lesson.substr(open, close - open);
    const auto layerOf = [&](size_t from) { return part.substr(from, part.find(']') - from); };
    const auto zeroColumns = [&](const std::string& layer, int first, int end, bool bias) {
        const std::string ref = "tensor: layers." + layer + ".attn.W_O}";
        const size_t at = body.find(ref);
        REQUIRE(at != std::string::npos);
        std::string set;
        for (int r = 0; r < 16; ++r) {
            for (int c = first; c < end; ++c) {
                set += (set.empty() ? "" : ", ") + std::string("[") + std::to_string(r) + ", " +
                       std::to_string(c) + ", 0]";
            }
        }
        body.replace(at, ref.size(), "tensor: layers." + layer + ".attn.W_O, set: [" + set + "]}");
        if (bias) {
            const std::string biasRef = "tensor: layers." + layer + ".attn.b_O}";
            std::string zeros;
            for (int c = 0; c < 16; ++c) {
                zeros +=
                    (zeros.empty() ? "" : ", ") + std::string("[0, ") + std::to_string(c) + ", 0]";
            }
            const size_t b = body.find(biasRef);
            REQUIRE(b != std::string::npos);
            body.replace(b, biasRef.size(),
                         "tensor: layers." + layer + ".attn.b_O, set: [" + zeros + "]}");
        }
    };
    const auto noFfn = [&](const std::string& layer) {
        const size_t at = body.find(
            "      W_1: {file: data/tiny/model.safetensors, tensor: layers." + layer + ".ffn.W_1}");
        REQUIRE(at != std::string::npos);
        const size_t start = body.rfind("    ffn:\n", at);
        const size_t end =
            body.find("activation: gelu\n", at) + std::string("activation: gelu\n").size();
        body.replace(start, end - start, "    ffn: none\n");
    };
    if (part.rfind("head[", 0) == 0) {
        const std::string layer = layerOf(5);
        const int head = std::stoi(part.substr(part.rfind('[') + 1));
        zeroColumns(layer, head * 8, head * 8 + 8, false); // d_v = 8
    } else if (part.rfind("attention[", 0) == 0) {
        zeroColumns(layerOf(10), 0, 16, true);
    } else if (part.rfind("ffn[", 0) == 0) {
        noFfn(layerOf(4));
    } else {
        zeroColumns(layerOf(6), 0, 16, true);
        noFfn(layerOf(6));
    }
    lesson.replace(open, close - open, body);
    return lesson;
}

// The knock-out paths a claim reads: "head[1][0]", "ffn[0]", … once each.
std::vector<std::string> partsNamed(const std::string& expression) {
    std::vector<std::string> parts;
    const std::string marker = "tiny.knockout.";
    for (size_t at = expression.find(marker); at != std::string::npos;
         at = expression.find(marker, at + 1)) {
        const size_t from = at + marker.size();
        size_t end = expression.find(']', from) + 1;
        if (expression.compare(from, 5, "head[") == 0) {
            end = expression.find(']', end) + 1;
        }
        const std::string part = expression.substr(from, end - from);
        if (std::find(parts.begin(), parts.end(), part) == parts.end()) {
            parts.push_back(part);
        }
    }
    return parts;
}

} // namespace

// Every claim of transformer.md over knock-outs (the sentences that say what a part of the
// model does) holds for the lesson as written and fails once a part it names stops doing
// what the sentence says: that part's weights made to add nothing.
TEST_CASE("transformerRoleClaimsFailWhenThePartStops") {
    const std::optional<std::string> text = test::readFile(kLessonPath);
    REQUIRE(text);
    const Computed written = compute(parseLesson(*text, kLessonPath));
    std::vector<LessonClaim> roles;
    for (const LessonClaim& claim : lessonClaims(written.lesson, written.results)) {
        if (claim.expression.find("tiny.knockout.") != std::string::npos) {
            CHECK_MESSAGE(claim.verdict.holds, "line " << claim.line << ": " << claim.expression);
            roles.push_back(claim);
        }
    }
    REQUIRE(roles.size() >= 6);

    std::map<std::string, std::vector<LessonClaim>> stopped; // part → the claims then
    std::vector<LessonClaim> hotter;                         // the claims at temperature 2
    for (const LessonClaim& role : roles) {
        bool failed = false;
        for (const std::string& part : partsNamed(role.expression)) {
            if (!stopped.count(part)) {
                const Computed c = compute(parseLesson(tinyWithout(*text, part), kLessonPath));
                REQUIRE_MESSAGE(c.results.cell("tiny")->ok, part << ": " << describe(c.problems));
                stopped[part] = lessonClaims(c.lesson, c.results);
            }
            for (const LessonClaim& after : stopped[part]) {
                if (after.expression == role.expression && !after.verdict.holds) {
                    failed = true;
                }
            }
        }
        if (!failed) {
            // A sentence that a part is not needed ("without it the places still get 0.995")
            // holds however that part changes, since its knock-out never reads it: a reader's
            // what-if (temperature 2, the playground's control) must then make it fail.
            if (hotter.empty()) {
                std::string warm = *text;
                warm.insert(warm.find("\n", warm.find("```transformer tiny\n")) + 1,
                            "temperature: 2\n");
                const Computed c = compute(parseLesson(warm, kLessonPath));
                hotter = lessonClaims(c.lesson, c.results);
            }
            for (const LessonClaim& after : hotter) {
                failed = failed || (after.expression == role.expression && !after.verdict.holds);
            }
        }
        CHECK_MESSAGE(failed, "line " << role.line << " still holds when each part it names "
                                      << "stops and at temperature 2: " << role.expression);
    }
    MESSAGE(roles.size() << " claims over knock-outs; " << stopped.size() << " parts stopped");
}

// The hand-typed-number lint covers transformer cells: ten values of transformer.md's `tiny`
// typed into a paragraph about it (the loss, chances, the top-three total, a cache count, a
// knock-out's loss and chance, a residual row and a LayerNorm row) are each reported with the
// binding that shows them, and --fix writes those bindings and changes no other byte.
TEST_CASE("transformerTypedValuesAreFoundAndFixed") {
    const std::optional<std::string> text = test::readFile(kLessonPath);
    REQUIRE(text);
    const Computed written = compute(parseLesson(*text, kLessonPath));
    const std::vector<std::string> bindings = {
        "tiny.loss:4",
        "tiny.next[0].prob:4",
        "tiny.next[1].prob:4",
        "tiny.next[0].prob + tiny.next[1].prob + tiny.next[2].prob :4",
        "tiny.generation.steps[1].cost_full:0",
        "tiny.knockout.ffn[0].loss:4",
        "tiny.knockout.block[0].next[0].prob:4",
        "tiny.probs[2][16]:4",
        "tiny.layers[0].resid1[4]:2",
        "tiny.final_ln[4]:2",
    };
    std::string typed = "\nThe main cell, with its {{tiny.n:0}} tokens, gives";
    std::string bound = typed;
    for (size_t i = 0; i < bindings.size(); ++i) {
        std::string error;
        const std::optional<Binding> binding = parseBinding(bindings[i], error);
        REQUIRE_MESSAGE(binding, error);
        std::string shown = *written.results.boundText(*binding);
        for (size_t at = shown.find("−"); at != std::string::npos; at = shown.find("−")) {
            shown.replace(at, std::string("−").size(), "-"); // typed with the keyboard's minus
        }
        const std::string sep = i == 0 ? " " : "; ";
        typed += sep + shown;
        bound += sep + "{{" + bindings[i] + "}}";
    }
    typed += ".<!-- general -->\n";
    bound += ".<!-- general -->\n";
    const size_t part1 = text->find("# Part 1");
    REQUIRE(part1 != std::string::npos);
    std::string withTyped = *text, withBound = *text;
    withTyped.insert(part1, typed + "\n");
    withBound.insert(part1, bound + "\n");

    const Computed c = compute(parseLesson(withTyped, kLessonPath));
    const std::vector<TypedNumber> sites = findTypedNumbers(c.lesson, c.results);
    REQUIRE_MESSAGE(sites.size() == bindings.size(), [&] {
        std::string all;
        for (const TypedNumber& s : sites) {
            all += s.typed + " -> " + s.binding + "\n";
        }
        return all;
    }());
    for (size_t i = 0; i < sites.size(); ++i) {
        CHECK_EQ(sites[i].binding, bindings[i]);
    }
    const TypedNumberFix fix = fixTypedNumbers(withTyped, sites);
    CHECK(fix.refused.empty());
    CHECK(fix.bytes == withBound);
    const Computed after = compute(parseLesson(fix.bytes, kLessonPath));
    CHECK(findTypedNumbers(after.lesson, after.results).empty());
}
