// A quiz's words as every export shows them (core/present/bound_markdown.h): a binding becomes
// its value written as literal Markdown, a claim shows nothing, an author's note is left out,
// and a binding that does not resolve shows as written.
#include "core/present/bound_markdown.h"

#include "test_support.h"

using namespace attnbook;

TEST_CASE("boundMarkdownIsTheOneRuleForAQuizsWords") {
    const Lesson lesson = parseLesson("# Q\n\n```attention c\ntokens: ['*cat*', '[1]']\n"
                                      "vocab: {'*cat*': [1, 0], '[1]': [0, 1]}\n```\n",
                                      "q.md");
    REQUIRE(lesson.cell("c"));
    AttentionEngine engine;
    const LessonResults results = computeLesson(lesson, engine);
    REQUIRE(results.cell("c"));
    // The token shows as written, not as emphasis or a link; the note and the claim vanish.
    CHECK_EQ(
        boundMarkdown("Is {{c.tokens[0]}} first?<!-- check the order -->{{? c.n == 2}}", results),
        "Is \\*cat\\* first?");
    CHECK_EQ(boundMarkdown("Then {{c.tokens[1]}}.", results), "Then \\[1\\].");
    CHECK_EQ(boundMarkdown("{{c.head[0].weights[0][0]:2}} of it", results), "0.67 of it");
    CHECK_EQ(boundMarkdown("Nothing {{c.nothing}} here", results), "Nothing {{c.nothing}} here");
}
