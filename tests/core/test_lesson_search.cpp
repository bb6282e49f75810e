// Find in the lesson without Qt (core/live/lesson_search): occurrences do not overlap,
// and the current hit starts where the reader is, wraps around, and keeps its place when the rows
// change under it. Case is folded by the window (Qt) before it searches.
#include "core/live/lesson_search.h"

#include "test_support.h"

#include <string>
#include <vector>

using namespace attnbook;

TEST_CASE("occurrences are counted without overlaps, on the texts as given") {
    CHECK_EQ(occurrences("aaaa", "aa"), 2);
    CHECK_EQ(occurrences("attention, attention and attention", "attention"), 3);
    CHECK_EQ(occurrences("über über", "über"), 2);
    // Case is the window's to fold (QString::toCaseFolded) before it searches.
    CHECK_EQ(occurrences("Über", "über"), 0);
    CHECK_EQ(occurrences("anything", ""), 0);
    CHECK_EQ(occurrences("", "x"), 0);
}

TEST_CASE("the current hit starts where the reader is and wraps around") {
    const std::vector<std::string> rows = {"red and red", "blue", "red", "green red"};
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
