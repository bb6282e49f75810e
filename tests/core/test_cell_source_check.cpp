// The YAML editor's check of a cell before Apply, without Qt (core/live/cell_source_check):
// the lesson is read with its own source of data files wherever attnbook was
// started; the cell's own problems come first, at their line within the body; an error the
// edit causes elsewhere is told, one the lesson has already is not.
#include "core/live/cell_source_check.h"

#include "core/document/data_files.h"
#include "core/document/document_edits.h"
#include "core/live/live_lesson.h"

#include "test_support.h"

#include <filesystem>
#include <optional>
#include <string>

using namespace attnbook;

namespace {

const std::string kDocuments = ATTNBOOK_SOURCE_DIR "/documents";

const char* kLesson =
    "# T\n\n```attention colour\ntokens: [a, b]\nvocab:\n  a: [1, 0]\n"
    "  b: [0, 1]\nheads: 1\n```\n\nThe share is {{colour.head[0].weights[0][1]:3}}."
    "\n\n```quiz q\nquestion: Why?\nanswer: 1\n```\n";

std::string bodyOf(const LiveLesson& live, const std::string& id) {
    const CellBlock* cell = live.working().findCell(id);
    REQUIRE(cell);
    return textForEditing(cell->body);
}

} // namespace

TEST_CASE("a cell that reads data files checks with the lesson's own files") {
    const std::optional<std::string> bytes = test::readFile(kDocuments + "/real-head.md");
    REQUIRE(bytes.has_value());
    test::TempDir elsewhere;
    test::WorkingDirectory cwd(elsewhere.path());
    LiveLesson live;
    live.openBeside(*bytes, kDocuments + "/real-head.md");
    REQUIRE_EQ(live.errorCount(), 0u);
    // Unchanged, its {file: PATH} values are found: no "no such file".
    CHECK(cellSourceProblems(live, "head", bodyOf(live, "head")).empty());
    // The same check with no source of files finds nothing to read (what it once did).
    const std::vector<Diagnostic> without =
        cellSourceProblems({live.working(), live.path(), noDataFiles(), live.problems()}, "head",
                           bodyOf(live, "head"));
    CHECK_FALSE(without.empty());
}

TEST_CASE("the cell's own problem comes first, at its line in the body") {
    LiveLesson live;
    live.open(parseLesson(kLesson, "t.md", noDataFiles()), "t.md");
    REQUIRE_EQ(live.errorCount(), 0u);
    const std::string body = bodyOf(live, "colour");
    CHECK(cellSourceProblems(live, "colour", body).empty());

    // heads: 3 at width 2 only the computation finds; it is on the body's fifth line.
    std::string wrong = body;
    wrong.replace(wrong.find("heads: 1"), 8, "heads: 3");
    const std::vector<Diagnostic> problems = cellSourceProblems(live, "colour", wrong);
    REQUIRE_FALSE(problems.empty());
    CHECK(problems.front().severity == Severity::Error);
    CHECK_EQ(lineInCellBody(live.working(), "colour", wrong, problems.front()), 4);

    // A body that is not YAML: the problem is in the cell.
    const std::vector<Diagnostic> broken = cellSourceProblems(live, "colour", "tokens: [a, b");
    REQUIRE_FALSE(broken.empty());
    CHECK_GE(lineInCellBody(live.working(), "colour", "tokens: [a, b", broken.front()), 0);

    const std::vector<Diagnostic> none = cellSourceProblems(live, "nope", "x: 1");
    REQUIRE_EQ(none.size(), 1u);
    CHECK_EQ(none.front().message, "there is no cell 'nope'");
    CHECK_EQ(lineInCellBody(live.working(), "nope", "x: 1", none.front()), -1);
}

TEST_CASE("an error the edit causes elsewhere is told; one the lesson has already is not") {
    LiveLesson live;
    live.open(parseLesson(kLesson, "t.md", noDataFiles()), "t.md");
    // One token left: the prose's binding to weights[0][1] no longer resolves.
    std::string body = bodyOf(live, "colour");
    body.replace(body.find("tokens: [a, b]"), 14, "tokens: [a]");
    const std::vector<Diagnostic> problems = cellSourceProblems(live, "colour", body);
    REQUIRE_FALSE(problems.empty());
    CHECK(problems.front().severity == Severity::Error);
    CHECK_NE(problems.front().cellId, "colour");
    CHECK_EQ(lineInCellBody(live.working(), "colour", body, problems.front()), -1);

    // The lesson already has that error: checking the quiz does not blame the quiz for it.
    LiveLesson broken;
    std::string bytes = kLesson;
    bytes.replace(bytes.find("tokens: [a, b]"), 14, "tokens: [a]");
    broken.open(parseLesson(bytes, "t.md", noDataFiles()), "t.md");
    REQUIRE_GT(broken.errorCount(), 0u);
    CHECK(cellSourceProblems(broken, "q", bodyOf(broken, "q")).empty());
}
