// The cells' worker scheduling without Qt or threads (core/live/recompute_queue.h):
// the latest edit wins, a stale outcome is not shown (an attention cell's is the next job's
// base), a finished job starts the pending one, a refused job drops the edits made since, and
// a transformer's rest follows its forward pass only while that is the latest one.
#include "core/live/recompute_queue.h"

#include "test_support.h"

#include <memory>
#include <optional>

using namespace attnbook;

namespace {

// An outcome told apart by its result's address.
RecomputeOutcome outcomeOf(std::shared_ptr<const AttentionResult> result) {
    RecomputeOutcome outcome;
    outcome.result = std::move(result);
    return outcome;
}

RecomputeOutcome refusedOutcome() {
    RecomputeOutcome outcome;
    outcome.error = ConfigError{"overflow", "the numbers overflow"};
    return outcome;
}

} // namespace

TEST_CASE("an edit on a free worker starts at once, and its outcome is shown") {
    AttentionRecomputeQueue queue;
    CHECK_FALSE(queue.updating());
    const std::optional<CellChange> start = queue.edit(CellChange::ofRows({1}));
    REQUIRE(start);
    CHECK(start->kind == CellChange::Kind::Rows);
    queue.started(std::make_shared<EditableAttention>(), 7);
    CHECK(queue.updating());

    const auto result = std::make_shared<const AttentionResult>();
    AttentionRecomputeQueue::Next next = queue.finished(outcomeOf(result));
    CHECK_FALSE(next.refusal);
    CHECK_FALSE(next.start);
    REQUIRE(next.show);
    CHECK(next.show->result == result);
    CHECK(next.computedVersion == 7);
    CHECK_FALSE(queue.updating());
}

TEST_CASE("edits during a job merge; the finished job starts them from its stale outcome") {
    AttentionRecomputeQueue queue;
    REQUIRE(queue.edit(CellChange::ofRows({0})));
    queue.started(std::make_shared<EditableAttention>(), 1);
    // Two edits while it runs: neither starts a job; they merge into one change.
    CHECK_FALSE(queue.edit(CellChange::ofRows({2})));
    CHECK_FALSE(queue.edit(CellChange::attention()));
    CHECK(queue.updating());

    const auto stale = std::make_shared<const AttentionResult>();
    const auto shown = std::make_shared<const AttentionResult>();
    AttentionRecomputeQueue::Next next = queue.finished(outcomeOf(stale));
    CHECK_FALSE(next.show); // stale: never shown
    REQUIRE(next.start);
    CHECK(next.start->kind == CellChange::Kind::Everything); // rows then attention, as one
    CHECK(queue.base(shown) == stale);                       // the next pass starts from it
    queue.started(std::make_shared<EditableAttention>(), 2);

    const auto latest = std::make_shared<const AttentionResult>();
    next = queue.finished(outcomeOf(latest));
    REQUIRE(next.show);
    CHECK(next.show->result == latest); // the latest edit wins
    CHECK(queue.base(shown) == shown);
    CHECK_FALSE(queue.updating());
}

TEST_CASE("only a focus moved during a job: its outcome is shown, nothing more computes") {
    AttentionRecomputeQueue queue;
    REQUIRE(queue.edit(CellChange::everything()));
    queue.started(std::make_shared<EditableAttention>(), 1);
    CHECK_FALSE(queue.edit(CellChange::nothing()));
    const auto result = std::make_shared<const AttentionResult>();
    const AttentionRecomputeQueue::Next next = queue.finished(outcomeOf(result));
    CHECK_FALSE(next.start);
    REQUIRE(next.show);
    CHECK(next.show->result == result);
    CHECK_FALSE(queue.updating());
}

TEST_CASE("a refused job drops the pending edits and shows the last outcome that computed") {
    AttentionRecomputeQueue queue;
    REQUIRE(queue.edit(CellChange::ofRows({0})));
    queue.started(std::make_shared<EditableAttention>(), 1);
    CHECK_FALSE(queue.edit(CellChange::ofRows({1})));
    const auto computed = std::make_shared<const AttentionResult>();
    AttentionRecomputeQueue::Next next = queue.finished(outcomeOf(computed)); // stale
    REQUIRE(next.start);
    queue.started(std::make_shared<EditableAttention>(), 2);
    CHECK_FALSE(queue.edit(CellChange::ofRows({2})));

    next = queue.finished(refusedOutcome());
    REQUIRE(next.refusal);
    CHECK(next.refusal->message == "the numbers overflow");
    CHECK_FALSE(next.start); // the edit made meanwhile went with it
    REQUIRE(next.show);
    CHECK(next.show->result == computed);
    CHECK_FALSE(queue.updating());
}

TEST_CASE("a transformer's rest follows its forward pass on the worker") {
    TransformerStepQueue queue(false);
    CHECK(queue.complete());
    const std::uint64_t serial = queue.edited();
    CHECK(queue.updating());
    CHECK_FALSE(queue.chancesCurrent());
    CHECK(queue.nextJob() == TransformerStep::Forward);
    CHECK_FALSE(queue.nextJob()); // one job at a time
    REQUIRE(queue.finished(serial));
    CHECK(queue.shown(TransformerStep::Forward, false)); // new forward numbers
    CHECK(queue.chancesCurrent());
    CHECK_FALSE(queue.complete());
    CHECK(queue.nextJob() == TransformerStep::Rest);
    REQUIRE(queue.finished(serial));
    CHECK_FALSE(queue.shown(TransformerStep::Rest, false)); // the same forward numbers
    CHECK(queue.complete());
    CHECK_FALSE(queue.nextJob());
    CHECK_FALSE(queue.updating());
}

TEST_CASE("a transformer's stale step is dropped and the latest settings compute") {
    TransformerStepQueue queue(false);
    const std::uint64_t first = queue.edited();
    REQUIRE(queue.nextJob() == TransformerStep::Forward);
    const std::uint64_t second = queue.edited(); // while the first runs
    CHECK(second != first);
    CHECK_FALSE(queue.finished(first)); // stale: not shown
    CHECK(queue.nextJob() == TransformerStep::Forward);
    CHECK(queue.finished(second));
}

TEST_CASE(
    "a transformer's inline forward pass leaves the rest to the worker, not after a problem") {
    TransformerStepQueue queue(true);
    queue.edited();
    CHECK_FALSE(queue.updating()); // the forward step runs inline
    queue.shown(TransformerStep::Forward, false);
    CHECK(queue.nextJob() == TransformerStep::Rest);

    TransformerStepQueue failing(true);
    failing.edited();
    failing.shown(TransformerStep::Forward, true);
    CHECK(failing.complete()); // the problem is the latest settings' whole answer
    CHECK_FALSE(failing.nextJob());
}
