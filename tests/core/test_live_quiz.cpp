// A quiz answered on the live web page (core/live/live_quiz.h, docs/web-page.md "Quizzes"):
// the verdict the WebAssembly module gives the page, for the lesson as it is and after a
// reader's what-if. The expected answers are worked out here from the attention formula and
// the quiz rules of docs/lesson-format.md, not read back from the engine.
#include "core/live/live_page.h"
#include "core/live/live_quiz.h"
#include "core/present/live_marks.h"

#include "test_support.h"

#include <cmath>

using namespace attnbook;

namespace {

// Two one-hot tokens and the identity projections (d = 2): red's score with itself is
// 1/√2, with blue 0, so red keeps e^(1/√2) / (e^(1/√2) + 1) = 0.669762 and gives blue
// 1 / (e^(1/√2) + 1) = 0.330238. With the causal mask red sees only itself: 1 and 0.
const char* kLesson = R"(# Quizzes

```attention c
tokens: [red, blue]
vocab:
  red: [1, 0]
  blue: [0, 1]
controls: [tokens, mask]
```

Red gives blue {{c.head[0].weights[0][1]:4}} of its attention.

```quiz q1
question: How much of its attention does red give blue?
choices:
  - "All of it."
  - "About {{c.head[0].weights[0][1]:2}} of it."
  - "None."
answer: 1
explain: "Blue's share is {{c.head[0].weights[0][1]:4}}.{{? c.head[0].weights[0][1] < 0.5}}"
```

```quiz q2
question: What share of its attention does red keep?
answer: "{{c.head[0].weights[0][0]}}"
tolerance: 0.001
explain: Its score with itself is the larger one.
```

```quiz q3
question: A quarter, as a decimal?
answer: 0.25
```

```quiz q4
question: Where does red look most?
answer: At itself.
```

```quiz q5
question: What share does red give blue?
answer: "{{c.head[0].weights[0][1]}}"
tolerance: 1%
```
)";

struct Asked {
    LivePageSession session;
    explicit Asked(const std::vector<std::string>& words)
        : session(parseLesson(kLesson, "quizzes.md")) {
        session.answer(words);
    }
    LiveQuizVerdict operator()(const std::string& quiz, const std::string& given) const {
        return liveQuizVerdict(session.lesson(), session.currentResults(), quiz, given);
    }
};

} // namespace

TEST_CASE("a choice quiz on the live page: right, wrong with the right choice's words, none") {
    const Asked ask({});
    const LiveQuizVerdict right = ask("q1", "1");
    CHECK_EQ(right.verdict, "right");
    CHECK_EQ(right.says, "Right.");
    CHECK_EQ(right.answer, "B: About 0.33 of it.");
    const LiveQuizVerdict wrong = ask("q1", "2");
    CHECK_EQ(wrong.verdict, "wrong");
    CHECK_EQ(wrong.says, "Not quite — the answer is B: About 0.33 of it.");
    CHECK_EQ(ask("q1", "").verdict, "unanswered");
    CHECK_EQ(ask("q1", "3").verdict, "unanswered"); // there is no D
    CHECK_EQ(ask("q1", "0.5").verdict, "unanswered");
}

TEST_CASE("a numeric quiz on the live page: within the tolerance, outside it, fractions, junk") {
    const Asked ask({});
    // q2: 0.669762, shown with 4 decimals, right within 0.001
    const LiveQuizVerdict near = ask("q2", " 0.67 ");
    CHECK_EQ(near.verdict, "right");
    CHECK_EQ(near.says, "Right — the answer is 0.6698.");
    CHECK_EQ(near.answer, "0.6698");
    CHECK_EQ(ask("q2", "0.6688").verdict, "right"); // 0.00096 away: still inside
    const LiveQuizVerdict far = ask("q2", "0.68");  // 0.0102 away
    CHECK_EQ(far.verdict, "wrong");
    CHECK_EQ(far.says, "Not quite — the answer is 0.6698.");
    CHECK_EQ(ask("q2", "2/3").verdict, "wrong"); // 0.6667: 0.0031 away
    // q3: 0.25 typed with 2 decimals, so right within 0.01 (docs/lesson-format.md)
    CHECK_EQ(ask("q3", "1/4").verdict, "right");
    CHECK_EQ(ask("q3", "0.259").verdict, "right");
    CHECK_EQ(ask("q3", "1/3").verdict, "wrong");
    CHECK_EQ(ask("q3", "1/4").answer, "0.25");
    const LiveQuizVerdict comma = ask("q3", "0,25");
    CHECK_EQ(comma.verdict, "not-a-number");
    CHECK_EQ(comma.says, "Not a number: use a point for decimals: 1.5, not 1,5.");
    const LiveQuizVerdict junk = ask("q3", "a quarter");
    CHECK_EQ(junk.verdict, "not-a-number");
    CHECK_EQ(junk.says, "Not a number: 'a quarter' is not a number.");
    CHECK_EQ(ask("q3", "1/0").says, "Not a number: '1/0' is not a number or a fraction like 1/2.");
    CHECK_EQ(ask("q3", "  ").verdict, "unanswered");
}

TEST_CASE("a bound quiz answer on the live page follows the reader's what-if") {
    // the causal mask: red keeps all of its attention
    const Asked causal({"c.mask=causal"});
    CHECK_EQ(causal("q2", "0.67").says, "Not quite — the answer is 1.");
    CHECK_EQ(causal("q2", "1").verdict, "right");
    CHECK_EQ(causal("q2", "0.9995").verdict, "right");
    CHECK_EQ(causal("q1", "0").says, "Not quite — the answer is B: About 0.00 of it.");
    // one token: it keeps everything
    const Asked alone({"c.tokens=[red]"});
    CHECK_EQ(alone("q2", "1").verdict, "right");
    const Asked back({});
    CHECK_EQ(back("q2", "0.67").verdict, "right");
}

TEST_CASE("an answer the what-if took away, a free-text quiz and a quiz that is not there") {
    // q5: 0.330238 within 1% (0.0033); with one token there is no blue to give anything to
    const Asked ask({});
    CHECK_EQ(ask("q5", "0.327").verdict, "right");
    CHECK_EQ(ask("q5", "0.326").verdict, "wrong");
    const Asked alone({"c.tokens=[red]"});
    const LiveQuizVerdict gone = alone("q5", "0.33");
    CHECK_EQ(gone.verdict, "unknown");
    CHECK(gone.says.starts_with("This question's answer cannot be computed for your what-if: "));
    CHECK_EQ(gone.answer, "—");
    CHECK_EQ(alone("q1", "1").answer, "B: About — of it.");
    const LiveQuizVerdict sample = ask("q4", "At blue, I think.");
    CHECK_EQ(sample.verdict, "sample");
    CHECK_EQ(sample.says, "Compare yours with the sample answer below.");
    CHECK_EQ(sample.answer, "At itself.");
    CHECK_EQ(ask("q4", "").verdict, "unanswered");
    CHECK_EQ(ask("q9", "1").verdict, "unknown");
    CHECK_EQ(ask("c", "1").verdict, "unknown"); // a cell, not a quiz
    const std::string json = liveQuizVerdictJson(sample).dump();
    for (const char* key : {"\"verdict\"", "\"says\"", "\"answer\""}) {
        CHECK_MESSAGE(json.find(key) != std::string::npos, key);
    }
}

TEST_CASE("the live page numbers a quiz's bound words after the prose's, and they follow") {
    LivePageSession session(parseLesson(kLesson, "quizzes.md"));
    const NumberedProse numbered = numberedProsePieces(session.lesson());
    REQUIRE_EQ(numbered.values.size(), 3u); // the prose's, q1's choice B, q1's explanation
    CHECK_EQ(numbered.values[1].binding->expression, "c.head[0].weights[0][1]");
    CHECK_EQ(numbered.values[1].binding->digits, 2);
    REQUIRE_EQ(numbered.claims.size(), 1u);
    CHECK_EQ(numbered.claims[0].line, 20); // the line of q1's `explain:`, as `compute` says
    CHECK_EQ(session.answer({}).values, std::vector<std::string>{"0.3302", "0.33", "0.3302"});
    const LivePage& causal = session.answer({"c.mask=causal"});
    CHECK_EQ(causal.values, std::vector<std::string>{"0.0000", "0.00", "0.0000"});
    CHECK_EQ(causal.falseClaims, std::vector<std::string>{""});
}
