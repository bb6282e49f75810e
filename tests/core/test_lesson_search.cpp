// Find in the lesson without Qt (core/live/lesson_search, issue 24): case is ignored in every
// script a lesson is written in, occurrences do not overlap, and the current hit starts where
// the reader is, wraps around, and keeps its place when the rows change under it.
#include "core/live/lesson_search.h"

#include "test_support.h"

#include <string>
#include <vector>

using namespace attnbook;

TEST_CASE("case is folded in Latin, Greek and Cyrillic, and nothing else is") {
    CHECK(foldedText("ÉCOLE Ÿ ĀŹ") == foldedText("école ÿ āź"));
    CHECK(foldedText("ΣΟΦΙΑ") == foldedText("σοφια"));
    CHECK(foldedText("ς") == foldedText("σ"));
    CHECK(foldedText("ДОМ Ёж") == foldedText("дом ёж"));
    CHECK(foldedText("a") != foldedText("b"));
    CHECK(foldedText("×") != foldedText("÷"));
    CHECK(foldedText("é").size() == 1); // one code point, not two bytes
    // A byte that is not UTF-8 stays itself, and is not a letter.
    CHECK(foldedText("\xFF") != foldedText("\xFE"));
    CHECK(foldedText("\xC3") != foldedText("\xC3\xA9"));
}

TEST_CASE("occurrences are counted without overlaps, case ignored") {
    CHECK_EQ(occurrences("aaaa", "aa"), 2);
    CHECK_EQ(occurrences("Attention, ATTENTION and attention", "attention"), 3);
    CHECK_EQ(occurrences("Über über", "ÜBER"), 2);
    CHECK_EQ(occurrences("anything", ""), 0);
    CHECK_EQ(occurrences("", "x"), 0);
}

TEST_CASE("the current hit starts where the reader is and wraps around") {
    const std::vector<std::string> rows = {"Red and red", "blue", "RED", "green red"};
    LessonFind find;
    CHECK_EQ(find.status(), "");
    find.find(rows, "red", 2);
    CHECK_EQ(find.hits().size(), 4u);
    CHECK(find.hits()[1] == LessonFind::Hit{0, 1});
    CHECK(find.currentHit() == LessonFind::Hit{2, 0});
    CHECK_EQ(find.status(), "3 of 4");
    find.next();
    find.next();
    CHECK(find.currentHit() == LessonFind::Hit{0, 0}); // wrapped
    find.previous();
    CHECK(find.currentHit() == LessonFind::Hit{3, 0});

    // Past the last hit's row: the first.
    find.find(rows, "blue", 3);
    CHECK(find.currentHit() == LessonFind::Hit{1, 0});

    find.find(rows, "purple", 0);
    CHECK_EQ(find.current(), -1);
    CHECK(find.currentHit() == LessonFind::Hit{-1, -1});
    CHECK_EQ(find.status(), "no match");
    find.next(); // nothing to move to
    CHECK_EQ(find.current(), -1);

    find.clear();
    CHECK_EQ(find.status(), "");
    CHECK(find.hits().empty());
}

TEST_CASE("a refresh keeps the current hit's place") {
    LessonFind find;
    find.find({"red", "red red", "red"}, "red", 1);
    find.next(); // row 1, its second occurrence
    REQUIRE(find.currentHit() == LessonFind::Hit{1, 1});
    // A what-if rewrote row 0: the same hit stays current.
    find.refresh({"red red red", "red red", "red"});
    CHECK(find.currentHit() == LessonFind::Hit{1, 1});
    // Its occurrence is gone: the first hit after its row.
    find.refresh({"red", "red", "blue red"});
    CHECK(find.currentHit() == LessonFind::Hit{2, 0});
    // Nothing typed: a refresh finds nothing.
    find.clear();
    find.refresh({"red"});
    CHECK(find.hits().empty());
}
