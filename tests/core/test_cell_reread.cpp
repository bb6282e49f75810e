// The what-if sweep reads one edited cell again instead of the whole lesson
// (core/document/cell_reread.h): each what-if a reader can make, read that way and computed,
// must give the same cell as the whole lesson read again from the edited text.
#include "core/document/cell_editor.h"
#include "core/document/cell_reread.h"
#include "core/document/lesson.h"
#include "core/live/reader_what_ifs.h"

#include "test_support.h"

using namespace attnbook;

namespace {

// The cell `id` of `lesson`, computed alone from `cell`, as its JSON text ("" when it fails).
std::string computedAlone(const Lesson& lesson, const LessonResults& results, LessonCell cell) {
    Lesson alone;
    alone.files = lesson.files;
    if (const TransformerCellSpec* spec = cell.transformer(); spec && spec->sharedModel) {
        alone.cells.push_back(*lesson.cell(spec->sharedModel->cell));
    }
    const std::string id = cell.id;
    alone.cells.push_back(std::move(cell));
    ComputePolicy policy;
    policy.reuse = [&](const LessonCell& other) {
        return other.id == id ? nullptr : results.cell(other.id);
    };
    AttentionEngine engine;
    const LessonResults now = computeLesson(alone, engine, policy);
    const ComputedCell* computed = now.cell(id);
    return computed && computed->ok ? computed->json.dump() : "";
}

std::string computedWhole(const Lesson& edited, const std::string& id) {
    AttentionEngine engine;
    const LessonResults now = computeLesson(edited, engine);
    const ComputedCell* computed = now.cell(id);
    return computed && computed->ok ? computed->json.dump() : "";
}

// Where a cell read each key, value and entry, as text to compare.
std::string positionsText(const ValuePositions& positions) {
    std::string out;
    const auto at = [&](const FilePosition& p) {
        out += std::to_string(p.line) + ":" + std::to_string(p.column) + " ";
    };
    for (const auto* map : {&positions.keys, &positions.values}) {
        for (const auto& [key, p] : *map) {
            out += key + "@";
            at(p);
        }
    }
    for (const auto& [key, rows] : positions.elements) {
        out += key + "@";
        for (const auto& row : rows) {
            for (const FilePosition& p : row) {
                at(p);
            }
        }
    }
    return out;
}

// Every what-if of every cell (at most `perCell` of each), both ways.
void compareBothWays(const std::string& name, size_t perCell, size_t atLeast) {
    const std::string path = std::string(ATTNBOOK_SOURCE_DIR "/documents/") + name;
    const auto bytes = test::readFile(path);
    REQUIRE(bytes);
    const Lesson lesson = parseLesson(*bytes, path);
    AttentionEngine engine;
    const LessonResults results = computeLesson(lesson, engine);
    REQUIRE_FALSE(hasErrors(results.diagnostics));
    const CellRereader rereader(lesson);
    size_t compared = 0;
    for (const LessonCell& cell : lesson.cells) {
        const std::vector<ReaderWhatIf> whatIfs = readerWhatIfs(cell);
        for (size_t i = 0; i < whatIfs.size() && i < perCell; ++i) {
            Document document = lesson.document;
            bool applied = true;
            std::vector<KeySet> keys;
            for (const auto& [key, yaml] : whatIfs[i].keys) {
                applied = applied && !setCellKey(document, cell.id, key, yaml);
                keys.push_back({key, yaml});
            }
            REQUIRE(applied);
            const Lesson whole = parseLesson(document.serialize(), path, lesson.files);
            INFO(name << ": " << whatIfs[i].setText(0));
            std::vector<Diagnostic> expected;
            std::copy_if(whole.diagnostics.begin(), whole.diagnostics.end(),
                         std::back_inserter(expected),
                         [&](const Diagnostic& d) { return d.cellId == cell.id; });
            const std::string wholeJson = computedWhole(whole, cell.id);
            // read from the edited text alone, and from the lesson's parsed body and the keys
            for (const std::vector<KeySet>& known : {std::vector<KeySet>{}, keys}) {
                std::vector<Diagnostic> problems;
                std::optional<LessonCell> reread =
                    rereader.reread(document, cell.id, problems, known);
                REQUIRE(reread);
                REQUIRE(problems.size() == expected.size());
                for (size_t p = 0; p < problems.size(); ++p) {
                    CHECK(problems[p].line == expected[p].line);
                    CHECK(problems[p].column == expected[p].column);
                    CHECK(problems[p].message == expected[p].message);
                }
                CHECK(positionsText(reread->read().positions) ==
                      positionsText(whole.cell(cell.id)->read().positions));
                CHECK(computedAlone(lesson, results, std::move(*reread)) == wholeJson);
            }
            ++compared;
        }
    }
    CHECK(compared >= atLeast);
}

} // namespace

TEST_CASE("a what-if's cell read alone computes as the whole lesson read again") {
    compareBothWays("guide.md", 1000, 10);
    compareBothWays("attention.md", 1000, 30);
    compareBothWays("real-head.md", 1000, 5);
    // The transformer lesson's cells name a shared model; a few what-ifs of each keep it quick.
    compareBothWays("transformer.md", 3, 5);
}

TEST_CASE("a cell that names a model below it or none is read as parseLesson reads it") {
    const std::string text = "# T\n\n```transformer low\nmodel: high\ntokens: [a]\n```\n";
    const Lesson lesson = parseLesson(text, "t.md");
    const CellRereader rereader(lesson);
    std::vector<Diagnostic> problems;
    const std::optional<LessonCell> cell = rereader.reread(lesson.document, "low", problems);
    REQUIRE(cell);
    CHECK_FALSE(cell->read().ok());
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].line == lesson.diagnostics.at(0).line);
    CHECK(problems[0].message == lesson.diagnostics.at(0).message);
    CHECK_FALSE(rereader.reread(lesson.document, "nowhere", problems));
}
