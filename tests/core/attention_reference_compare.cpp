// The comparisons of attention_reference_compare.h, part by part.
#include "attention_reference_compare.h"

#include <cstdio>

#include <algorithm>
#include <cmath>
#include <string>

namespace ref::cells {

// ---------------------------------------------------------------------------
// Comparison

// Equal within 1e-12, relative where the numbers are larger than 1. Both −∞
// (a blocked score) counts as equal.
bool close(double a, double b) {
    if (a == b) {
        return true;
    }
    return std::abs(a - b) <= kTolerance * std::max({1.0, std::abs(a), std::abs(b)});
}

// All 17 digits, as %.17g.
std::string precise(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", value);
    return text;
}

void compareHeads(Comparison& cmp, const Cell& cell, const ref::Result& expected,
                  const AttentionResult& actual) {
    if (actual.head.size() != size_t(cell.h)) {
        cmp.fail(std::to_string(actual.head.size()) + " heads, expected " + std::to_string(cell.h));
        return;
    }
    for (int i = 0; i < cell.h; ++i) {
        const HeadResult& head = actual.head[size_t(i)];
        const ref::Head& want = expected.heads[size_t(i)];
        for (int r = 0; r < cell.n; ++r) {
            for (int c = 0; c < cell.m; ++c) {
                cmp.entry("scores", r, c, head.score(arma::uword(r), arma::uword(c)),
                          want.S.at(r, c));
                cmp.entry("weights", r, c, head.weight(arma::uword(r), arma::uword(c)),
                          want.A.at(r, c));
            }
        }
        cmp.matrix("context", head.context, want.H);
    }
}

void compareWarnings(Comparison& cmp, const ref::Result& expected, const AttentionResult& actual) {
    std::set<std::pair<int, int>> seen;
    for (const AttentionWarning& w : actual.warnings) {
        if (w.code != "blocked-row") {
            cmp.fail("warning code " + w.code);
        }
        seen.insert({w.head, w.row});
    }
    if (seen != expected.blockedRows || actual.warnings.size() != expected.blockedRows.size()) {
        cmp.fail(std::to_string(actual.warnings.size()) + " blocked-row warnings, expected " +
                 std::to_string(expected.blockedRows.size()));
    }
}

void compareGradients(Comparison& cmp, const Cell& cell, const ref::Result& expected,
                      const AttentionResult& actual) {
    const AttentionGradients& g = actual.grad;
    cmp.matrix("grad.upstream", g.upstream, cell.upstream);
    if (cell.direct) {
        cmp.matrix("grad.queries", g.queries, expected.GQ);
        cmp.matrix("grad.keys", g.keys, expected.GK);
        cmp.matrix("grad.values", g.values, expected.GV);
        if (!g.X.is_empty() || !g.W_Q.is_empty() || !g.b_O.is_empty()) {
            cmp.fail("direct mode has projection gradients");
        }
        return;
    }
    cmp.matrix("grad.X", g.X, expected.GX);
    cmp.matrix("grad.W_Q", g.W_Q, expected.GWQ);
    cmp.matrix("grad.W_K", g.W_K, expected.GWK);
    cmp.matrix("grad.W_V", g.W_V, expected.GWV);
    cmp.matrix("grad.W_O", g.W_O, expected.GWO);
    cmp.vector("grad.b_Q", g.b_Q, expected.GbQ);
    cmp.vector("grad.b_K", g.b_K, expected.GbK);
    cmp.vector("grad.b_V", g.b_V, expected.GbV);
    cmp.vector("grad.b_O", g.b_O, expected.GbO);
    if (!g.queries.is_empty()) {
        cmp.fail("projection mode has direct gradients");
    }
}

Comparison compare(const Cell& cell, const ref::Result& expected, const AttentionResult& actual) {
    Comparison cmp;
    if (actual.direct != cell.direct || actual.n != cell.n || actual.m != cell.m ||
        actual.d != cell.d || actual.h != cell.h || actual.dK != cell.dK || actual.dV != cell.dV ||
        actual.dO != cell.dO || !close(actual.scale, cell.scale)) {
        cmp.fail("sizes n=" + std::to_string(actual.n) + " m=" + std::to_string(actual.m) +
                 " d=" + std::to_string(actual.d) + " h=" + std::to_string(actual.h) +
                 " d_k=" + std::to_string(actual.dK) + " d_v=" + std::to_string(actual.dV) +
                 " d_o=" + std::to_string(actual.dO) + " s=" + precise(actual.scale));
        return cmp;
    }
    if (cell.direct) {
        if (!actual.X0.is_empty() || !actual.P.is_empty() || !actual.X.is_empty()) {
            cmp.fail("direct mode has X0, P or X");
        }
    } else {
        cmp.matrix("X0", actual.X0, cell.X0);
        cmp.matrix("P", actual.P, cell.P);
        cmp.matrix("X", actual.X, expected.X);
    }
    cmp.matrix("Q", actual.Q, expected.Q);
    cmp.matrix("K", actual.K, expected.K);
    cmp.matrix("V", actual.V, expected.V);
    compareHeads(cmp, cell, expected, actual);
    cmp.matrix("concat", actual.concat, expected.C);
    cmp.matrix("output", actual.output, expected.Y);
    compareWarnings(cmp, expected, actual);
    compareGradients(cmp, cell, expected, actual);
    return cmp;
}

bool identical(const arma::mat& a, const arma::mat& b) {
    return a.n_rows == b.n_rows && a.n_cols == b.n_cols &&
           std::equal(a.begin(), a.end(), b.begin(), [](double x, double y) {
               return x == y || (std::isnan(x) && std::isnan(y));
           });
}

// A reused engine and result must give bit for bit what fresh ones give.
bool sameAsFresh(const AttentionConfig& config, const AttentionResult& reused) {
    const AttentionResult fresh = AttentionEngine().compute(config, GradientCheck::Skip);
    bool same = identical(fresh.output, reused.output) && identical(fresh.grad.X, reused.grad.X) &&
                identical(fresh.grad.W_K, reused.grad.W_K) &&
                identical(fresh.grad.keys, reused.grad.keys) &&
                identical(fresh.grad.values, reused.grad.values) &&
                fresh.head.size() == reused.head.size() &&
                fresh.warnings.size() == reused.warnings.size();
    for (size_t i = 0; same && i < fresh.head.size(); ++i) {
        same = identical(fresh.head[i].weightsT, reused.head[i].weightsT) &&
               identical(fresh.head[i].scoresT, reused.head[i].scoresT) &&
               identical(fresh.head[i].context, reused.head[i].context);
    }
    return same;
}
} // namespace ref::cells
