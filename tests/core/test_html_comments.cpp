// HTML comments are authors' notes: never shown to students.
#include "core/document/html_comments.h"

#include <doctest/doctest.h>

using namespace attnbook;

TEST_CASE("commentsAreRemovedWithTheirLines") {
    // The template's note: a block of its own, gone with its lines (the blank lines around it
    // stay, which Markdown reads as one).
    CHECK(withoutHtmlComments("# Title\n\n<!--\n  Replace the title.\n-->\n\nProse.\n") ==
          "# Title\n\n\nProse.\n");
    CHECK(withoutHtmlComments("a\n<!-- x -->\nb\n") == "a\nb\n");
    // Inside a sentence: only the comment goes.
    CHECK(withoutHtmlComments("Red <!-- (a note) -->attends to blue.\n") ==
          "Red attends to blue.\n");
    CHECK(withoutHtmlComments("  <!-- indented -->  \nnext\n") == "next\n");
    // Two on one line, and one at the very end without a line break.
    CHECK(withoutHtmlComments("a<!--1-->b<!--2-->c") == "abc");
    CHECK(withoutHtmlComments("text\n<!-- last -->") == "text\n");
    // Unclosed: to the end, as CommonMark reads it.
    CHECK(withoutHtmlComments("kept\n<!-- never closed\nhidden\n") == "kept\n");
}

TEST_CASE("codeKeepsItsCommentsAsText") {
    const std::string fenced = "```html\n<!-- shown -->\n```\nafter <!-- x -->\n";
    CHECK(withoutHtmlComments(fenced) == "```html\n<!-- shown -->\n```\nafter \n");
    const std::string tildes = "~~~~\n<!--\n~~~\n-->\n~~~~\n";
    CHECK(withoutHtmlComments(tildes) == tildes); // ~~~ is too short to close ~~~~
    CHECK(withoutHtmlComments("write `<!-- -->` for a note") == "write `<!-- -->` for a note");
    CHECK(withoutHtmlComments("``a ` <!-- b``<!--c-->") == "``a ` <!-- b``");
    // A lone backtick opens no span.
    CHECK(withoutHtmlComments("a ` b <!--c--> d") == "a ` b  d");
}

TEST_CASE("textWithoutCommentsIsUnchanged") {
    const std::string text = "# H\n\n- a -> b\n- <b>bold</b> <!- not a comment\n\n| x |\n|---|\n";
    CHECK(withoutHtmlComments(text) == text);
    CHECK(withoutHtmlComments("") == "");
}
