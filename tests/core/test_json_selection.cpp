// The part of a cell's JSON that some binding paths read (JsonSelection): every
// selected path resolves to the same value as in the whole JSON, or fails with the same
// message, and the tables no path reads are not built.
#include "core/document/bindings.h"
#include "core/document/result_json.h"
#include "core/math/attention_engine.h"

#include "test_support.h"

#include <string>
#include <vector>

using namespace attnbook;

namespace {

AttentionResult causalCell() {
    AttentionConfig c;
    c.tokens = {"a", "b", "c", "d"};
    c.X0 = {{1, 0, 2, 1}, {0, 1, 1, 0}, {1, 1, 0, 2}, {2, 0, 1, 1}};
    c.heads = 2;
    c.mask = MaskKind::Causal;
    c.padding = {false, false, true, false};
    c.wO.identity = false;
    c.wO.weights = arma::mat{{1, 0, 0, 1}, {0, 1, 1, 0}, {0.5, 0.5, 0, 0}};
    return AttentionEngine().compute(c);
}

BindingPath path(const std::string& text) {
    std::string error;
    const std::optional<BindingPath> parsed = parseBindingPath(text, error);
    if (!parsed) {
        FAIL(text << ": " << error);
    }
    return *parsed;
}

// The value (as text) or the error a path gives in `json`.
std::string resolved(const Json& json, const BindingPath& p) {
    std::string error;
    const Json* value = resolveBindingPath(json, p, error);
    return value ? "value " + value->dump() : "error " + error;
}

} // namespace

TEST_CASE("selected paths resolve as in the whole JSON") {
    const AttentionResult r = causalCell();
    const Json whole = attentionJson("c", r);
    const std::vector<std::string> paths = {
        "c.head[0].weights[1][0]", "c.head[1].scores[0][3]", "c.head[1].scores[2]",
        "c.head[0].context[3]", "c.output[2][1]", "c.X[0]", "c.Q", "c.n", "c.tokens[1]",
        "c.grad.X[1][0]", "c.grad.b_O", "c.gradcheck.max_rel_error", "c.warnings", "c.head[1]",
        "c.grad",
        // Paths that fail, with the whole JSON's message.
        "c.X[9]", "c.head[5].weights", "c.head[0].weights[0][9]", "c.foo", "c.head[0].bar",
        "c.head[1].weights[0].x", "c.output.rows"};
    for (const std::string& text : paths) {
        CAPTURE(text);
        JsonSelection only;
        only.add(path(text));
        const Json part = attentionJson("c", r, &only);
        CHECK_EQ(resolved(part, path(text)), resolved(whole, path(text)));
    }
    // Several paths in one selection.
    JsonSelection only;
    for (const std::string& text : paths) {
        only.add(path(text));
    }
    const Json part = attentionJson("c", r, &only);
    for (const std::string& text : paths) {
        CAPTURE(text);
        CHECK_EQ(resolved(part, path(text)), resolved(whole, path(text)));
    }
}

TEST_CASE("unselected tables are left out") {
    const AttentionResult r = causalCell();
    JsonSelection only;
    only.add(path("c.head[1].weights[2][0]"));
    const Json part = attentionJson("c", r, &only);
    CHECK(part.find("X") == nullptr);
    CHECK(part.find("Q") == nullptr);
    CHECK(part.find("grad") == nullptr);
    CHECK(part.find("output") == nullptr);
    CHECK(part.find("n"));
    CHECK(part.find("tokens"));
    CHECK(part.find("gradcheck"));
    const Json& heads = *part.find("head");
    CHECK_EQ(heads.array().size(), size_t(2));
    CHECK(heads.at(0)->find("weights") == nullptr); // a head no path reads
    const Json& weights = *heads.at(1)->find("weights");
    CHECK_EQ(weights.array().size(), size_t(4)); // every row is there, as null or whole
    CHECK(weights.at(0)->isNull());
    CHECK(weights.at(1)->isNull());
    CHECK(weights.at(3)->isNull());
    CHECK_EQ(weights.at(2)->array().size(), size_t(4));
    CHECK(heads.at(1)->find("scores") == nullptr);
    // Without a selection, the whole JSON as `compute` prints it.
    CHECK_EQ(attentionJson("c", r, nullptr).dump(), attentionJson("c", r).dump());
}
