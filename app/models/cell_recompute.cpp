#include "app/models/cell_recompute.h"

#include "core/document/result_json.h"
#include "core/math/gradient_check.h"
#include "core/math/worked_steps.h"

#include <QElapsedTimer>
#include <QStringList>

#include <algorithm>
#include <cmath>

namespace attnbook {
namespace {

QString queryName(const AttentionResult& r, int row, int head) {
    const QString label = QString::fromStdString(queryLabel(r, row));
    return r.h > 1 ? QStringLiteral("row %1 “%2” in head %3").arg(row + 1).arg(label).arg(head + 1)
                   : QStringLiteral("row %1 “%2”").arg(row + 1).arg(label);
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
    QStringList fullyBlocked;
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
                    fullyBlocked << queryName(r, row, h);
                } else if (fullyBlocked.size() == 4) {
                    fullyBlocked << QStringLiteral("…");
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
    QStringList parts;
    if (worstSum <= kTolerance) {
        parts << (fullyBlocked.isEmpty() ? QStringLiteral("every row totals 1")
                                         : QStringLiteral("every other row totals 1"));
    } else {
        parts << QStringLiteral("rows total 1 only to within %1").arg(worstSum, 0, 'g', 2);
    }
    if (blockedLeak) {
        parts << QStringLiteral("a blocked entry is not 0");
    } else if (blockedEntries == 0) {
        parts << QStringLiteral("no entry is blocked");
    } else {
        parts << QStringLiteral("%1 blocked %2 exactly 0")
                     .arg(blockedEntries)
                     .arg(blockedEntries == 1 ? QStringLiteral("entry is")
                                              : QStringLiteral("entries are"));
    }
    parts << (fullyBlocked.isEmpty() ? QStringLiteral("no row is fully blocked")
                                     : QStringLiteral("fully blocked, all shares 0: ") +
                                           fullyBlocked.join(QStringLiteral(", ")));
    QString line = parts.join(QStringLiteral(" · "));
    line[0] = line[0].toUpper();
    check.text = (check.passed ? QStringLiteral("✓ ") : QStringLiteral("✗ ")) + line;
    return check;
}

RecomputeOutcome CellComputer::run(const RecomputeJob& job,
                                   std::shared_ptr<AttentionResult> buffer) {
    QElapsedTimer timer;
    timer.start();
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
    out.milliseconds = double(timer.nsecsElapsed()) / 1e6;
    return out;
}

double recomputeWork(const AttentionResult& r, bool gradients) {
    const double forward = std::max(forwardCost(r), 1.0);
    if (!gradients) {
        return forward;
    }
    // Entries the gradient check could perturb, two forward passes each (gradient_check.h).
    const double n = r.n, m = r.m, d = r.d, h = r.h, dK = r.dK, dV = r.dV, dO = r.dO;
    const double entries =
        r.direct ? n * h * dK + m * h * (dK + dV)
                 : n * d + d * h * (2 * dK + dV) + dO * h * dV + h * (2 * dK + dV) + dO;
    const double check =
        std::min({2 * forward * entries, 2 * forward * double(GradientCheckPolicy::kMaxEntries),
                  GradientCheckPolicy::kBudget});
    return 3 * forward + check; // forward, backward (about twice), the check
}

} // namespace attnbook
