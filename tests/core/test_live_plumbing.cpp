// What the window's cell models used to do themselves and core/live now does once for
// every cell kind: undo steps on one clock (live_undo.h), the words of the settings
// (setting_words.h), and for an attention cell the memory its recomputes reuse, Compare's
// refusal and Keep's size limit (attention_recompute.h, attention_live_cell.h).
#include "core/document/lesson.h"
#include "core/document/setting_words.h"
#include "core/live/attention_live_cell.h"
#include "core/live/attention_recompute.h"
#include "core/live/live_undo.h"
#include "core/present/attention_views.h"

#include <doctest/doctest.h>

#include <string>

using namespace attnbook;

TEST_CASE("undo steps of two cells share one clock, and keep the newest") {
    LiveUndo<int> first, second;
    first.push(1);
    second.push(2);
    first.push(3);
    CHECK(first.latestStamp() > second.latestStamp());
    CHECK_EQ(first.pop(), 3);
    CHECK(first.latestStamp() < second.latestStamp()); // Ctrl+Z now takes back the second's
    for (int i = 0; i < int(LiveUndo<int>::kSteps) + 5; ++i) {
        second.push(100 + i);
    }
    CHECK_EQ(second.size(), LiveUndo<int>::kSteps);
    int oldest = 0;
    while (!second.empty()) {
        oldest = second.pop();
    }
    CHECK_EQ(oldest, 105); // the first five (and the 2) were dropped
    CHECK_EQ(second.latestStamp(), 0);
}

TEST_CASE("the settings' words read back as the settings") {
    for (MaskKind m : {MaskKind::None, MaskKind::Causal}) {
        CHECK(maskNamed(maskName(m)) == m);
    }
    for (PositionalKind p :
         {PositionalKind::None, PositionalKind::Sinusoidal, PositionalKind::Learned}) {
        CHECK(positionalNamed(positionalName(p)) == p);
    }
    for (ScaleKind s : {ScaleKind::InverseSqrtDk, ScaleKind::Off, ScaleKind::Divisor}) {
        CHECK(scaleNamed(scaleName(s)) == s);
    }
    for (PickKind p : {PickKind::Greedy, PickKind::Sample}) {
        CHECK(pickNamed(pickName(p)) == p);
    }
    CHECK_FALSE(maskNamed("Causal"));
    CHECK_FALSE(scaleNamed(""));
}

namespace {

AttentionCellSpec cellSpec(const std::string& body) {
    const Lesson lesson = parseLesson("```attention a\n" + body + "```\n", "plumbing.md");
    REQUIRE(!lesson.cells.empty());
    REQUIRE(lesson.cells[0].attention());
    return *lesson.cells[0].attention();
}

} // namespace

TEST_CASE("a recompute's copy of the state reuses the memory of one nobody holds") {
    const AttentionCellSpec spec = cellSpec("tokens: [a, b]\nX: [[1, 0], [0, 1]]\n"
                                            "W_Q: [[1, 2], [3, 4]]\ncontrols: [vectors]\n");
    AttentionLiveCell live(spec);
    AttentionResult shown = AttentionEngine().compute(live.state().config);
    RecomputeMemory memory(live.authored());
    memory.prepare(live, shown);

    std::shared_ptr<const EditableAttention> first = memory.snapshot(live);
    const EditableAttention* firstMemory = first.get();
    REQUIRE(live.setMatrixEntry("X0", 0, 0, 5.0).applied());
    std::shared_ptr<const EditableAttention> second = memory.snapshot(live);
    CHECK(second.get() != firstMemory); // the first is still held (by the job)
    CHECK_EQ(second->config.X0(0, 0), 5.0);
    // The first job's state computed and is the latest; the second's replaces it, and the first,
    // held by nobody now, is the next copy's memory, with the live state in it.
    memory.replaceLatest(std::move(first), live.weightsVersion(), live);
    memory.replaceLatest(std::move(second), live.weightsVersion(), live);
    REQUIRE(live.setMatrixEntry("X0", 1, 1, 7.0).applied());
    std::shared_ptr<const EditableAttention> third = memory.snapshot(live);
    CHECK_EQ(third.get(), firstMemory);
    CHECK_EQ(third->config.X0(1, 1), 7.0);
    CHECK_EQ(third->config.X0(0, 0), 5.0);
    CHECK(arma::approx_equal(third->config.wQ.weights, live.state().config.wQ.weights, "absdiff",
                             0.0));
    CHECK_EQ(memory.latestState().config.X0(0, 0), 5.0); // what a refusal goes back to

    // Results: a free buffer is one nobody else holds.
    std::shared_ptr<AttentionResult> a = memory.freeBuffer();
    std::shared_ptr<AttentionResult> b = memory.freeBuffer();
    CHECK(a != b);
    const AttentionResult* aMemory = a.get();
    memory.recycle(std::move(a));
    CHECK_EQ(memory.freeBuffer().get(), aMemory);
}

TEST_CASE("Compare refuses another number of heads or tokens, in words") {
    AttentionEngine engine;
    const AttentionCellSpec two = cellSpec("tokens: [a, b]\nX: [[1, 0], [0, 1]]\n");
    const AttentionCellSpec three = cellSpec("tokens: [a, b, c]\nX: [[1, 0], [0, 1], [1, 1]]\n");
    const AttentionCellSpec heads = cellSpec("tokens: [a, b]\nX: [[1, 0], [0, 1]]\nheads: 2\n");
    const AttentionResult a = engine.compute(two.config);
    CHECK_EQ(compareProblem(a, a), "");
    CHECK_EQ(compareProblem(a, engine.compute(three.config)),
             "Compare needs the lesson's 2 tokens; the cell now has 3.");
    CHECK_EQ(compareProblem(a, engine.compute(heads.config)),
             "Compare needs the lesson's 1 head; the cell now has 2 heads.");
}

TEST_CASE("Keep refuses a value too large to type into the lesson") {
    const std::string small = "[[1, 2], [3, 4]]";
    const std::string large(300 * 1024, '1');
    CHECK_EQ(AttentionLiveCell::tooLargeToKeep({{"W_Q", small}}), "");
    const std::string why = AttentionLiveCell::tooLargeToKeep({{"W_Q", small}, {"W_K", large}});
    CHECK(why.rfind("W_K is too large", 0) == 0);
    CHECK(why.find("300 KB") != std::string::npos);
}
