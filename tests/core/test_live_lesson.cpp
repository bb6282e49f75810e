// An open lesson as a reader changes it, without Qt (core/live/live_lesson): it is read
// from its bytes with its own source of data files, which later re-reads keep whatever the
// working directory is; a cell's what-if (through the core attention live cell and its
// recompute) writes again exactly the prose pieces and quizzes that quote the cell, with the new
// numbers, and marks a claim it made false; Keep writes the what-if into the working document,
// and a re-read of that document reads it as the cell.
#include "core/live/live_lesson.h"

#include "core/document/data_files.h"
#include "core/live/attention_live_cell.h"
#include "core/live/attention_recompute.h"
#include "core/math/number_format.h"

#include "test_support.h"

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <variant>
#include <vector>

using namespace attnbook;

namespace {

const std::string kDocuments = ATTNBOOK_SOURCE_DIR "/documents";

std::string documentBytes(const std::string& name) {
    const std::optional<std::string> bytes = test::readFile(kDocuments + "/" + name);
    REQUIRE(bytes.has_value());
    return *bytes;
}

// Whether `text` binds a value of cell `id` (in a value or a claim), scanned here on its own.
bool quotes(const std::string& text, const std::string& id) {
    for (const ProsePiece& piece : scanProse(text, 1)) {
        if (piece.kind != ProsePiece::Kind::Binding) {
            continue;
        }
        for (const BindingPath& path : piece.binding.paths) {
            if (path.cellId == id) {
                return true;
            }
        }
    }
    return false;
}

// The texts of a quiz that may bind values.
std::string quizText(const QuizCellSpec& quiz) {
    std::string texts = quiz.question + quiz.explain;
    if (quiz.answerKind == QuizCellSpec::AnswerKind::Binding) {
        texts += "{{" + quiz.text + "}}";
    }
    for (const std::string& choice : quiz.choices) {
        texts += choice;
    }
    return texts;
}

// Every text of the lesson that may bind values: its prose pieces and its quizzes.
std::vector<std::string> textsOf(const LiveLesson& lesson) {
    std::vector<std::string> texts;
    for (const ProsePieceRow& piece : lesson.prose()) {
        texts.push_back(piece.text);
    }
    for (const LessonCell& cell : lesson.lesson().cells) {
        if (const QuizCellSpec* quiz = cell.quiz()) {
            texts.push_back(quizText(*quiz));
        }
    }
    return texts;
}

// The index of the one prose piece whose text holds `needle`.
std::size_t pieceHolding(const LiveLesson& lesson, const std::string& needle) {
    std::vector<std::size_t> found;
    for (std::size_t i = 0; i < lesson.prose().size(); ++i) {
        if (lesson.prose()[i].text.find(needle) != std::string::npos) {
            found.push_back(i);
        }
    }
    REQUIRE_EQ(found.size(), 1u);
    return found.front();
}

std::string percentDecoded(const std::string& text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '%' && i + 2 < text.size()) {
            out += char(std::stoi(text.substr(i + 1, 2), nullptr, 16));
            i += 2;
        } else {
            out += text[i];
        }
    }
    return out;
}

// The details of the what-if marks in `markdown`: each "(#claim:…)" link's target, decoded.
std::vector<std::string> markDetails(const std::string& markdown) {
    std::vector<std::string> details;
    const std::string open = "](#claim:";
    for (std::size_t at = markdown.find(open); at != std::string::npos;
         at = markdown.find(open, at + 1)) {
        const std::size_t start = at + open.size();
        details.push_back(
            percentDecoded(markdown.substr(start, markdown.find(')', start) - start)));
    }
    return details;
}

// A reader's what-if on one attention cell of a live lesson: the core live cell makes the
// edit, CellComputer recomputes it from the lesson's result, and the lesson takes the outcome
// as the window's cell model hands it over.
struct ReaderWhatIf {
    ReaderWhatIf(LiveLesson& lesson, const std::string& id, std::vector<std::string> controls)
        : lesson(lesson), id(id), spec(*lesson.lesson().cell(id)->attention()) {
        // attention.md keeps its example cells fixed so the sentences beside them stay true;
        // this what-if is one a lesson that allowed these controls would let a reader make.
        spec.controls = std::move(controls);
        cell = std::make_unique<AttentionLiveCell>(spec);
        result = lesson.results().cell(id)->attention;
        lesson.watch(id, {[this] { return hasChanges(cell->state(), *cell->authored()); }, {}});
    }

    Rebound apply(const LiveEdit& edit) {
        REQUIRE(edit.applied());
        RecomputeJob job;
        job.state = std::make_shared<const EditableAttention>(cell->state());
        job.authored = cell->authored();
        job.base = result;
        job.change = edit.change;
        job.gradients = lesson.quoted().quotedForGradients(id);
        job.json = true;
        job.quoted = lesson.quoted().paths(id);
        job.id = id;
        RecomputeOutcome outcome = computer.run(job, std::make_shared<AttentionResult>());
        REQUIRE_FALSE(outcome.error.has_value());
        result = outcome.result;
        return lesson.recomputed(id, outcome.result, outcome.json);
    }

    LiveLesson& lesson;
    std::string id;
    AttentionCellSpec spec;
    std::unique_ptr<AttentionLiveCell> cell;
    std::shared_ptr<const AttentionResult> result;
    CellComputer computer;
};

} // namespace

TEST_CASE("attention.md opens from its bytes with the files of its folder") {
    LiveLesson lesson;
    lesson.openBeside(documentBytes("attention.md"), kDocuments + "/attention.md");
    CHECK_EQ(lesson.errorCount(), 0u);
    REQUIRE(lesson.lesson().files != nullptr);
    CHECK_EQ(std::filesystem::path(lesson.dataFolder()),
             std::filesystem::path(kDocuments).lexically_normal());
    CHECK_EQ(lesson.working().serialize(), documentBytes("attention.md"));
    // One row for each prose piece and each cell, in the document's order.
    std::size_t cells = 0;
    for (const Segment& segment : lesson.working().segments) {
        cells += segment.isCell();
    }
    CHECK_EQ(lesson.rows().size(), lesson.prose().size() + cells);
    for (std::size_t row = 0; row < lesson.rows().size(); ++row) {
        const LessonRow& place = lesson.rows()[row];
        if (place.prosePiece >= 0) {
            CHECK_EQ(lesson.rowPlace(int(row)).text,
                     lesson.prose()[std::size_t(place.prosePiece)].text);
        }
    }
    // The cells the text binds are quoted; those it binds a gradient of run the backward pass.
    for (const LessonCell& cell : lesson.lesson().cells) {
        bool quoted = false;
        bool gradients = false;
        for (const std::string& text : textsOf(lesson)) {
            for (const ProsePiece& p : scanProse(text, 1)) {
                for (const BindingPath& path : p.binding.paths) {
                    const auto* first = path.steps.empty()
                                            ? nullptr
                                            : std::get_if<std::string>(&path.steps.front());
                    quoted |= path.cellId == cell.id;
                    gradients |= path.cellId == cell.id && first &&
                                 (*first == "grad" || *first == "gradcheck");
                }
            }
        }
        CHECK_MESSAGE(lesson.quoted().quoted(cell.id) == quoted, cell.id);
        CHECK_MESSAGE(lesson.quoted().quotedForGradients(cell.id) == gradients, cell.id);
    }
    CHECK(lesson.quoted().quotedForGradients("backward"));
}

TEST_CASE("a what-if writes again exactly the prose and quizzes that quote its cell") {
    LiveLesson lesson;
    lesson.openBeside(documentBytes("attention.md"), kDocuments + "/attention.md");
    std::vector<std::string> before;
    for (std::size_t i = 0; i < lesson.prose().size(); ++i) {
        before.push_back(lesson.proseMarkdown(i));
    }
    const std::size_t sharesPiece = pieceHolding(lesson, "{{colour.head[0].weights[0][0]:4}}");
    const double shareBefore = lesson.results().cell("colour")->attention->head[0].weight(0, 0);
    const std::size_t claimPiece = pieceHolding(lesson, "{{? near(colour.Q[0][0], 1)");
    CHECK(markDetails(before[claimPiece]).empty());

    // Red's first coordinate from 1 to 2: red queries and keys grow, so red's shares move, and
    // the claim that red's query is [1, 0, 0, 0] no longer holds.
    ReaderWhatIf whatIf(lesson, "colour", {"vectors"});
    const Rebound rebound = whatIf.apply(whatIf.cell->setMatrixEntry("X0", 0, 0, 2.0));

    std::set<std::size_t> expected;
    for (std::size_t i = 0; i < lesson.prose().size(); ++i) {
        if (quotes(lesson.prose()[i].text, "colour")) {
            expected.insert(i);
        }
    }
    std::set<std::size_t> reboundPieces;
    for (const Rebound::Prose& prose : rebound.prose) {
        reboundPieces.insert(prose.piece);
        CHECK_EQ(prose.markdown, lesson.proseMarkdown(prose.piece));
        CHECK_EQ(lesson.rows()[std::size_t(prose.row)].prosePiece, int(prose.piece));
    }
    CHECK_EQ(reboundPieces, expected);
    CHECK_EQ(reboundPieces.size(), rebound.prose.size()); // each once
    for (std::size_t i = 0; i < lesson.prose().size(); ++i) {
        if (!expected.count(i)) {
            CHECK_EQ(lesson.proseMarkdown(i), before[i]); // nothing else moved
        }
    }

    // The shares piece now holds red's new share, formatted here from the recomputed result.
    const double shareAfter = whatIf.result->head[0].weight(0, 0);
    const std::string oldText = fixedNumber(shareBefore, 4);
    const std::string newText = fixedNumber(shareAfter, 4);
    REQUIRE_NE(oldText, newText);
    CHECK_NE(before[sharesPiece].find(oldText), std::string::npos);
    CHECK_NE(lesson.proseMarkdown(sharesPiece).find(newText), std::string::npos);
    CHECK_EQ(lesson.proseMarkdown(sharesPiece).find(oldText), std::string::npos);

    // The claim the what-if made false gets the mark, its expression in the hover text.
    const std::vector<std::string> details = markDetails(lesson.proseMarkdown(claimPiece));
    REQUIRE_FALSE(details.empty());
    CHECK_NE(lesson.proseMarkdown(claimPiece).find("not true for your edit"), std::string::npos);
    CHECK_EQ(details.front().rfind("near(colour.Q[0][0], 1)", 0), 0u);

    // The quizzes quoting the cell, and only they, read again.
    std::set<std::string> quizzes;
    for (const LessonCell& cell : lesson.lesson().cells) {
        if (const QuizCellSpec* quiz = cell.quiz()) {
            if (quotes(quizText(*quiz), "colour")) {
                quizzes.insert(cell.id);
            }
        }
    }
    CHECK_FALSE(quizzes.empty());
    CHECK_EQ(std::set<std::string>(rebound.quizzes.begin(), rebound.quizzes.end()), quizzes);

    // The same result again (a focus moved) writes nothing again; a cell nobody quotes neither.
    CHECK(lesson.recomputed("colour", whatIf.result, nullptr).empty());
}

TEST_CASE("an undone what-if takes its mark away again") {
    LiveLesson lesson;
    lesson.openBeside(documentBytes("attention.md"), kDocuments + "/attention.md");
    const std::size_t claimPiece = pieceHolding(lesson, "{{? near(colour.Q[0][0], 1)");
    const std::string authored = lesson.proseMarkdown(claimPiece);
    ReaderWhatIf whatIf(lesson, "colour", {"vectors"});
    whatIf.apply(whatIf.cell->setMatrixEntry("X0", 0, 0, 2.0));
    REQUIRE_FALSE(markDetails(lesson.proseMarkdown(claimPiece)).empty());
    const std::optional<CellChange> undo = whatIf.cell->undo();
    REQUIRE(undo.has_value());
    whatIf.apply(LiveEdit{"", *undo});
    CHECK_EQ(lesson.proseMarkdown(claimPiece), authored);
}

TEST_CASE("Keep writes the what-if into the working document, and a re-read reads it") {
    LiveLesson lesson;
    const std::string bytes = documentBytes("attention.md");
    lesson.openBeside(bytes, kDocuments + "/attention.md");
    ReaderWhatIf whatIf(lesson, "colour", {"vectors"});
    whatIf.apply(whatIf.cell->setMatrixEntry("X0", 0, 0, 2.0));

    // A cell the document does not have is refused, and nothing is written.
    const KeptEdit refused = lesson.keep("no_such_cell", {{"heads", "2"}});
    CHECK_FALSE(refused.kept());
    CHECK_EQ(lesson.working().serialize(), bytes);

    const auto keys = changedKeys(*whatIf.cell->authored(), whatIf.cell->state());
    REQUIRE_FALSE(keys.empty());
    const KeptEdit kept = lesson.keep("colour", keys);
    REQUIRE(kept.kept());
    CHECK_EQ(kept.before, bytes);
    CHECK_EQ(kept.after, lesson.working().serialize());
    CHECK_NE(kept.after, bytes);
    CHECK_NE(kept.name.find("colour"), std::string::npos);
    // Only the working document changed: the lesson is read again when its bytes are.
    CHECK_EQ(lesson.lesson().document.serialize(), bytes);

    lesson.reread(kept.after);
    // Red's query is [2, 0, 0, 0] now, so the claim beside the cell is false: the author is told.
    CHECK_GT(lesson.errorCount(), 0u);
    const AttentionCellSpec* colour = lesson.lesson().cell("colour")->attention();
    REQUIRE(colour != nullptr);
    CHECK_EQ(colour->config.X0(0, 0), test::fuzzy(2.0));
    const AttentionResult& reread = *lesson.results().cell("colour")->attention;
    CHECK_EQ(reread.head[0].weight(0, 0), test::fuzzy(whatIf.result->head[0].weight(0, 0)));
    CHECK_EQ(lesson.working().serialize(), kept.after);
}

TEST_CASE("a lesson's data files come from its own source in every re-read") {
    const std::string bytes = documentBytes("real-head.md");
    test::TempDir elsewhere;
    // Started in another folder: a re-read that looked beside the working directory finds
    // nothing there.
    test::WorkingDirectory cwd(elsewhere.path());
    LiveLesson lesson;
    lesson.openBeside(bytes, kDocuments + "/real-head.md");
    REQUIRE_FALSE(lessonDataFiles(lesson.lesson()).empty());
    CHECK_EQ(lesson.errorCount(), 0u);

    const std::shared_ptr<const DataFiles> source = lesson.lesson().files;
    lesson.reread(bytes + "\nOne more sentence.\n");
    CHECK_EQ(lesson.lesson().files, source); // the same source, with what it read
    CHECK_EQ(lesson.errorCount(), 0u);
    for (const ComputedCell& cell : lesson.results().cells) {
        CHECK_MESSAGE(cell.ok, cell.id);
    }

    // The same bytes with no source read nothing: the files are what made it compute.
    LiveLesson unsaved;
    unsaved.open(parseLesson(bytes, "untitled.md", noDataFiles()), "untitled.md");
    CHECK_GT(unsaved.errorCount(), 0u);

    // Saved into a folder without its data: it reads from there now, and says what is missing.
    CHECK(lesson.rereadsAt(elsewhere.filePath("real-head.md")));
    CHECK(lesson.moveTo(elsewhere.filePath("real-head.md")));
    CHECK_GT(lesson.errorCount(), 0u);
    CHECK_NE(lesson.lesson().files, source);
}
