// What every reader of a lesson is shown (core/present/presented_lesson.h): the title block,
// prose with bindings filled in and escaped and notes out, cells joined to their results with
// quizzes numbered, and the headings found by one rule.
#include "core/document/markdown_headings.h"
#include "core/present/presented_lesson.h"
#include "core/present/prose_rows.h"

#include "core/math/attention_engine.h"

#include "test_support.h"

using namespace attnbook;

namespace {

// A cell whose first token is written with Markdown's emphasis characters, two quizzes, a note
// that binds, a setext heading and a `#` line inside a code block.
const char* kLesson = R"(---
title: Shown
subtitle: What a reader sees
author: A. Teacher
date: 2026-12-05
---

Part one
========

```attention c
tokens: ["*cat*", dog]
vocab:
  "*cat*": [1, 0]
  dog: [0, 1]
```

The first token is {{c.tokens[0]}}.<!-- a note: {{c.tokens[1]}} --> It stays.

```python
# not a heading
```

## The *second* `part`

```quiz q1
question: How many tokens?
choices: ["1", "2"]
answer: 1
```

```quiz q2
question: And now?
choices: ["1", "2"]
answer: 1
```
)";

struct Shown {
    Lesson lesson;
    LessonResults results;
    PresentedLesson presented;
};

Shown present(const char* text) {
    Shown shown{parseLesson(text, "shown.md"), {}, {}};
    AttentionEngine engine;
    shown.results = computeLesson(shown.lesson, engine);
    shown.presented = presentLesson(shown.lesson, shown.results);
    return shown;
}

} // namespace

TEST_CASE("presentedLessonTitleBlock") {
    const Shown shown = present(kLesson);
    CHECK_EQ(shown.presented.title.title, "Shown");
    CHECK_EQ(shown.presented.title.subtitle, "What a reader sees");
    CHECK_EQ(shown.presented.title.byline, std::vector<std::string>{"A. Teacher", "2026-12-05"});
    CHECK(present("# Only a heading\n").presented.title.empty());
}

TEST_CASE("presentedProseBindsEscapesAndDropsNotes") {
    const Shown shown = present(kLesson);
    REQUIRE(shown.lesson.diagnostics.empty());
    const std::vector<PresentedPart>& parts = shown.presented.parts;
    // prose, cell, prose, quiz, prose (the blank line between the quizzes), quiz, and the end.
    REQUIRE(parts.size() >= 4);
    CHECK_FALSE(parts[0].isCell());
    REQUIRE(parts[1].isCell());
    CHECK_EQ(parts[1].cell().cell->id, "c");
    REQUIRE(parts[1].cell().computed != nullptr);
    CHECK_EQ(parts[1].cell().question, 0);
    const std::string& prose = parts[2].prose().markdown;
    // The token shows as written: its asterisks are escaped, not emphasis.
    CHECK_MESSAGE(prose.find("The first token is \\*cat\\*. It stays.") != std::string::npos,
                  prose);
    // The note, and the binding inside it, are gone.
    CHECK(prose.find("note") == std::string::npos);
    CHECK(prose.find("dog") == std::string::npos);
    CHECK_EQ(parts[2].prose().source,
             &std::get<ProseBlock>(shown.lesson.document.segments[2].block));
}

TEST_CASE("presentedQuizzesAreNumberedInOrder") {
    const Shown shown = present(kLesson);
    std::vector<std::pair<std::string, int>> quizzes;
    for (const PresentedPart& part : shown.presented.parts) {
        if (part.isCell() && part.cell().cell->quiz()) {
            quizzes.emplace_back(part.cell().cell->id, part.cell().question);
        }
    }
    CHECK_EQ(quizzes, std::vector<std::pair<std::string, int>>{{"q1", 1}, {"q2", 2}});
}

// A cell with errors keeps its place; it has no result to show (the renderers then show
// nothing for it, as the lesson's problems say why).
TEST_CASE("aCellThatDidNotReadHasNoResult") {
    const Shown shown = present("# Broken\n\n```attention bad\ntokens: [a\n```\n\nAfter.\n");
    REQUIRE_FALSE(shown.lesson.diagnostics.empty());
    REQUIRE_EQ(shown.presented.parts.size(), 3);
    REQUIRE(shown.presented.parts[1].isCell());
    const ComputedCell* computed = shown.presented.parts[1].cell().computed;
    CHECK((computed == nullptr || !computed->attention));
    CHECK_EQ(shown.presented.parts[2].prose().markdown, "\nAfter.\n");
}

TEST_CASE("headingsByOneRule") {
    // ATX and setext headings, markup and code spans as text, a `#` line in a code block none.
    const std::vector<MarkdownHeading> headings = markdownHeadings(
        "Part one\n========\n\n```\n# code\n```\n\n## The *second* `part`\n\n> ### Quoted\n");
    REQUIRE_EQ(headings.size(), 3);
    CHECK_EQ(headings[0].level, 1);
    CHECK_EQ(headings[0].text, "Part one");
    CHECK_EQ(headings[0].line, 1);
    CHECK_EQ(headings[1].level, 2);
    CHECK_EQ(headings[1].text, "The second part");
    CHECK_EQ(headings[1].line, 8);
    CHECK_EQ(headings[2].level, 3);
    CHECK_EQ(headings[2].text, "Quoted");
}

TEST_CASE("eachCellIsInTheSectionAboveIt") {
    const Shown shown = present(kLesson);
    const std::map<std::string, std::string> sections = sectionOfEachCell(shown.presented);
    CHECK_EQ(sections.at("c"), "Part one");
    CHECK_EQ(sections.at("q1"), "The second part");
    CHECK_EQ(sections.at("q2"), "The second part");
}

// The window cuts its prose at the same headings, titled the same way: a setext heading too,
// and no `#` line inside a code block or a comment.
TEST_CASE("theWindowCutsProseAtTheSameHeadings") {
    const ProseBlock block{10, "Intro.\n\nPart one\n========\n\nText.\n\n```\n# code\n```\n\n"
                               "<!--\n# hidden\n-->\n\n## The *second* `part`\n\nMore.\n"};
    const std::vector<LineRange> code{{17, 19}};
    const std::vector<ProsePieceRow> rows = splitProse(block, code);
    REQUIRE_EQ(rows.size(), 3);
    CHECK_EQ(rows[0].headingLevel, 0);
    CHECK_EQ(rows[1].firstLine, 12);
    CHECK_EQ(rows[1].headingLevel, 1);
    CHECK_EQ(rows[1].headingTitle, "Part one");
    CHECK_EQ(rows[2].firstLine, 25);
    CHECK_EQ(rows[2].headingLevel, 2);
    CHECK_EQ(rows[2].headingTitle, "The second part");
}
