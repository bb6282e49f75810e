// A coding challenge's sample answer: which paragraph names one, and the
// text with its answers taken out for paper, code fences followed.
#include "core/document/sample_answers.h"

#include <doctest/doctest.h>

using namespace attnbook;

TEST_CASE("aShortParagraphNamesASampleAnswer") {
    CHECK(namesSampleAnswer("**Sample answer**"));
    CHECK(namesSampleAnswer("  Sample answers:  "));
    CHECK(namesSampleAnswer("*A sample answer (Python)*"));
    CHECK_FALSE(namesSampleAnswer("Read the sample answer after."));
    CHECK_FALSE(namesSampleAnswer("Try each one before reading its sample answer, then check."));
    CHECK_FALSE(namesSampleAnswer("Answer"));
    CHECK_FALSE(namesSampleAnswer(""));
}

TEST_CASE("answersAreTakenOutToTheNextHeading") {
    const std::string text = "## 1. Softmax\n"
                             "\n"
                             "Write it. Read the sample answer after.\n"
                             "\n"
                             "**Sample answer**\n"
                             "\n"
                             "```python\n"
                             "# not a heading\n"
                             "**Sample answer** in code\n"
                             "```\n"
                             "\n"
                             "After the code.\n"
                             "\n"
                             "## 2. Next\n"
                             "\n"
                             "Write more.\n"
                             "\n"
                             "Sample answer\n"
                             "\n"
                             "~~~\n"
                             "x = 1\n"
                             "~~~\n";
    const ProseWithoutAnswers taken = takeSampleAnswers(text);
    CHECK(taken.markdown == "## 1. Softmax\n\nWrite it. Read the sample answer after.\n\n"
                            "## 2. Next\n\nWrite more.\n\n");
    REQUIRE(taken.answers.size() == 2);
    CHECK(taken.answers[0].heading == "1. Softmax");
    CHECK(taken.answers[0].markdown ==
          "**Sample answer**\n\n```python\n# not a heading\n**Sample answer** in code\n```\n\n"
          "After the code.\n\n");
    CHECK(taken.answers[1].heading == "2. Next");
    CHECK(taken.answers[1].markdown == "Sample answer\n\n~~~\nx = 1\n~~~\n");

    // Nothing named: the text as it was, byte for byte.
    const ProseWithoutAnswers none = takeSampleAnswers("# Title\n\nText.\n");
    CHECK(none.markdown == "# Title\n\nText.\n");
    CHECK(none.answers.empty());
}
