// The forward pass after an edit of some token vectors:
// a token's vector is one row of X, so it changes one row of Q, K and V, and in each head one
// column of the key-major scores (the token as a query) and one row (the token as a key).
// Every query that may read a changed key renormalises its shares; the contexts and outputs
// of those queries are multiplied again. Queries that read no changed key (under a causal
// mask, those before the first changed token) keep everything.
//
// After an edit of one row of a projection's weights (or one entry of its bias) one column of
// Q, K, V or Y changes; a column of Q, K or V belongs to one head, whose scores, shares and
// context are computed again, and every output reads that context.
//
// Names as in attention_engine.cpp: n query rows, m = n key rows, h heads of width d_k
// (queries and keys) and d_v (values), R the changed rows, r0 = min R.
#include "core/math/attention_engine.h"

#include "core/math/attention_kernels.h"
#include "core/math/attention_mask.h"
#include "core/math/attention_widths.h"
#include "core/math/blas_view.h"

#include <algorithm>

namespace attnbook {
namespace {

// Whether `r` holds a forward pass of a configuration of exactly these shapes.
bool sameShapes(const AttentionResult& r, const AttentionShapes& s) {
    return !r.direct && r.n == s.n && r.m == s.m && r.d == s.d && r.h == s.h && r.dK == s.dK &&
           r.dV == s.dV && r.dO == s.dO && r.scale == s.scale && int(r.head.size()) == s.h &&
           r.X.n_rows == arma::uword(s.n) && r.Q.n_rows == arma::uword(s.n) &&
           r.concat.n_rows == arma::uword(s.n) && r.output.n_rows == arma::uword(s.n);
}

// rows (|R| × outputs) of `out` = in (|R| × inputs) · Wᵀ + b
void projectRows(const arma::mat& in, const Projection& proj, const arma::rowvec& bias, int outputs,
                 const arma::uvec& rows, arma::mat& out) {
    arma::mat projected;
    kernels::project(in, proj, bias, outputs, projected);
    out.rows(rows) = projected;
}

// The one of four things (Q's, K's, V's, the output's) that belongs to the product `which`.
template <class T> T& pick(AttentionEngine::Projected which, T& q, T& k, T& v, T& output) {
    using Projected = AttentionEngine::Projected;
    return which == Projected::Q   ? q
           : which == Projected::K ? k
           : which == Projected::V ? v
                                   : output;
}

// Labels, the focus and the settings a result reports follow the configuration; a renamed
// token's warnings too.
void relabel(const AttentionConfig& config, AttentionResult& r) {
    r.focus = config.focus;
    r.tokens = config.tokens;
    r.queryTokens = config.tokens;
    kernels::recordSettings(config, r);
    for (AttentionWarning& w : r.warnings) {
        w.message = kernels::blockedRowMessage(w.head, w.row, r.queryTokens);
    }
}

// The shapes of a configuration whose values were all finite when `r` was computed and of which
// only `changed` may differ since: the shape rules, and a scan of the changed values alone (a
// scan of every value, 2.4 million in GPT-2 small's shape, would cost more than the update).
// A changed value that is not finite gets resolveShapes' own refusal.
AttentionShapes shapesAfterEdit(const AttentionConfig& config, const arma::mat& changed,
                                const AttentionLimits& limits) {
    if (!changed.is_finite()) {
        return resolveShapes(config, limits);
    }
    return resolveWidths(config, config.heads, limits);
}

} // namespace

void AttentionEngine::updateProjectedColumn(const AttentionConfig& config, Projected which,
                                            int column, AttentionResult& r) {
    const Projection& proj = pick(which, config.wQ, config.wK, config.wV, config.wO);
    const arma::rowvec& bias = pick(which, config.bQ, config.bK, config.bV, config.bO);
    const auto c = arma::uword(column);
    const bool inWeights = !proj.identity && column >= 0 && c < proj.weights.n_rows;
    const bool inBias = column >= 0 && c < bias.n_elem;
    // The edited row of W and entry of b: (1 × inputs + 1)
    const arma::mat changed =
        arma::join_rows(inWeights ? arma::mat(proj.weights.row(c)) : arma::mat(),
                        inBias ? arma::mat{bias(c)} : arma::mat());
    const AttentionShapes s = shapesAfterEdit(config, changed, limits_);
    const KeyMask mask(s.n, s.m, config.mask, config.padding);
    const int width = which == Projected::Output ? s.dO
                      : which == Projected::V    ? s.h * s.dV
                                                 : s.h * s.dK;
    if (config.direct || column < 0 || column >= width || !sameShapes(r, s) ||
        config.X0.n_rows != r.X.n_rows) {
        forward(config, r); // resolves the shapes with the scan of every value
        return;
    }
    relabel(config, r);
    const arma::mat& in = which == Projected::Output ? r.concat : r.X; // (n × inputs)
    arma::mat& out = pick(which, r.Q, r.K, r.V, r.output);
    if (proj.identity) {
        out.col(c) = in.col(c);
    } else {
        // out[:, c] (n × 1) = in (n × inputs) · W[c, :]ᵀ (inputs × 1)
        out.col(c) = in * proj.weights.row(c).t();
    }
    if (!bias.is_empty()) {
        out.col(c) += bias(c);
    }
    if (which != Projected::Output) {
        const int head = which == Projected::V ? column / s.dV : column / s.dK;
        // The mask did not change, so neither did which rows read nothing (nor their warnings).
        kernels::headForward(s, mask, false, head, r, nullptr);
        // Y (n × d_o) = C (n × h·d_v) · W_Oᵀ + b_O: every output reads the head's context
        kernels::project(r.concat, config.wO, config.bO, s.dO, r.output);
        kernels::requireFiniteValues(r.concat, false, "the context");
    }
    kernels::requireFiniteValues(r.output, false, "the output");
}

void AttentionEngine::updateAttention(const AttentionConfig& config, AttentionResult& r) {
    // Nothing a value is read from changed, so the shape rules alone (no scan of the values).
    const AttentionShapes s = resolveWidths(config, config.heads, limits_);
    if (config.direct || r.direct || r.n != s.n || r.m != s.m || r.d != s.d || r.dO != s.dO ||
        r.Q.n_rows != arma::uword(s.n) || r.Q.n_cols != arma::uword(s.h * s.dK) ||
        r.K.n_cols != arma::uword(s.h * s.dK) || r.V.n_cols != arma::uword(s.h * s.dV) ||
        config.X0.n_rows != r.X.n_rows) {
        forward(config, r); // resolves the shapes with the scan of every value
        return;
    }
    const KeyMask mask(s.n, s.m, config.mask, config.padding);
    r.h = s.h;
    r.dK = s.dK;
    r.dV = s.dV;
    r.scale = s.scale;
    relabel(config, r);
    attentionPass(config, s, mask, r);
}

void AttentionEngine::updateRows(const AttentionConfig& config, const std::vector<int>& changed,
                                 AttentionResult& r) {
    std::vector<int> rowList = changed;
    std::sort(rowList.begin(), rowList.end());
    rowList.erase(std::unique(rowList.begin(), rowList.end()), rowList.end());
    const bool inRange = !config.direct && !rowList.empty() && rowList.front() >= 0 &&
                         arma::uword(rowList.back()) < config.X0.n_rows;
    const AttentionShapes s =
        inRange ? shapesAfterEdit(config, config.X0.rows(arma::conv_to<arma::uvec>::from(rowList)),
                                  limits_)
                : resolveShapes(config, limits_);
    const KeyMask mask(s.n, s.m, config.mask, config.padding);
    if (config.direct || !inRange || !sameShapes(r, s) || config.X0.n_rows != r.X.n_rows) {
        forward(config, r); // resolves the shapes with the scan of every value
        return;
    }
    relabel(config, r);

    // The changed rows of X (|R| × d), Q, K (|R| × h·d_k) and V (|R| × h·d_v). P keeps its
    // rows: the positions did not move.
    const arma::uvec rows = arma::conv_to<arma::uvec>::from(rowList);
    r.X0.rows(rows) = config.X0.rows(rows);
    r.X.rows(rows) = r.X0.rows(rows) + r.P.rows(rows);
    const arma::mat changedX = r.X.rows(rows);
    projectRows(changedX, config.wQ, config.bQ, s.h * s.dK, rows, r.Q);
    projectRows(changedX, config.wK, config.bK, s.h * s.dK, rows, r.K);
    projectRows(changedX, config.wV, config.bV, s.h * s.dV, rows, r.V);

    // The first query that may read a changed key: readableEnd() only grows with the row.
    const int r0 = rowList.front();
    int firstReader = 0;
    while (firstReader < s.n && mask.readableEnd(firstReader) <= r0) {
        ++firstReader;
    }
    const BlasView q = BlasView::of(r.Q), k = BlasView::of(r.K), v = BlasView::of(r.V);
    const BlasView concat = BlasView::of(r.concat);
    const int blockRows = kernels::blockRowsFor(s.n);

    for (int i = 0; i < s.h; ++i) {
        HeadResult& head = r.head[size_t(i)];
        const BlasView scoresT = BlasView::of(head.scoresT);
        const BlasView weightsT = BlasView::of(head.weightsT);
        // This head's slices: Q_i (n × d_k), K_i (m × d_k), V_i (m × d_v).
        const BlasView qi = q.columns(arma::uword(i * s.dK), arma::uword(s.dK));
        const BlasView ki = k.columns(arma::uword(i * s.dK), arma::uword(s.dK));
        const BlasView vi = v.columns(arma::uword(i * s.dV), arma::uword(s.dV));
        const BlasView hi = concat.columns(arma::uword(i * s.dV), arma::uword(s.dV));

        for (const int row : rowList) {
            // The token as a query, one column: (keys × 1) = s · K_i[0:keys] · Q_i[row]ᵀ
            const arma::uword keys = arma::uword(mask.readableEnd(row));
            gemm(Op::None, Op::Transpose, s.scale, ki.rowRange(0, keys),
                 qi.rowRange(arma::uword(row), 1), 0.0,
                 scoresT.block(0, arma::uword(row), keys, 1));
        }
        for (const int key : rowList) {
            // The token as a key, one row over the queries that may read it:
            // (1 × readers) = s · K_i[key] · Q_i[first:n]ᵀ
            int first = firstReader;
            while (first < s.n && mask.readableEnd(first) <= key) {
                ++first;
            }
            const arma::uword readers = arma::uword(s.n - first);
            gemm(Op::None, Op::Transpose, s.scale, ki.rowRange(arma::uword(key), 1),
                 qi.rowRange(arma::uword(first), readers), 0.0,
                 scoresT.block(arma::uword(key), arma::uword(first), 1, readers));
        }
        // Every query that reads a changed key (or is one) renormalises its shares; the
        // mask did not change, so neither did which rows read nothing (nor their warnings).
        for (int row = firstReader; row < s.n; ++row) {
            kernels::softmaxColumn(head.scoresT.colptr(arma::uword(row)),
                                   head.weightsT.colptr(arma::uword(row)), s.m,
                                   mask.readableEnd(row), mask, row, false);
        }
        // Contexts of those queries, in the forward pass's row blocks:
        // (rows × d_v) = A (rows × keys) · V_i[0:keys] (keys × d_v)
        for (int b0 = firstReader; b0 < s.n; b0 += blockRows) {
            const int count = std::min(blockRows, s.n - b0);
            const arma::uword keys = arma::uword(mask.readableEnd(b0 + count - 1));
            gemm(Op::Transpose, Op::None, 1.0,
                 weightsT.block(0, arma::uword(b0), keys, arma::uword(count)), vi.rowRange(0, keys),
                 0.0, hi.rowRange(arma::uword(b0), arma::uword(count)));
        }
        if (firstReader < s.n) {
            // (n − first) × d_v, the head's own copy for the views
            head.context.rows(arma::uword(firstReader), arma::uword(s.n - 1)) =
                r.concat.submat(arma::uword(firstReader), arma::uword(i * s.dV),
                                arma::uword(s.n - 1), arma::uword((i + 1) * s.dV - 1));
        }
    }

    if (firstReader < s.n) {
        // Y[first:n] (rows × d_o) = C[first:n] (rows × h·d_v) · W_Oᵀ + b_O
        const arma::span readers(arma::uword(firstReader), arma::uword(s.n - 1));
        arma::mat output;
        kernels::project(r.concat.rows(readers), config.wO, config.bO, s.dO, output);
        r.output.rows(readers) = output;
    }
    kernels::requireFiniteValues(r.concat, false, "the context");
    kernels::requireFiniteValues(r.output, false, "the output");
}

} // namespace attnbook
