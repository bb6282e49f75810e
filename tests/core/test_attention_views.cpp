// What an attention cell's views read of its result, built without Qt
// (core/present/attention_views.h): the focus row's steps and shares, single entries that are 0
// outside the result, the warnings and the gradient check in words, padding flags, the
// gradients a mode has, and the range of Compare's scale.
#include "core/document/cell_specs.h"
#include "core/document/lesson.h"
#include "core/document/matrix_names.h"
#include "core/math/shares_shown.h"
#include "core/present/attention_views.h"
#include "core/present/view_titles.h"

#include "test_support.h"

#include <algorithm>
#include <numeric>
#include <string>
#include <tuple>

using namespace attnbook;

TEST_CASE("the focus row's shares are its head's weights, and none for a head it lacks") {
    const auto r = test::attentionOfDistinctTokens(5, "heads: 2\n");
    REQUIRE(r->h == 2);
    for (int head = 0; head < r->h; ++head) {
        const std::vector<double> shares = focusShareValues(*r, head, 3);
        REQUIRE(shares.size() == size_t(r->m));
        for (int key = 0; key < r->m; ++key) {
            CHECK(shares[size_t(key)] == r->head[size_t(head)].weight(3, arma::uword(key)));
            CHECK(weightAt(*r, head, 3, key) == shares[size_t(key)]);
        }
        CHECK(std::accumulate(shares.begin(), shares.end(), 0.0) == test::fuzzy(1.0));
    }
    CHECK(focusShareValues(*r, -1, 3).empty());
    CHECK(focusShareValues(*r, r->h, 3).empty());
}

TEST_CASE("one weight or output entry outside the result is 0") {
    const auto r = test::attentionOfDistinctTokens(4);
    for (const auto& [head, row, column] :
         {std::tuple{-1, 0, 0}, std::tuple{r->h, 0, 0}, std::tuple{0, -1, 0},
          std::tuple{0, r->n, 0}, std::tuple{0, 0, -1}, std::tuple{0, 0, r->m}}) {
        CHECK(weightAt(*r, head, row, column) == 0.0);
    }
    const arma::uword rows = r->output.n_rows, columns = r->output.n_cols;
    REQUIRE(rows > 0);
    REQUIRE(columns > 0);
    CHECK(outputEntry(*r, int(rows) - 1, int(columns) - 1) == r->output(rows - 1, columns - 1));
    CHECK(outputEntry(*r, 0, 0) == r->output(0, 0));
    CHECK(outputEntry(*r, int(rows), 0) == 0.0);
    CHECK(outputEntry(*r, 0, int(columns)) == 0.0);
    CHECK(outputEntry(*r, -1, 0) == 0.0);
}

TEST_CASE("the worked arithmetic and trace are the focus row's, and none for a head it lacks") {
    const auto r = test::attentionOfDistinctTokens(4, "heads: 2\n");
    const std::vector<WorkedSection> worked = focusArithmetic(*r, 1, 2, 3);
    const std::vector<WorkedSection> expected = workedArithmetic(*r, 1, 2, 3);
    REQUIRE(worked.size() == expected.size());
    REQUIRE_FALSE(worked.empty());
    for (size_t i = 0; i < worked.size(); ++i) {
        CHECK(worked[i].title == expected[i].title);
        CHECK(worked[i].lines == expected[i].lines);
    }
    const std::vector<TraceStep> steps = focusTrace(*r, 0, 1, 4);
    REQUIRE(steps.size() == traceSteps(*r, 0, 1, 4).size());
    CHECK(steps.front().lines == traceSteps(*r, 0, 1, 4).front().lines);
    CHECK(focusArithmetic(*r, 2, 0, 4).empty());
    CHECK(focusTrace(*r, -1, 0, 4).empty());
}

TEST_CASE("the warnings' messages, in order") {
    AttentionResult r;
    r.warnings.push_back({"blocked-row", 0, 1, "row 1 sees no key"});
    r.warnings.push_back({"other", 1, 0, "a second warning"});
    CHECK(warningMessages(r) == std::vector<std::string>{"row 1 sees no key", "a second warning"});
    CHECK(warningMessages(AttentionResult{}).empty());
}

TEST_CASE("the gradient check in one line: its sentences, one space apart") {
    const GradientCheckReport check;
    const std::vector<std::string> sentences = gradientCheckSentences(check, true);
    REQUIRE_FALSE(sentences.empty());
    const std::string line = gradientCheckOneLine(check);
    size_t at = 0;
    for (const std::string& sentence : sentences) {
        CHECK(line.compare(at, sentence.size(), sentence) == 0);
        at += sentence.size() + 1;
    }
    CHECK(line.size() + 1 == at);
}

TEST_CASE("padding flags: one per key, keys past the flags are not padding") {
    AttentionConfig config;
    CHECK(paddedKeys(config, 3) == std::vector<bool>{false, false, false});
    config.padding = {false, true};
    CHECK(paddedKeys(config, 4) == std::vector<bool>{false, true, false, false});
    CHECK(paddedKeys(config, 1) == std::vector<bool>{false});
}

TEST_CASE("the gradients of a mode: its parameters', never the token vectors'") {
    for (const bool direct : {false, true}) {
        CAPTURE(direct);
        AttentionConfig config;
        config.direct = direct;
        const std::vector<std::string> names = parameterGradientNames(config);
        size_t expected = 0;
        for (const InputMatrixName& entry : inputMatrixNames()) {
            const bool listed =
                std::find(names.begin(), names.end(), entry.gradientName) != names.end();
            const bool parameter =
                entry.existsIn(config) && entry.role != InputMatrixName::Role::Tokens;
            CHECK(listed == parameter);
            expected += parameter ? 1 : 0;
        }
        CHECK(names.size() == expected);
        CHECK_FALSE(names.empty());
    }
}

TEST_CASE("Compare's range: the largest share change, 0 when the cells cannot be compared") {
    const auto authored = test::attentionOfDistinctTokens(5);
    const auto edited = test::attentionOfDistinctTokens(5, "", 2);
    CHECK(shareChangeRange(*authored, *authored) == 0.0);
    const double range = shareChangeRange(*authored, *edited);
    CHECK(range > 0.0);
    CHECK(range == largestShareChange(*edited, *authored));
    CHECK(shareChangeRange(*authored, *test::attentionOfDistinctTokens(6)) ==
          0.0); // a token more: no compare
}

// Every view a cell may ask for has a name in the one table the window and the paper read.
TEST_CASE("everyViewHasATitleInTheOneTable") {
    for (const std::string& view : transformerViewNames()) { // the attention views' included
        CAPTURE(view);
        CHECK_NE(viewTitle(view), view);
    }
    CHECK_EQ(viewTitle("heatmap"), "Heatmap of the shares");
    CHECK_EQ(viewTitle("no such view"), "no such view");
}
