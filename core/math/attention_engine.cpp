#include "core/math/attention_engine.h"

#include "core/math/attention_kernels.h"
#include "core/math/attention_mask.h"
#include "core/math/blas_view.h"
#include "core/math/gradient_check.h"
#include "core/math/positional_encoding.h"
#include "core/math/vector_kernels.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attnbook {
namespace kernels {

namespace {

constexpr double kBlocked = -std::numeric_limits<double>::infinity();

} // namespace

void project(const arma::mat& in, const Projection& proj, const arma::rowvec& bias, int outputs,
             arma::mat& out) {
    if (proj.identity) {
        out = in;
    } else {
        out.set_size(in.n_rows, arma::uword(outputs));
        gemm(Op::None, Op::Transpose, 1.0, BlasView::of(in), BlasView::of(proj.weights), 0.0,
             BlasView::of(out));
    }
    if (!bias.is_empty()) {
        out.each_row() += bias;
    }
}

namespace {

// The identity as written (`identity`, or no key), or a square matrix with ones on its
// diagonal and zeros elsewhere: what a reader's edit of an identity's entry writes out and
// may set back. Stops at the first entry that differs, which in a trained matrix is the first.
bool isIdentity(const Projection& p) {
    if (p.identity) {
        return true;
    }
    const arma::mat& w = p.weights;
    if (w.n_rows != w.n_cols || w.is_empty()) {
        return false;
    }
    for (arma::uword c = 0; c < w.n_cols; ++c) {
        for (arma::uword r = 0; r < w.n_rows; ++r) {
            if (w(r, c) != (r == c ? 1.0 : 0.0)) {
                return false;
            }
        }
    }
    return true;
}

} // namespace

void recordSettings(const AttentionConfig& config, AttentionInputs& r) {
    r.mask = config.mask;
    r.padding = config.padding;
    r.padding.resize(size_t(r.m), false);
    const Projection* projections[] = {&config.wQ, &config.wK, &config.wV, &config.wO};
    for (size_t i = 0; i < r.identity.size(); ++i) {
        r.identity[i] = !config.direct && isIdentity(*projections[i]);
    }
}

std::string blockedRowMessage(int head, int row, const std::vector<std::string>& labels) {
    const std::string name = row >= 0 && size_t(row) < labels.size()
                                 ? " ('" + labels[size_t(row)] + "')"
                                 : std::string();
    return "head " + std::to_string(head) + ", row " + std::to_string(row) + name +
           ": every token is blocked, so its shares and context are 0";
}

void refuseOverflow(bool direct, const std::string& what, int row) {
    throw InvalidConfig(ConfigError{direct ? "queries" : "X",
                                    what + " overflowed: the inputs are too large to compute with",
                                    row, -1});
}

void requireFiniteValues(const arma::mat& m, bool direct, const char* what) {
    if (!vec::allFinite(m.memptr(), m.n_elem)) {
        refuseOverflow(direct, what, -1);
    }
}

bool softmaxColumn(double* scores, double* shares, int m, int readableEnd, const KeyMask& mask,
                   int row, bool direct) {
    vec::ColumnMaximum maximum{kBlocked, true};
    if (mask.hasPadding()) { // blocked keys become −∞ and take no part in the check
        for (int c = 0; c < readableEnd; ++c) {
            if (mask.blocks(row, c)) {
                scores[c] = kBlocked;
            } else {
                maximum.finite = maximum.finite && std::isfinite(scores[c]);
                maximum.value = std::max(maximum.value, scores[c]);
            }
        }
    } else {
        maximum = vec::maximum(scores, readableEnd);
    }
    if (!maximum.finite) {
        refuseOverflow(direct, "the scores", row);
    }
    std::fill(scores + readableEnd, scores + m, kBlocked);
    std::fill(shares + readableEnd, shares + m, 0.0);
    if (maximum.value == kBlocked) {
        std::fill(shares, shares + readableEnd, 0.0);
        return false;
    }
    // exp(−∞) = 0 for blocked keys; total ≥ 1: the maximum contributes exp(0)
    const double total = vec::expShifted(scores, shares, readableEnd, maximum.value);
    vec::scale(shares, readableEnd, 1.0 / total);
    return true;
}

void headForward(const AttentionShapes& s, const KeyMask& mask, bool direct, int i,
                 AttentionResult& r, std::vector<AttentionWarning>* blocked) {
    HeadResult& head = r.head[size_t(i)];
    head.scoresT.set_size(arma::uword(s.m), arma::uword(s.n));
    head.weightsT.set_size(arma::uword(s.m), arma::uword(s.n));
    const BlasView scoresT = BlasView::of(head.scoresT);
    const BlasView weightsT = BlasView::of(head.weightsT);
    // This head's slices: Q_i (n × d_k), K_i (m × d_k), V_i (m × d_v), its context H_i (n × d_v).
    const BlasView qi = BlasView::of(r.Q).columns(arma::uword(i * s.dK), arma::uword(s.dK));
    const BlasView ki = BlasView::of(r.K).columns(arma::uword(i * s.dK), arma::uword(s.dK));
    const BlasView vi = BlasView::of(r.V).columns(arma::uword(i * s.dV), arma::uword(s.dV));
    const BlasView hi = BlasView::of(r.concat).columns(arma::uword(i * s.dV), arma::uword(s.dV));
    const int blockRows = blockRowsFor(s.n);

    for (int r0 = 0; r0 < s.n; r0 += blockRows) {
        const int rows = std::min(blockRows, s.n - r0);
        const int keys = mask.readableEnd(r0 + rows - 1); // the widest row of the block
        // Scores, key-major (keys × rows) = s · K_i[0:keys] (keys × d_k) · Q_iᵀ (d_k × rows)
        gemm(Op::None, Op::Transpose, s.scale, ki.rowRange(0, keys), qi.rowRange(r0, rows), 0.0,
             scoresT.block(0, arma::uword(r0), arma::uword(keys), arma::uword(rows)));
        for (int row = r0; row < r0 + rows; ++row) {
            const bool readsSomething = softmaxColumn(head.scoresT.colptr(arma::uword(row)),
                                                      head.weightsT.colptr(arma::uword(row)), s.m,
                                                      mask.readableEnd(row), mask, row, direct);
            if (!readsSomething && blocked) {
                blocked->push_back(
                    {"blocked-row", i, row, blockedRowMessage(i, row, r.queryTokens)});
            }
        }
        // Context (rows × d_v) = A (rows × keys) · V_i[0:keys] (keys × d_v)
        gemm(Op::Transpose, Op::None, 1.0,
             weightsT.block(0, arma::uword(r0), arma::uword(keys), arma::uword(rows)),
             vi.rowRange(0, arma::uword(keys)), 0.0,
             hi.rowRange(arma::uword(r0), arma::uword(rows)));
    }
    // (n × d_v), the head's own copy for the views
    head.context = r.concat.cols(arma::uword(i * s.dV), arma::uword((i + 1) * s.dV - 1));
}

} // namespace kernels

namespace {

using kernels::blockRowsFor;
using kernels::project;
using kernels::requireFiniteValues;
using kernels::softmaxColumn;

// out (1 × cols) = the sum of each column of m, into out's own memory.
void columnSums(const arma::mat& m, arma::rowvec& out) {
    out.set_size(m.n_cols);
    for (arma::uword c = 0; c < m.n_cols; ++c) {
        const double* column = m.colptr(c);
        double sum = 0.0;
        for (arma::uword r = 0; r < m.n_rows; ++r) {
            sum += column[r];
        }
        out[c] = sum;
    }
}

// The gradients are finite when every input is, unless a product overflows.
void requireFiniteGradients(const AttentionGradients& g, bool direct) {
    const arma::mat* matrices[] = {&g.X,   &g.W_Q,     &g.W_K,  &g.W_V,
                                   &g.W_O, &g.queries, &g.keys, &g.values};
    const arma::rowvec* biases[] = {&g.b_Q, &g.b_K, &g.b_V, &g.b_O};
    for (const arma::mat* m : matrices) {
        requireFiniteValues(*m, direct, "the gradients");
    }
    for (const arma::rowvec* b : biases) {
        requireFiniteValues(*b, direct, "the gradients");
    }
}

} // namespace

AttentionResult AttentionEngine::compute(const AttentionConfig& config, GradientCheck check) {
    AttentionResult result;
    compute(config, result, check);
    return result;
}

void AttentionEngine::compute(const AttentionConfig& config, AttentionResult& result,
                              GradientCheck check) {
    const AttentionShapes shapes = resolveShapes(config, limits_);
    const KeyMask mask(shapes.n, shapes.m, config.mask, config.padding);
    forwardPass(config, shapes, mask, result);
    backwardPass(config, shapes, mask, result);
    result.gradcheck = check == GradientCheck::Run ? gradientCheck(config, result, limits_)
                                                   : GradientCheckReport{};
}

void AttentionEngine::forward(const AttentionConfig& config, AttentionResult& result) {
    const AttentionShapes shapes = resolveShapes(config, limits_);
    const KeyMask mask(shapes.n, shapes.m, config.mask, config.padding);
    forwardPass(config, shapes, mask, result);
}

void AttentionEngine::backward(const AttentionConfig& config, AttentionResult& result,
                               GradientCheck check) {
    const AttentionShapes shapes = resolveShapes(config, limits_);
    const KeyMask mask(shapes.n, shapes.m, config.mask, config.padding);
    backwardPass(config, shapes, mask, result);
    result.gradcheck = check == GradientCheck::Run ? gradientCheck(config, result, limits_)
                                                   : GradientCheckReport{};
}

void AttentionEngine::forwardPass(const AttentionConfig& config, const AttentionShapes& s,
                                  const KeyMask& mask, AttentionResult& r) {
    r.direct = config.direct;
    r.n = s.n;
    r.m = s.m;
    r.d = s.d;
    r.h = s.h;
    r.dK = s.dK;
    r.dV = s.dV;
    r.dO = s.dO;
    r.scale = s.scale;
    r.focus = config.focus;
    r.tokens = config.tokens;
    r.queryTokens = config.direct ? config.queryTokens : config.tokens;
    kernels::recordSettings(config, r);
    if (config.direct) {
        r.X0.reset();
        r.P.reset();
        r.X.reset();
        r.Q = config.queries; // (n × h·d_k)
        r.K = config.keys;    // (m × h·d_k)
        r.V = config.values;  // (m × h·d_v)
    } else {
        r.X0 = config.X0; // (n × d)
        switch (config.positional) {
        case PositionalKind::None:
            r.P.zeros(arma::uword(s.n), arma::uword(s.d));
            break;
        case PositionalKind::Sinusoidal:
            r.P = sinusoidalEncoding(arma::uword(s.n), arma::uword(s.d));
            break;
        case PositionalKind::Learned:
            r.P = config.learnedP;
            break;
        }
        r.X = r.X0 + r.P; // (n × d)
        // Q, K (n × h·d_k) and V (n × h·d_v): X (n × d) · Wᵀ (d × width) + b
        project(r.X, config.wQ, config.bQ, s.h * s.dK, r.Q);
        project(r.X, config.wK, config.bK, s.h * s.dK, r.K);
        project(r.X, config.wV, config.bV, s.h * s.dV, r.V);
    }

    attentionPass(config, s, mask, r);
}

void AttentionEngine::attentionPass(const AttentionConfig& config, const AttentionShapes& s,
                                    const KeyMask& mask, AttentionResult& r) {
    r.warnings.clear();
    r.concat.set_size(arma::uword(s.n), arma::uword(s.h * s.dV));
    r.head.resize(size_t(s.h));
    for (int i = 0; i < s.h; ++i) {
        kernels::headForward(s, mask, config.direct, i, r, &r.warnings);
    }

    if (config.direct) {
        r.output = r.concat; // (n × h·d_v): direct mode has no output projection
    } else {
        // Y (n × d_o) = C (n × h·d_v) · W_Oᵀ (h·d_v × d_o) + b_O
        project(r.concat, config.wO, config.bO, s.dO, r.output);
    }
    // Finite scores give finite shares, but V or W_O can still overflow.
    requireFiniteValues(r.concat, config.direct, "the context");
    requireFiniteValues(r.output, config.direct, "the output");
}

namespace {

// Every head's G_Q, G_K, G_V from G_C (n × h·d_v), block of query rows by block of rows, into
// `gradQ` (n × h·d_k), `gradK` (m × h·d_k), `gradV` (m × h·d_v); `gradScoresT` is scratch.
void headsBackward(const AttentionShapes& s, const KeyMask& mask, const AttentionResult& r,
                   const arma::mat& gradConcat, arma::mat& gradScoresT, arma::mat& gradQ,
                   arma::mat& gradK, arma::mat& gradV) {
    const int blockRows = blockRowsFor(s.n);
    // One block's G_A, overwritten by its G_S: (m × block rows), reused by every block.
    gradScoresT.set_size(arma::uword(s.m), arma::uword(std::min(blockRows, s.n)));
    gradQ.set_size(arma::uword(s.n), arma::uword(s.h * s.dK));
    gradK.zeros(arma::uword(s.m), arma::uword(s.h * s.dK)); // accumulated over row blocks
    gradV.zeros(arma::uword(s.m), arma::uword(s.h * s.dV)); // accumulated over row blocks
    const BlasView q = BlasView::of(r.Q), k = BlasView::of(r.K), v = BlasView::of(r.V);
    const BlasView gc = BlasView::of(gradConcat);
    const BlasView gq = BlasView::of(gradQ), gk = BlasView::of(gradK), gv = BlasView::of(gradV);
    const BlasView gsT = BlasView::of(gradScoresT);

    for (int i = 0; i < s.h; ++i) {
        const HeadResult& head = r.head[size_t(i)];
        const BlasView aT = BlasView::of(head.weightsT);
        const auto kCols = [&](const BlasView& m) {
            return m.columns(arma::uword(i * s.dK), arma::uword(s.dK));
        };
        const auto vCols = [&](const BlasView& m) {
            return m.columns(arma::uword(i * s.dV), arma::uword(s.dV));
        };
        for (int r0 = 0; r0 < s.n; r0 += blockRows) {
            const arma::uword rows = arma::uword(std::min(blockRows, s.n - r0));
            const arma::uword keys = arma::uword(mask.readableEnd(r0 + int(rows) - 1));
            const arma::uword first = arma::uword(r0);
            if (keys == 0) { // nothing readable: these rows pass no gradient back
                for (arma::uword c = 0; c < arma::uword(s.dK); ++c) {
                    for (arma::uword rr = 0; rr < rows; ++rr) {
                        kCols(gq).at(first + rr, c) = 0.0;
                    }
                }
                continue;
            }
            const BlasView aBlock = aT.block(0, first, keys, rows);
            const BlasView gsBlock = gsT.block(0, 0, keys, rows);
            const BlasView gHi = vCols(gc).rowRange(first, rows);
            // G_A, key-major (keys × rows) = V_i[0:keys] (keys × d_v) · G_H_iᵀ (d_v × rows)
            gemm(Op::None, Op::Transpose, 1.0, vCols(v).rowRange(0, keys), gHi, 0.0, gsBlock);
            // G_S = A ⊙ (G_A − rowsum(G_A ⊙ A)) in place of G_A, one query (column) at a
            // time; blocked entries have A = 0 and so get 0.
            for (arma::uword col = 0; col < rows; ++col) {
                vec::softmaxBackward(&aBlock.at(0, col), &gsBlock.at(0, col), int(keys));
            }
            // G_V_i[0:keys] (keys × d_v) += Aᵀ block (keys × rows) · G_H_i (rows × d_v)
            gemm(Op::None, Op::None, 1.0, aBlock, gHi, 1.0, vCols(gv).rowRange(0, keys));
            // G_Q_i (rows × d_k) = s · G_S (rows × keys) · K_i[0:keys] (keys × d_k)
            gemm(Op::Transpose, Op::None, s.scale, gsBlock, kCols(k).rowRange(0, keys), 0.0,
                 kCols(gq).rowRange(first, rows));
            // G_K_i[0:keys] (keys × d_k) += s · G_Sᵀ (keys × rows) · Q_i (rows × d_k)
            gemm(Op::None, Op::None, s.scale, gsBlock, kCols(q).rowRange(first, rows), 1.0,
                 kCols(gk).rowRange(0, keys));
        }
    }
}

// The projections' gradients from G_Q, G_K, G_V (projection mode): ∂L/∂W and ∂L/∂b of each
// projection and ∂L/∂X, with `concat` C (n × h·d_v) and `X` (n × d) from the forward pass.
void projectionGradients(const AttentionConfig& config, const AttentionShapes& s,
                         const arma::mat& concat, const arma::mat& X, const arma::mat& gradQ,
                         const arma::mat& gradK, const arma::mat& gradV, AttentionGradients& g) {
    g.queries.reset(), g.keys.reset(), g.values.reset();
    // Into the result's own matrices, which keep their memory between calls
    // of one size (no temporaries).
    const auto product = [](Op opA, const arma::mat& a, const arma::mat& b, double beta,
                            arma::mat& out) {
        gemm(opA, Op::None, 1.0, BlasView::of(a), BlasView::of(b), beta, BlasView::of(out));
    };
    // ∂L/∂W_O (d_o × h·d_v) = G_Yᵀ (d_o × n) · C (n × h·d_v)
    g.W_O.set_size(arma::uword(s.dO), arma::uword(s.h * s.dV));
    product(Op::Transpose, g.upstream, concat, 0.0, g.W_O);
    columnSums(g.upstream, g.b_O);
    // ∂L/∂W (width × d) = G_Wᵀ (width × n) · X (n × d), for W = W_Q, W_K, W_V
    g.W_Q.set_size(gradQ.n_cols, arma::uword(s.d));
    g.W_K.set_size(gradK.n_cols, arma::uword(s.d));
    g.W_V.set_size(gradV.n_cols, arma::uword(s.d));
    product(Op::Transpose, gradQ, X, 0.0, g.W_Q);
    product(Op::Transpose, gradK, X, 0.0, g.W_K);
    product(Op::Transpose, gradV, X, 0.0, g.W_V);
    columnSums(gradQ, g.b_Q);
    columnSums(gradK, g.b_K);
    columnSums(gradV, g.b_V);
    // ∂L/∂X (n × d) = G_Q W_Q + G_K W_K + G_V W_V   (an identity W contributes G itself)
    const auto addBack = [&](const arma::mat& grad, const Projection& proj) {
        if (proj.identity) {
            g.X += grad;
        } else {
            product(Op::None, grad, proj.weights, 1.0, g.X);
        }
    };
    g.X.zeros(arma::uword(s.n), arma::uword(s.d));
    addBack(gradQ, config.wQ);
    addBack(gradK, config.wK);
    addBack(gradV, config.wV);
    requireFiniteGradients(g, false);
}

} // namespace

void AttentionEngine::backwardPass(const AttentionConfig& config, const AttentionShapes& s,
                                   const KeyMask& mask, AttentionResult& r) {
    AttentionGradients& g = r.grad;
    if (config.upstream) {
        g.upstream = *config.upstream; // G_Y (n × d_o)
    } else {
        g.upstream.ones(arma::uword(s.n), arma::uword(s.dO));
    }

    if (config.direct || config.wO.identity) {
        gradConcat_ = g.upstream; // G_C = G_Y when W_O is identity (or absent)
    } else {
        // G_C (n × h·d_v) = G_Y (n × d_o) · W_O (d_o × h·d_v)
        gradConcat_.set_size(arma::uword(s.n), arma::uword(s.h * s.dV));
        gemm(Op::None, Op::None, 1.0, BlasView::of(g.upstream), BlasView::of(config.wO.weights),
             0.0, BlasView::of(gradConcat_));
    }

    headsBackward(s, mask, r, gradConcat_, gradScoresT_, gradQ_, gradK_, gradV_);

    if (config.direct) {
        // Hand the gradients over; their old buffers become the next call's scratch.
        g.queries.swap(gradQ_);
        g.keys.swap(gradK_);
        g.values.swap(gradV_);
        g.X.reset();
        g.W_Q.reset(), g.W_K.reset(), g.W_V.reset(), g.W_O.reset();
        g.b_Q.reset(), g.b_K.reset(), g.b_V.reset(), g.b_O.reset();
        requireFiniteGradients(g, true);
        return;
    }
    projectionGradients(config, s, r.concat, r.X, gradQ_, gradK_, gradV_, g);
}

} // namespace attnbook
