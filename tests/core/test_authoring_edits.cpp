// An author's edits of the open lesson without Qt (core/live/authoring_edits): each
// gives the document's bytes after it with only its own change (a CRLF lesson keeps CRLF), a
// name for the undo history and the cell to show; a refused edit says why. The text goes
// through the editor's form (textForEditing) and back unchanged.
#include "core/live/authoring_edits.h"

#include "core/document/data_files.h"

#include "test_support.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

using namespace attnbook;

namespace {

const char* kLesson = "---\ntitle: T\n---\n\n# T\n\nIntro.\n\n```quiz q1\nquestion: One?\n"
                      "answer: 1\n```\n\nMiddle.\n\n```quiz q2\nquestion: Two?\nanswer: 2\n```\n\n"
                      "End.\n";

std::string withCrlf(const std::string& text) {
    return withLineEnds(text, "\r\n");
}

std::string templateBytes() {
    const std::optional<std::string> bytes =
        test::readFile(ATTNBOOK_SOURCE_DIR "/documents/template.md");
    REQUIRE(bytes.has_value());
    return *bytes;
}

void open(LiveLesson& live, const std::string& bytes) {
    live.open(parseLesson(bytes, "t.md", noDataFiles()), "t.md");
}

// The row of the prose piece holding `text`.
int rowWith(const LiveLesson& live, const std::string& text) {
    for (size_t row = 0; row < live.rows().size(); ++row) {
        const LessonRow& r = live.rows()[row];
        if (r.cellId.empty() && r.place.text.find(text) != std::string::npos) {
            return int(row);
        }
    }
    FAIL("no row holds " << text);
    return -1;
}

std::vector<std::string> cellIds(const std::string& bytes) {
    std::vector<std::string> ids;
    for (const LessonCell& cell : parseLesson(bytes, "t.md", noDataFiles()).cells) {
        ids.push_back(cell.id);
    }
    return ids;
}

} // namespace

TEST_CASE("a prose row is rewritten alone, with the document's line ends") {
    for (const std::string& bytes : {std::string(kLesson), withCrlf(kLesson)}) {
        LiveLesson live;
        open(live, bytes);
        const std::string le = live.working().lineEnding;
        const int row = rowWith(live, "Middle.");
        const RowPlace place = live.rowPlace(row);
        CHECK_EQ(textForEditing(place.text).find('\r'), std::string::npos);

        // The author changes the paragraph in the row's text as the editor shows it (the blank
        // lines around it included).
        std::string typed = textForEditing(place.text);
        typed.replace(typed.find("Middle."), 7, "Middle, longer.\nTwo lines.");
        const AuthoringEdit edit = AuthoringEdits(live.working()).setProse(row, place, typed);
        REQUIRE(edit.made());
        CHECK(edit.changes());
        CHECK_EQ(edit.name, "Edit prose");
        CHECK_EQ(edit.before, bytes);
        std::string expected = bytes;
        expected.replace(expected.find("Middle."), 7, "Middle, longer." + le + "Two lines.");
        CHECK_EQ(edit.after, expected);

        // The same text again changes nothing; a place that moved is refused.
        const AuthoringEdit same =
            AuthoringEdits(live.working()).setProse(row, place, textForEditing(place.text));
        CHECK(same.made());
        CHECK_FALSE(same.changes());
        RowPlace moved = place;
        moved.text = "Not there." + le;
        CHECK_NE(AuthoringEdits(live.working()).setProse(row, moved, "x").refused, "");
        CHECK_EQ(AuthoringEdits(live.working()).setProse(99, RowPlace{}, "x").refused,
                 "There is no prose at row 99.");
    }
}

TEST_CASE("a cell's YAML is replaced through the editor's form") {
    LiveLesson live;
    open(live, withCrlf(kLesson));
    const CellBlock* q1 = live.working().findCell("q1");
    REQUIRE(q1);
    // Shown without CR and without the final line end, written back as it was.
    const std::string shown = textForEditing(q1->body);
    CHECK_EQ(shown, "question: One?\nanswer: 1");
    CHECK_EQ(typedCellBody(shown, "\r\n"), q1->body);

    const AuthoringEdit edit =
        AuthoringEdits(live.working()).setCellSource("q1", "question: Ten?\nanswer: 10");
    REQUIRE(edit.made());
    CHECK_EQ(edit.name, "Edit q1");
    CHECK_EQ(edit.showCellId, "q1");
    std::string expected = withCrlf(kLesson);
    const std::string old = "question: One?\r\nanswer: 1\r\n";
    expected.replace(expected.find(old), old.size(), "question: Ten?\r\nanswer: 10\r\n");
    CHECK_EQ(edit.after, expected);
    CHECK_EQ(AuthoringEdits(live.working()).setCellSource("nope", "x: 1").refused,
             "There is no cell nope.");
}

TEST_CASE("a new cell comes from the template, its quiz bound to the attention cell above") {
    const std::string lesson = std::string(kLesson) +
                               "\n```attention colour\ntokens: [a, b]\nvocab:\n  a: [1, 0]\n"
                               "  b: [0, 1]\n```\n\nAfter.\n";
    LiveLesson live;
    open(live, lesson);
    REQUIRE_EQ(live.errorCount(), 0u);
    const int below = rowWith(live, "After.");
    const AuthoringEdit quiz =
        AuthoringEdits(live.working())
            .insertBelow(below, live.rowPlace(below), "quiz", templateBytes());
    REQUIRE(quiz.made());
    CHECK_EQ(quiz.name, "Insert quiz1");
    CHECK_EQ(quiz.showCellId, "quiz1");
    LiveLesson after;
    open(after, quiz.after);
    const CellBlock* cell = after.working().findCell("quiz1");
    REQUIRE(cell);
    CHECK_NE(cell->body.find("{{colour.head[0]"), std::string::npos);
    CHECK_EQ(cell->body.find("{{example."), std::string::npos);
    CHECK_EQ(after.errorCount(), 0u);

    // With no attention cell to bind to, the answer is a number to replace.
    CHECK_NE(newCellBody(templateBytes(), "quiz", "").find("answer: 0.5"), std::string::npos);
    CHECK_NE(newCellBody(templateBytes(), "chart", "").find("series:"), std::string::npos);

    // At the top, prose; an unknown kind is refused.
    const AuthoringEdit prose =
        AuthoringEdits(live.working()).insertBelow(-1, RowPlace{}, "prose", templateBytes());
    REQUIRE(prose.made());
    CHECK_NE(prose.after.find("New paragraph."), std::string::npos);
    CHECK_LT(prose.after.find("New paragraph."), prose.after.find("# T"));
    CHECK_EQ(AuthoringEdits(live.working())
                 .insertBelow(-1, RowPlace{}, "table", templateBytes())
                 .refused,
             "Cannot insert a table cell.");
}

TEST_CASE("Insert offers a transformer cell: a one-layer model that computes as it is") {
    LiveLesson live;
    open(live, std::string(kLesson) + "\nAfter.\n");
    const int below = rowWith(live, "After.");
    const AuthoringEdit inserted =
        AuthoringEdits(live.working())
            .insertBelow(below, live.rowPlace(below), "transformer", templateBytes());
    REQUIRE(inserted.made());
    CHECK_EQ(inserted.name, "Insert transformer1");
    LiveLesson after;
    open(after, inserted.after);
    const CellBlock* cell = after.working().findCell("transformer1");
    REQUIRE(cell);
    CHECK(cell->kind == CellKind::Transformer);
    CHECK_EQ(after.errorCount(), 0u);

    // Below it, a second one uses its model with its prompt (docs/transformer.md).
    const auto cellRow =
        std::find_if(after.rows().begin(), after.rows().end(),
                     [](const LessonRow& r) { return r.cellId == "transformer1"; });
    REQUIRE(cellRow != after.rows().end());
    const int below2 = int(cellRow - after.rows().begin());
    const AuthoringEdit second =
        AuthoringEdits(after.working())
            .insertBelow(below2, after.rowPlace(below2), "transformer", templateBytes());
    REQUIRE(second.made());
    LiveLesson both;
    open(both, second.after);
    const CellBlock* named = both.working().findCell("transformer2");
    REQUIRE(named);
    CHECK_EQ(named->body, "model: transformer1\ntokens: [red, blue, red]\n"
                          "positional: sinusoidal\nviews: [stream, next]\n");
    CHECK_EQ(both.errorCount(), 0u);
}

TEST_CASE("cells are duplicated, moved, renamed and deleted by id") {
    LiveLesson live;
    open(live, kLesson);
    const AuthoringEdits edits(live.working());

    const AuthoringEdit copy = edits.duplicate("q2");
    REQUIRE(copy.made());
    CHECK_EQ(copy.name, "Duplicate q2");
    CHECK_EQ(copy.showCellId, "q3"); // the stem without its number, the first free one
    CHECK_EQ(cellIds(copy.after), (std::vector<std::string>{"q1", "q2", "q3"}));

    // Up past the paragraph above it; the blank lines between stay where they were.
    const AuthoringEdit up = edits.move("q2", -1);
    CHECK_EQ(up.name, "Move q2 up");
    CHECK_EQ(up.showCellId, "q2");
    CHECK_LT(up.after.find("```quiz q2"), up.after.find("Middle."));
    CHECK_EQ(cellIds(edits.move("q1", 1).after), (std::vector<std::string>{"q1", "q2"}));
    CHECK_EQ(edits.move("q9", 1).refused, "there is no cell 'q9'");

    const AuthoringEdit renamed = edits.rename("q1", "first");
    CHECK_EQ(renamed.name, "Rename q1 to first");
    CHECK_EQ(renamed.showCellId, "first");
    CHECK_EQ(cellIds(renamed.after), (std::vector<std::string>{"first", "q2"}));

    const AuthoringEdit gone = edits.remove("q1");
    CHECK_EQ(gone.name, "Delete q1");
    CHECK_EQ(cellIds(gone.after), (std::vector<std::string>{"q2"}));
    CHECK_EQ(edits.remove("q9").refused, "there is no cell 'q9'");
    CHECK_EQ(live.working().serialize(), kLesson); // the edits changed copies only
}

TEST_CASE("binding paths come from the results, those the filter keeps, at most the limit") {
    const std::optional<std::string> bytes =
        test::readFile(ATTNBOOK_SOURCE_DIR "/documents/template.md");
    REQUIRE(bytes.has_value());
    LiveLesson live;
    open(live, *bytes);
    const auto any = [](const std::string&) { return true; };
    const std::vector<std::string> all = bindingPaths(live.results(), any, 100000);
    const std::vector<std::string> weights = bindingPaths(
        live.results(),
        [](const std::string& path) { return path.find("weights[0][1]") != std::string::npos; },
        100);
    CHECK_GT(all.size(), weights.size());
    REQUIRE_FALSE(weights.empty());
    for (const std::string& path : weights) {
        CHECK_NE(path.find("weights[0][1]"), std::string::npos);
    }
    CHECK(std::find(weights.begin(), weights.end(), "example.head[0].weights[0][1]") !=
          weights.end());
    CHECK_EQ(bindingPaths(live.results(), any, 3).size(), 3u);
}
