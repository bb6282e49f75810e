#include "core/live/attention_recompute.h"

#include "core/live/attention_live_cell.h"

#include "core/document/result_json.h"
#include "core/math/gradient_check.h"
#include "core/math/worked_steps.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace attnbook {
namespace {

std::string queryName(const AttentionResult& r, int row, int head) {
    std::string name = "row " + std::to_string(row + 1) + " “" + queryLabel(r, row) + "”";
    return r.h > 1 ? name + " in head " + std::to_string(head + 1) : name;
}

std::string joined(const std::vector<std::string>& parts, const std::string& separator) {
    std::string out;
    for (const std::string& part : parts) {
        out += (out.empty() ? "" : separator) + part;
    }
    return out;
}

} // namespace

void CellChange::merge(const CellChange& later) {
    if (later.kind == Kind::Nothing || kind == Kind::Everything) {
        return;
    }
    if (kind == Kind::Nothing || later.kind == Kind::Everything) {
        *this = later;
        return;
    }
    if (kind == Kind::Rows && later.kind == Kind::Rows) {
        rows.insert(rows.end(), later.rows.begin(), later.rows.end());
    } else if (kind == Kind::Attention && later.kind == Kind::Attention) {
        return;
    } else if (kind != Kind::Column || later.kind != Kind::Column || later.projected != projected ||
               later.column != column) {
        *this = everything(); // two different kinds of change, or two columns
    }
}

RowCheck checkRows(const AttentionResult& r) {
    double worstSum = 0.0;
    double largest = 0.0;
    long long blockedEntries = 0;
    bool blockedLeak = false;
    std::vector<std::string> fullyBlocked;
    for (int h = 0; h < int(r.head.size()); ++h) {
        const HeadResult& head = r.head[size_t(h)];
        for (int row = 0; row < r.n; ++row) {
            // One query's column of the key-major tables: (m × 1)
            const double* weights = head.weightsT.colptr(arma::uword(row));
            const double* scores = head.scoresT.colptr(arma::uword(row));
            double sum = 0.0;
            int blocked = 0;
            for (int c = 0; c < r.m; ++c) {
                if (scores[c] == -arma::datum::inf) {
                    ++blocked;
                    blockedLeak = blockedLeak || weights[c] != 0.0;
                }
                sum += weights[c];
                largest = std::max(largest, weights[c]);
            }
            blockedEntries += blocked;
            if (blocked == r.m) {
                if (fullyBlocked.size() < 4) {
                    fullyBlocked.push_back(queryName(r, row, h));
                } else if (fullyBlocked.size() == 4) {
                    fullyBlocked.push_back("…");
                }
                blockedLeak = blockedLeak || sum != 0.0;
            } else {
                worstSum = std::max(worstSum, std::abs(sum - 1.0));
            }
        }
    }
    RowCheck check;
    check.largestShare = largest;
    constexpr double kTolerance = 1e-12;
    check.passed = worstSum <= kTolerance && !blockedLeak;
    // The parts, joined by " · ".
    std::string line;
    const auto add = [&line](const std::string& part) {
        line += (line.empty() ? "" : " · ") + part;
    };
    if (worstSum <= kTolerance) {
        add(fullyBlocked.empty() ? "every row totals 1" : "every other row totals 1");
    } else {
        char within[32];
        std::snprintf(within, sizeof within, "%.2g", worstSum);
        add(std::string("rows total 1 only to within ") + within);
    }
    if (blockedLeak) {
        add("a blocked entry is not 0");
    } else if (blockedEntries == 0) {
        add("no entry is blocked");
    } else {
        add(std::to_string(blockedEntries) +
            (blockedEntries == 1 ? " blocked entry is" : " blocked entries are") + " exactly 0");
    }
    add(fullyBlocked.empty() ? "no row is fully blocked"
                             : "fully blocked, all shares 0: " + joined(fullyBlocked, ", "));
    line[0] = char(std::toupper(static_cast<unsigned char>(line[0]))); // every part starts ASCII
    check.text = (check.passed ? "✓ " : "✗ ") + line;
    return check;
}

RecomputeOutcome CellComputer::run(const RecomputeJob& job,
                                   std::shared_ptr<AttentionResult> buffer) {
    const auto started = std::chrono::steady_clock::now();
    RecomputeOutcome out;
    const AttentionConfig& config = job.state->config;
    try {
        // An update copies only what it reads, into memory of the same sizes as last time (no
        // allocation). The gradients are computed again below, into the buffer's own memory, or
        // dropped; after a heads, mask, padding or scale edit so are the heads' n × m tables
        // and the output.
        const CellChange& change = job.change;
        if (!job.base || change.kind == CellChange::Kind::Everything) {
            engine_.forward(config, *buffer);
        } else if (change.kind == CellChange::Kind::Attention) {
            static_cast<AttentionInputs&>(*buffer) = *job.base;
            engine_.updateAttention(config, *buffer);
        } else if (change.kind == CellChange::Kind::Rows) {
            static_cast<AttentionForward&>(*buffer) = *job.base;
            engine_.updateRows(config, change.rows, *buffer);
        } else if (change.kind == CellChange::Kind::Column) {
            static_cast<AttentionForward&>(*buffer) = *job.base;
            engine_.updateProjectedColumn(config, change.projected, change.column, *buffer);
        } else {
            engine_.forward(config, *buffer); // Nothing: never sent to the worker
        }
        if (job.gradients) {
            engine_.backward(config, *buffer, GradientCheck::Run);
        } else {
            // No stale gradients of an earlier state: a result holds its own or none.
            buffer->grad = {};
            buffer->gradcheck = {};
        }
    } catch (const InvalidConfig& e) {
        out.error = e.error();
        return out;
    } catch (const std::bad_alloc&) {
        out.error = ConfigError{"", "not enough memory to compute this cell", -1, -1};
        return out;
    }
    out.rows = checkRows(*buffer);
    out.editedBesidesFocus = hasChanges(*job.authored, *job.state, false);
    if (job.change.kind == CellChange::Kind::Everything) {
        out.allowedHeads = allowedHeads(*job.state);
    }
    if (job.json) {
        out.json = std::make_shared<const Json>(
            attentionJson(job.id, *buffer, buildsWholeJson(*buffer) ? nullptr : job.quoted.get()));
    }
    out.result = std::move(buffer);
    out.milliseconds =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
            .count();
    return out;
}

double recomputeWork(const AttentionResult& r, bool gradients) {
    // The cost limits' formula (gradient_check.h), so the window and `check` agree.
    return gradients ? attentionGradientsWork(r) : std::max(forwardCost(r), 1.0);
}

void RecomputeMemory::prepare(const AttentionLiveCell& live, const AttentionResult& shown) {
    spare_ = std::make_shared<EditableAttention>(live.state());
    spareVersion_ = live.weightsVersion();
    latest_ = std::make_shared<const EditableAttention>(live.state());
    latestVersion_ = live.weightsVersion();
    for (size_t i = 0; i < kSpareResults; ++i) {
        auto copy = std::make_shared<AttentionResult>();
        static_cast<AttentionForward&>(*copy) = shown; // a recompute copies no gradients
        spares_.push_back(std::move(copy));
    }
}

std::shared_ptr<const EditableAttention> RecomputeMemory::snapshot(AttentionLiveCell& live) {
    std::shared_ptr<EditableAttention> copy = std::exchange(spare_, nullptr);
    if (!copy || copy.use_count() != 1) {
        return std::make_shared<EditableAttention>(live.state());
    }
    live.copyStateInto(*copy, spareVersion_ == live.weightsVersion());
    return copy;
}

void RecomputeMemory::replaceLatest(std::shared_ptr<const EditableAttention> state,
                                    std::uint64_t version, const AttentionLiveCell& live) {
    std::shared_ptr<const EditableAttention> old = std::exchange(latest_, std::move(state));
    const std::uint64_t oldVersion = std::exchange(latestVersion_, version);
    if (old && old.use_count() == 1 && old != live.authored()) {
        spareVersion_ = oldVersion;
        // Every snapshot was made writable by snapshot() and nobody else holds this one.
        spare_ = std::const_pointer_cast<EditableAttention>(std::move(old));
    }
}

std::shared_ptr<AttentionResult> RecomputeMemory::freeBuffer() {
    const auto free = std::find_if(spares_.begin(), spares_.end(),
                                   [](const auto& spare) { return spare.use_count() == 1; });
    if (free == spares_.end()) {
        return std::make_shared<AttentionResult>();
    }
    std::shared_ptr<AttentionResult> buffer = std::move(*free);
    spares_.erase(free);
    return buffer;
}

void RecomputeMemory::recycle(std::shared_ptr<const AttentionResult> replaced) {
    // Every result shown was created mutable (freeBuffer), so casting the const away is sound.
    spares_.push_back(std::const_pointer_cast<AttentionResult>(std::move(replaced)));
    if (spares_.size() > kSpareResults) {
        spares_.erase(spares_.begin());
    }
}

} // namespace attnbook
