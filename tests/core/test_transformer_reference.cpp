// A deliberately slow, loop-only transformer written from transformer.md and attention.md
// alone, beside the engine (as test_attention_reference.cpp keeps one for a single attention
// layer). It shares no code with core/: plain row-major std::vector loops in long double, no
// Armadillo products; core/ only builds the configuration and is read for its results.
//
//   - 100 random cells: every stage of the forward pass to 1e-12 and every gradient to 1e-10,
//     the reference's own backward against central differences of its loss, and the engine's
//     gradient check passing on each;
//   - generation with the key/value cache against full recomputes, its costs and splitmix64;
//   - attention in blocks against the plain softmax path;
//   - the worked numbers of transformer.md and the configurations it refuses.
//
// Names as in transformer.md: n tokens, d model width, L layers, d_ff the FFN's hidden width,
// V words; per layer h heads of widths d_k and d_v.
// Longer than 500 lines on purpose: the reference must stand alone, so every stage of the slow
// decoder (forward, backward, cache, blocks) is written out here, beside the cases.
#include "core/math/blockwise_attention.h"
#include "core/math/transformer_engine.h"
#include "core/math/transformer_knockouts.h"
#include "core/math/transformer_training.h"

#include "test_support.h"

#include <cstdint>
#include <cstdio>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace attnbook;

namespace tref {

// Long double: the reference is then closer to exact than the engine, and its central
// differences (below) are accurate to about 1e-10.
using Real = long double;

const Real kMinusInf = -std::numeric_limits<Real>::infinity();
const Real kPi = 3.141592653589793238462643383279502884L;

// A row-major matrix: entry (r, c) at v[r·cols + c]. A vector is one row.
struct Matrix {
    int rows = 0;
    int cols = 0;
    std::vector<Real> v;

    Matrix() = default;
    Matrix(int r, int c, Real fill = 0) : rows(r), cols(c), v(size_t(r) * size_t(c), fill) {}
    Real& at(int r, int c) { return v[size_t(r) * size_t(cols) + size_t(c)]; }
    Real at(int r, int c) const { return v[size_t(r) * size_t(cols) + size_t(c)]; }
};

Matrix identity(int size) {
    Matrix m(size, size);
    for (int i = 0; i < size; ++i) {
        m.at(i, i) = 1;
    }
    return m;
}

enum class Act { Gelu, GeluTanh, Relu };

// LN(x) = γ ⊙ (x − μ) / √(σ² + ε) + β, with γ and β spelled out (ones and zeros by default).
struct Norm {
    bool identity = false;
    Matrix gamma, beta; // (1 × d)
};

// One layer's attention with every default spelled out: identity weights as matrices,
// absent biases as zeros, the scale as the multiplier s.
struct Attention {
    int h = 1, dK = 1, dV = 1;
    Real scale = 1;
    bool causal = false;
    std::vector<bool> padding; // n flags, or empty: none
    Matrix WQ, WK;             // (h·d_k × d)
    Matrix WV;                 // (h·d_v × d)
    Matrix WO;                 // (d × h·d_v)
    Matrix bQ, bK, bV, bO;     // (1 × h·d_k), (1 × h·d_k), (1 × h·d_v), (1 × d)
};

// F = act(G W₁ᵀ + b₁) W₂ᵀ + b₂; absent: F = 0.
struct Ffn {
    bool present = false;
    Act act = Act::Gelu;
    Matrix W1, b1; // (d_ff × d), (1 × d_ff)
    Matrix W2, b2; // (d × d_ff), (1 × d)
};

struct Layer {
    Attention att;
    Norm ln1, ln2;
    Ffn ffn;
};

// One cell as the model that actually runs: the `run` switches already applied (only the
// first k layers, identity norms when norm is off, no FFN when ffn is off).
struct Cell {
    int n = 0, d = 0, V = 0;
    Matrix X0, P; // (n × d)
    bool tied = false;
    std::vector<int> tokenWords; // tied: each token's row of the vocab
    std::vector<Layer> layers;
    Norm finalLn;
    Real eps = 0;
    Matrix U, bU; // (V × d), the vocab when tied; (1 × V)
    Real T = 1;
    std::vector<int> targets; // n word indices (−1: none), or empty: no targets
    Matrix upstream;          // (n × V) ∂L/∂logits when there are no targets
};

// ---------------------------------------------------------------------------
// Forward

struct NormOut {
    Matrix out, xhat; // (n × d); xhat empty for the identity
    Matrix invStd;    // (n × 1) 1 / √(σ² + ε)
};

struct Head {
    Matrix S; // (n × n) scaled scores, −∞ where blocked
    Matrix A; // (n × n) shares
    Matrix H; // (n × d_v) context
};

struct AttentionOut {
    Matrix Q, K, V; // (n × h·d_k), (n × h·d_k), (n × h·d_v)
    std::vector<Head> heads;
    Matrix C, Y; // (n × h·d_v), (n × d)
};

struct LayerOut {
    Matrix input; // (n × d) Xˡ⁻¹
    NormOut ln1;  // H
    AttentionOut att;
    Matrix resid1;   // (n × d) R
    NormOut ln2;     // G
    Matrix pre, act; // (n × d_ff); empty without an FFN
    Matrix ffnOut;   // (n × d) F
    Matrix resid2;   // (n × d) Xˡ
};

struct Forward {
    Matrix X; // (n × d) X⁰ = X0 + P
    std::vector<LayerOut> layers;
    NormOut finalLn;      // Z
    Matrix logits, probs; // (n × V)
    Real loss = 0;        // the cross-entropy, or Σ upstream ⊙ logits
};

// P[pos][2i] = sin(pos / 10000^(2i/d)), P[pos][2i+1] = cos(the same).
Matrix sinusoidal(int n, int d) {
    Matrix p(n, d);
    for (int pos = 0; pos < n; ++pos) {
        for (int i = 0; 2 * i < d; ++i) {
            const Real angle = pos / std::pow(10000.0L, Real(2 * i) / Real(d));
            p.at(pos, 2 * i) = std::sin(angle);
            if (2 * i + 1 < d) {
                p.at(pos, 2 * i + 1) = std::cos(angle);
            }
        }
    }
    return p;
}

// out (rows × outputs) = in (rows × inputs) · Wᵀ + b, W (outputs × inputs), b (1 × outputs)
Matrix project(const Matrix& in, const Matrix& w, const Matrix& b) {
    Matrix out(in.rows, w.rows);
    for (int r = 0; r < in.rows; ++r) {
        for (int o = 0; o < w.rows; ++o) {
            Real sum = b.v[size_t(o)];
            for (int c = 0; c < in.cols; ++c) {
                sum += in.at(r, c) * w.at(o, c);
            }
            out.at(r, o) = sum;
        }
    }
    return out;
}

Matrix plus(const Matrix& a, const Matrix& b) {
    Matrix out = a;
    for (size_t e = 0; e < out.v.size(); ++e) {
        out.v[e] += b.v[e];
    }
    return out;
}

NormOut normForward(const Matrix& x, const Norm& norm, Real eps) {
    NormOut o;
    if (norm.identity) {
        o.out = x;
        return o;
    }
    const int d = x.cols;
    o.out = o.xhat = Matrix(x.rows, d);
    o.invStd = Matrix(x.rows, 1);
    for (int r = 0; r < x.rows; ++r) {
        Real mean = 0;
        for (int c = 0; c < d; ++c) {
            mean += x.at(r, c);
        }
        mean /= d;
        Real variance = 0; // the population variance: divide by d
        for (int c = 0; c < d; ++c) {
            variance += (x.at(r, c) - mean) * (x.at(r, c) - mean);
        }
        variance /= d;
        const Real inv = 1 / std::sqrt(variance + eps);
        o.invStd.at(r, 0) = inv;
        for (int c = 0; c < d; ++c) {
            o.xhat.at(r, c) = (x.at(r, c) - mean) * inv;
            o.out.at(r, c) = norm.gamma.v[size_t(c)] * o.xhat.at(r, c) + norm.beta.v[size_t(c)];
        }
    }
    return o;
}

// Row r reads key c unless c lies in its future (causal) or c is padding.
bool readable(const Attention& a, int r, int c) {
    if (a.causal && c > r) {
        return false;
    }
    return a.padding.empty() || !a.padding[size_t(c)];
}

// A knock-out as transformer.md's "Knock-outs" words it: the part's output is taken away.
struct Removal {
    enum class Kind { None, Head, Attention, Ffn, Block };
    Kind kind = Kind::None;
    int layer = -1;
    int head = -1;
};

// attention.md's forward with H as its X; head `silenced` (if any) has its context rows set to
// zero before W_O, b_O still added.
AttentionOut attentionForward(const Matrix& H, const Attention& a, int silenced = -1) {
    AttentionOut o;
    const int n = H.rows;
    o.Q = project(H, a.WQ, a.bQ);
    o.K = project(H, a.WK, a.bK);
    o.V = project(H, a.WV, a.bV);
    o.C = Matrix(n, a.h * a.dV);
    for (int i = 0; i < a.h; ++i) {
        Head head{Matrix(n, n), Matrix(n, n), Matrix(n, a.dV)};
        for (int r = 0; r < n; ++r) {
            Real maximum = kMinusInf;
            for (int c = 0; c < n; ++c) {
                Real dot = 0;
                for (int t = 0; t < a.dK; ++t) {
                    dot += o.Q.at(r, i * a.dK + t) * o.K.at(c, i * a.dK + t);
                }
                head.S.at(r, c) = readable(a, r, c) ? a.scale * dot : kMinusInf;
                maximum = std::max(maximum, head.S.at(r, c));
            }
            if (maximum == kMinusInf) {
                continue; // every key blocked: shares and context stay 0
            }
            Real total = 0;
            for (int c = 0; c < n; ++c) {
                head.A.at(r, c) = std::exp(head.S.at(r, c) - maximum);
                total += head.A.at(r, c);
            }
            for (int c = 0; c < n; ++c) {
                head.A.at(r, c) /= total;
            }
            for (int t = 0; t < a.dV; ++t) {
                Real sum = 0;
                for (int c = 0; c < n; ++c) {
                    sum += head.A.at(r, c) * o.V.at(c, i * a.dV + t);
                }
                head.H.at(r, t) = sum;
                o.C.at(r, i * a.dV + t) = sum;
            }
        }
        o.heads.push_back(std::move(head));
    }
    if (silenced >= 0) {
        for (int r = 0; r < n; ++r) {
            for (int t = 0; t < a.dV; ++t) {
                o.C.at(r, silenced * a.dV + t) = 0;
            }
        }
    }
    o.Y = project(o.C, a.WO, a.bO);
    return o;
}

Real activate(Act act, Real x) {
    switch (act) {
    case Act::Gelu:
        return x / 2 * (1 + std::erf(x / std::sqrt(2.0L)));
    case Act::GeluTanh:
        return x / 2 * (1 + std::tanh(std::sqrt(2 / kPi) * (x + 0.044715L * x * x * x)));
    case Act::Relu:
        return x > 0 ? x : 0;
    }
    return 0;
}

// act′(x)
Real slope(Act act, Real x) {
    switch (act) {
    case Act::Gelu: // Φ(x) + x φ(x)
        return (1 + std::erf(x / std::sqrt(2.0L))) / 2 +
               x * std::exp(-x * x / 2) / std::sqrt(2 * kPi);
    case Act::GeluTanh: {
        const Real c = std::sqrt(2 / kPi);
        const Real t = std::tanh(c * (x + 0.044715L * x * x * x));
        return (1 + t) / 2 + x / 2 * (1 - t * t) * c * (1 + 3 * 0.044715L * x * x);
    }
    case Act::Relu:
        return x > 0 ? 1 : 0;
    }
    return 0;
}

Forward forward(const Cell& cell, const Removal& removal = {}) {
    Forward f;
    f.X = plus(cell.X0, cell.P);
    Matrix x = f.X;
    for (int l = 0; l < int(cell.layers.size()); ++l) {
        const Layer& layer = cell.layers[size_t(l)];
        const Removal::Kind removed = removal.layer == l ? removal.kind : Removal::Kind::None;
        LayerOut o;
        o.input = x;
        if (removed == Removal::Kind::Block) { // Xˡ = Xˡ⁻¹
            o.resid1 = x;
            o.resid2 = x;
            f.layers.push_back(std::move(o));
            continue;
        }
        o.ln1 = normForward(x, layer.ln1, cell.eps);
        if (removed == Removal::Kind::Attention) { // A = 0
            o.resid1 = x;
        } else {
            o.att = attentionForward(o.ln1.out, layer.att,
                                     removed == Removal::Kind::Head ? removal.head : -1);
            o.resid1 = plus(x, o.att.Y);
        }
        o.ln2 = normForward(o.resid1, layer.ln2, cell.eps);
        if (layer.ffn.present && removed != Removal::Kind::Ffn) {
            o.pre = project(o.ln2.out, layer.ffn.W1, layer.ffn.b1);
            o.act = o.pre;
            for (Real& value : o.act.v) {
                value = activate(layer.ffn.act, value);
            }
            o.ffnOut = project(o.act, layer.ffn.W2, layer.ffn.b2);
        } else {
            o.ffnOut = Matrix(cell.n, cell.d);
        }
        o.resid2 = plus(o.resid1, o.ffnOut);
        x = o.resid2;
        f.layers.push_back(std::move(o));
    }
    f.finalLn = normForward(x, cell.finalLn, cell.eps);
    f.logits = project(f.finalLn.out, cell.U, cell.bU);

    // p = softmax(logits / T) per row; log p kept for the loss.
    f.probs = Matrix(cell.n, cell.V);
    Matrix logProbs(cell.n, cell.V);
    for (int r = 0; r < cell.n; ++r) {
        Real maximum = kMinusInf;
        for (int w = 0; w < cell.V; ++w) {
            maximum = std::max(maximum, f.logits.at(r, w) / cell.T);
        }
        Real total = 0;
        for (int w = 0; w < cell.V; ++w) {
            total += std::exp(f.logits.at(r, w) / cell.T - maximum);
        }
        for (int w = 0; w < cell.V; ++w) {
            logProbs.at(r, w) = f.logits.at(r, w) / cell.T - maximum - std::log(total);
            f.probs.at(r, w) = std::exp(f.logits.at(r, w) / cell.T - maximum) / total;
        }
    }
    f.loss = 0;
    if (!cell.targets.empty()) { // L = −(1/m) Σ log p[r][target_r]
        int m = 0;
        for (int r = 0; r < cell.n; ++r) {
            if (cell.targets[size_t(r)] >= 0) {
                f.loss -= logProbs.at(r, cell.targets[size_t(r)]);
                ++m;
            }
        }
        f.loss /= m;
    } else { // L = Σ upstream ⊙ logits
        for (size_t e = 0; e < f.logits.v.size(); ++e) {
            f.loss += cell.upstream.v[e] * f.logits.v[e];
        }
    }
    return f;
}

// ---------------------------------------------------------------------------
// Backward, derived by hand

struct LayerGrads {
    Matrix upstream; // (n × d) ∂L/∂A, the attention's G_Y (= ∂L/∂R)
    Matrix X;        // (n × d) ∂L/∂H, the attention's ∂L/∂X
    Matrix WQ, WK, WV, WO, bQ, bK, bV, bO;
    Matrix ln1Gamma, ln1Beta, ln2Gamma, ln2Beta; // empty for an identity norm
    Matrix W1, b1, W2, b2;                       // empty without an FFN
};

struct Grads {
    Matrix logits; // (n × V)
    Matrix X0;     // (n × d)
    std::vector<LayerGrads> layers;
    Matrix finalGamma, finalBeta;
    Matrix U, bU; // (V × d) through the logits alone, (1 × V)
    Matrix vocab; // tied: U's gradient plus each token's X0 row on its word's row
};

// ∂L/∂W (outputs × inputs) = Gᵀ · in, and ∂L/∂b = column sums of G.
void weightGradient(const Matrix& g, const Matrix& in, Matrix& gw, Matrix& gb) {
    gw = Matrix(g.cols, in.cols);
    gb = Matrix(1, g.cols);
    for (int o = 0; o < g.cols; ++o) {
        for (int r = 0; r < g.rows; ++r) {
            gb.v[size_t(o)] += g.at(r, o);
            for (int c = 0; c < in.cols; ++c) {
                gw.at(o, c) += g.at(r, o) * in.at(r, c);
            }
        }
    }
}

// G_in (rows × inputs) += G (rows × outputs) · W (outputs × inputs)
void addBack(const Matrix& g, const Matrix& w, Matrix& gIn) {
    for (int r = 0; r < g.rows; ++r) {
        for (int c = 0; c < w.cols; ++c) {
            for (int o = 0; o < w.rows; ++o) {
                gIn.at(r, c) += g.at(r, o) * w.at(o, c);
            }
        }
    }
}

// ∂L/∂x of a LayerNorm from ∂L/∂out, with ∂L/∂γ and ∂L/∂β; the identity passes it through.
//   ∂L/∂x̂ = g ⊙ γ;   ∂L/∂x = (1/√(σ²+ε)) (∂L/∂x̂ − mean(∂L/∂x̂) − x̂ · mean(∂L/∂x̂ ⊙ x̂))
Matrix normBackward(const Matrix& g, const Norm& norm, const NormOut& o, Matrix& gGamma,
                    Matrix& gBeta) {
    if (norm.identity) {
        return g;
    }
    const int d = g.cols;
    gGamma = gBeta = Matrix(1, d);
    Matrix gIn(g.rows, d);
    std::vector<Real> gxhat(size_t(d), 0);
    for (int r = 0; r < g.rows; ++r) {
        Real mean = 0, meanX = 0;
        for (int c = 0; c < d; ++c) {
            gGamma.v[size_t(c)] += g.at(r, c) * o.xhat.at(r, c);
            gBeta.v[size_t(c)] += g.at(r, c);
            gxhat[size_t(c)] = g.at(r, c) * norm.gamma.v[size_t(c)];
            mean += gxhat[size_t(c)];
            meanX += gxhat[size_t(c)] * o.xhat.at(r, c);
        }
        mean /= d;
        meanX /= d;
        for (int c = 0; c < d; ++c) {
            gIn.at(r, c) = o.invStd.at(r, 0) * (gxhat[size_t(c)] - mean - o.xhat.at(r, c) * meanX);
        }
    }
    return gIn;
}

// attention.md's backward with H as its X, from G_Y = gY; returns ∂L/∂H.
Matrix attentionBackward(const Attention& a, const AttentionOut& o, const Matrix& H,
                         const Matrix& gY, LayerGrads& g) {
    const int n = H.rows;
    // G_C (n × h·d_v) = G_Y (n × d) · W_O (d × h·d_v)
    Matrix GC(n, a.h * a.dV);
    addBack(gY, a.WO, GC);
    weightGradient(gY, o.C, g.WO, g.bO);
    Matrix GQ(n, a.h * a.dK), GK(n, a.h * a.dK), GV(n, a.h * a.dV);
    for (int i = 0; i < a.h; ++i) {
        const Head& head = o.heads[size_t(i)];
        for (int r = 0; r < n; ++r) {
            // G_A[r][c] = G_H[r] · V_i[c];  G_S = A ⊙ (G_A − rowsum(G_A ⊙ A))
            std::vector<Real> GA(size_t(n), 0);
            Real dot = 0;
            for (int c = 0; c < n; ++c) {
                for (int t = 0; t < a.dV; ++t) {
                    GA[size_t(c)] += GC.at(r, i * a.dV + t) * o.V.at(c, i * a.dV + t);
                }
                dot += GA[size_t(c)] * head.A.at(r, c);
            }
            for (int c = 0; c < n; ++c) {
                const Real share = head.A.at(r, c);
                const Real gs = share * (GA[size_t(c)] - dot); // 0 where blocked
                for (int t = 0; t < a.dV; ++t) {
                    GV.at(c, i * a.dV + t) += share * GC.at(r, i * a.dV + t);
                }
                for (int t = 0; t < a.dK; ++t) {
                    GQ.at(r, i * a.dK + t) += a.scale * gs * o.K.at(c, i * a.dK + t);
                    GK.at(c, i * a.dK + t) += a.scale * gs * o.Q.at(r, i * a.dK + t);
                }
            }
        }
    }
    weightGradient(GQ, H, g.WQ, g.bQ);
    weightGradient(GK, H, g.WK, g.bK);
    weightGradient(GV, H, g.WV, g.bV);
    Matrix gH(n, H.cols);
    addBack(GQ, a.WQ, gH);
    addBack(GK, a.WK, gH);
    addBack(GV, a.WV, gH);
    return gH;
}

Grads backward(const Cell& cell, const Forward& f) {
    Grads g;
    // ∂L/∂logits: (p − onehot(target)) / (m · T) on rows with a target, else the upstream.
    if (!cell.targets.empty()) {
        g.logits = Matrix(cell.n, cell.V);
        int m = 0;
        for (const int target : cell.targets) {
            m += target >= 0 ? 1 : 0;
        }
        for (int r = 0; r < cell.n; ++r) {
            const int target = cell.targets[size_t(r)];
            for (int w = 0; target >= 0 && w < cell.V; ++w) {
                g.logits.at(r, w) = (f.probs.at(r, w) - (w == target ? 1 : 0)) / (m * cell.T);
            }
        }
    } else {
        g.logits = cell.upstream;
    }
    // logits = Z Uᵀ + b_U
    weightGradient(g.logits, f.finalLn.out, g.U, g.bU);
    Matrix gZ(cell.n, cell.d);
    addBack(g.logits, cell.U, gZ);
    Matrix gX = normBackward(gZ, cell.finalLn, f.finalLn, g.finalGamma, g.finalBeta);

    g.layers.resize(cell.layers.size());
    for (size_t l = cell.layers.size(); l-- > 0;) {
        const Layer& layer = cell.layers[l];
        const LayerOut& o = f.layers[l];
        LayerGrads& lg = g.layers[l];
        // Xˡ = R + F(LN₂(R)): R's gradient is the stream's plus what comes back through F.
        Matrix gR = gX;
        if (layer.ffn.present) {
            const Ffn& ffn = layer.ffn;
            weightGradient(gX, o.act, lg.W2, lg.b2);
            Matrix gPre(cell.n, ffn.W1.rows);
            addBack(gX, ffn.W2, gPre); // ∂L/∂act
            for (size_t e = 0; e < gPre.v.size(); ++e) {
                gPre.v[e] *= slope(ffn.act, o.pre.v[e]);
            }
            weightGradient(gPre, o.ln2.out, lg.W1, lg.b1);
            Matrix gG(cell.n, cell.d);
            addBack(gPre, ffn.W1, gG);
            gR = plus(gR, normBackward(gG, layer.ln2, o.ln2, lg.ln2Gamma, lg.ln2Beta));
        } else if (!layer.ln2.identity) {
            // LN₂ feeds nothing: its parameters get 0.
            lg.ln2Gamma = lg.ln2Beta = Matrix(1, cell.d);
        }
        // R = Xˡ⁻¹ + A(LN₁(Xˡ⁻¹))
        lg.upstream = gR;
        lg.X = attentionBackward(layer.att, o.att, o.ln1.out, gR, lg);
        gX = plus(gR, normBackward(lg.X, layer.ln1, o.ln1, lg.ln1Gamma, lg.ln1Beta));
    }
    g.X0 = gX; // P is constant
    if (cell.tied) {
        g.vocab = g.U;
        for (int r = 0; r < cell.n; ++r) {
            for (int c = 0; c < cell.d; ++c) {
                g.vocab.at(cell.tokenWords[size_t(r)], c) += g.X0.at(r, c);
            }
        }
    }
    return g;
}

// ---------------------------------------------------------------------------
// The backward pass above against central differences of the reference's own loss, so that
// the gradients it holds the engine to do not rest on the derivation alone.

struct Parameter {
    std::string name;
    Matrix* values;     // inside the perturbed copy of the cell
    const Matrix* grad; // the hand-derived gradient
    bool vocab;         // tied vocab: a nudge moves U and the X0 rows of that word too
};

std::vector<Parameter> parameters(Cell& cell, const Grads& g) {
    std::vector<Parameter> params{{"X0", &cell.X0, &g.X0, false}};
    for (size_t l = 0; l < cell.layers.size(); ++l) {
        Layer& layer = cell.layers[l];
        const LayerGrads& lg = g.layers[l];
        const std::string at = "layers[" + std::to_string(l) + "].";
        const auto add = [&](const char* name, Matrix& values, const Matrix& grad) {
            params.push_back({at + name, &values, &grad, false});
        };
        Attention& a = layer.att;
        add("attention.W_Q", a.WQ, lg.WQ);
        add("attention.W_K", a.WK, lg.WK);
        add("attention.W_V", a.WV, lg.WV);
        add("attention.W_O", a.WO, lg.WO);
        add("attention.b_Q", a.bQ, lg.bQ);
        add("attention.b_K", a.bK, lg.bK);
        add("attention.b_V", a.bV, lg.bV);
        add("attention.b_O", a.bO, lg.bO);
        if (!layer.ln1.identity) {
            add("ln1.gamma", layer.ln1.gamma, lg.ln1Gamma);
            add("ln1.beta", layer.ln1.beta, lg.ln1Beta);
        }
        if (!layer.ln2.identity) { // without an FFN its gradient is 0
            add("ln2.gamma", layer.ln2.gamma, lg.ln2Gamma);
            add("ln2.beta", layer.ln2.beta, lg.ln2Beta);
        }
        if (layer.ffn.present) {
            add("ffn.W_1", layer.ffn.W1, lg.W1);
            add("ffn.b_1", layer.ffn.b1, lg.b1);
            add("ffn.W_2", layer.ffn.W2, lg.W2);
            add("ffn.b_2", layer.ffn.b2, lg.b2);
        }
    }
    if (!cell.finalLn.identity) {
        params.push_back({"final_ln.gamma", &cell.finalLn.gamma, &g.finalGamma, false});
        params.push_back({"final_ln.beta", &cell.finalLn.beta, &g.finalBeta, false});
    }
    params.push_back({"unembed", &cell.U, &g.U, false});
    params.push_back({"unembed_bias", &cell.bU, &g.bU, false});
    if (cell.tied) {
        params.push_back({"vocab", &cell.U, &g.vocab, true});
    }
    return params;
}

// Up to `perParameter` evenly spaced entries of every gradient against (L(x + δ) − L(x − δ))
// / 2δ with δ = 1e-7 in long double (truncation about δ² ≈ 1e-14, rounding about
// 1e-19 · |L| / δ ≈ 1e-12 · |L|). Returns the disagreements beyond 1e-7 · max(1, |∂L|), or "".
std::string checkByDifferences(const Cell& cell, const Grads& g, int perParameter) {
    const Real delta = 1e-7L;
    Cell probe = cell;
    std::string failures;
    for (const Parameter& p : parameters(probe, g)) {
        const int size = int(p.values->v.size());
        const int count = std::min(size, perParameter);
        for (int k = 0; k < count; ++k) {
            const int e = k * size / count;
            const int row = e / p.values->cols, col = e % p.values->cols;
            const Real saved = p.values->v[size_t(e)];
            const auto loss = [&](Real by) {
                p.values->v[size_t(e)] = saved + by;
                if (p.vocab) { // the tied vocab embeds the tokens of this word too
                    for (int r = 0; r < cell.n; ++r) {
                        if (cell.tokenWords[size_t(r)] == row) {
                            probe.X0.at(r, col) = cell.X0.at(r, col) + by;
                        }
                    }
                }
                return forward(probe).loss;
            };
            const Real numeric = (loss(delta) - loss(-delta)) / (2 * delta);
            loss(0);
            const Real analytic = p.grad->v[size_t(e)];
            if (std::abs(analytic - numeric) > 1e-7L * std::max<Real>(1, std::abs(analytic))) {
                char text[160];
                std::snprintf(text, sizeof text,
                              "%s(%d, %d): %.12g by hand, %.12g by differences; ", p.name.c_str(),
                              row, col, double(analytic), double(numeric));
                failures += text;
            }
        }
    }
    return failures;
}

} // namespace tref

namespace {

using tref::Matrix;
using tref::Real;

// ---------------------------------------------------------------------------
// Random cells: one draw gives the reference Cell (every default spelled out, the switches
// applied) and the TransformerConfig that says the same thing the way a document would.

struct Draw {
    tref::Cell cell;
    TransformerConfig config;
    bool sinusoidal = false;     // P is the sinusoidal encoding (it grows with generation)
    std::set<std::string> kinds; // what was drawn, for the coverage check
    std::string label;           // the same, for failure messages
};

class Generator {
  public:
    explicit Generator(uint64_t seed) : rng_(seed) {}

    int integer(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
    bool coin(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
    double uniform(double lo, double hi) {
        return std::uniform_real_distribution<double>(lo, hi)(rng_);
    }
    template <typename T> T pick(std::initializer_list<T> options) {
        return *(options.begin() + integer(0, int(options.size()) - 1));
    }
    // Entries drawn as doubles, so that the engine and the reference read the same numbers.
    Matrix matrix(int rows, int cols, double amplitude = 1.0) {
        Matrix m(rows, cols);
        for (Real& x : m.v) {
            x = uniform(-amplitude, amplitude);
        }
        return m;
    }

  private:
    std::mt19937_64 rng_;
};

arma::mat toArma(const Matrix& m) {
    arma::mat a(arma::uword(m.rows), arma::uword(m.cols));
    for (int r = 0; r < m.rows; ++r) {
        for (int c = 0; c < m.cols; ++c) {
            a(arma::uword(r), arma::uword(c)) = double(m.at(r, c));
        }
    }
    return a;
}

arma::rowvec toRow(const Matrix& m) {
    arma::rowvec a(m.v.size());
    for (size_t e = 0; e < m.v.size(); ++e) {
        a(e) = double(m.v[e]);
    }
    return a;
}

std::vector<std::string> labels(const std::string& prefix, int count) {
    std::vector<std::string> out;
    for (int i = 0; i < count; ++i) {
        out.push_back(prefix + std::to_string(i));
    }
    return out;
}

void note(Draw& out, const std::string& kind) {
    out.kinds.insert(kind);
    out.label += " " + kind;
}

// A LayerNorm: `none`, or γ and β each given or left to their defaults.
tref::Norm drawNorm(Generator& gen, Draw& out, int d, LayerNormParams& params,
                    const std::string& name) {
    tref::Norm norm;
    if (gen.coin(0.2)) {
        params.identity = true;
        norm.identity = true;
        note(out, name + ":none");
        return norm;
    }
    norm.gamma = Matrix(1, d, 1);
    norm.beta = Matrix(1, d, 0);
    if (gen.coin(0.5)) {
        norm.gamma = gen.matrix(1, d, 0.5);
        for (Real& g : norm.gamma.v) {
            g += 1;
        }
        params.gamma = toRow(norm.gamma);
        note(out, "gamma");
    } else {
        out.kinds.insert("gamma-default");
    }
    if (gen.coin(0.5)) {
        norm.beta = gen.matrix(1, d, 0.5);
        params.beta = toRow(norm.beta);
        note(out, "beta");
    } else {
        out.kinds.insert("beta-default");
    }
    return norm;
}

// One layer's attention: h of 1, 2 or 4 heads, widths d / h (so that identities fit) or
// drawn, identity only where square (attention.md, "Widths"), W_O always back to d.
tref::Attention drawAttention(Generator& gen, Draw& out, int d, AttentionConfig& config,
                              bool forGeneration) {
    tref::Attention a;
    a.h = gen.pick({1, 2, 4});
    const bool divides = d % a.h == 0;
    a.dK = divides && gen.coin(0.6) ? d / a.h : gen.integer(1, 3);
    a.dV = divides && gen.coin(0.6) ? d / a.h : gen.integer(1, 3);
    out.kinds.insert("h=" + std::to_string(a.h));
    out.label += " [h=" + std::to_string(a.h) + " d_k=" + std::to_string(a.dK) +
                 " d_v=" + std::to_string(a.dV);
    config.heads = a.h;
    if (gen.coin(0.4)) {
        config.dK = a.dK; // else implied by W_Q's rows, or d / h
    }
    if (gen.coin(0.4)) {
        config.dV = a.dV;
    }

    const bool qk = a.h * a.dK == d, v = a.h * a.dV == d;
    const auto weights = [&](const char* name, bool square, int rows, int cols, double amplitude,
                             Matrix& w, Projection& p) {
        if (square && gen.coin(0.4)) {
            w = tref::identity(d);
            p = Projection{};
            note(out, std::string("id") + name);
        } else {
            w = gen.matrix(rows, cols, amplitude);
            p = Projection{false, toArma(w)};
            out.kinds.insert(std::string("explicit") + name);
        }
    };
    weights("W_Q", qk, a.h * a.dK, d, 1.0, a.WQ, config.wQ);
    weights("W_K", qk, a.h * a.dK, d, 1.0, a.WK, config.wK);
    weights("W_V", v, a.h * a.dV, d, 1.5 / std::sqrt(d), a.WV, config.wV);
    weights("W_O", v, d, a.h * a.dV, 1.5 / std::sqrt(a.h * a.dV), a.WO, config.wO);
    const auto bias = [&](int length, Matrix& b, arma::rowvec& given) {
        b = Matrix(1, length);
        if (gen.coin(0.4)) {
            b = gen.matrix(1, length, 0.5);
            given = toRow(b);
            out.kinds.insert("bias");
        } else {
            out.kinds.insert("bias-default");
        }
    };
    bias(a.h * a.dK, a.bQ, config.bQ);
    bias(a.h * a.dK, a.bK, config.bK);
    bias(a.h * a.dV, a.bV, config.bV);
    bias(d, a.bO, config.bO);

    switch (gen.integer(0, 3)) {
    case 0:
        config.scaleKind = ScaleKind::Off;
        a.scale = 1;
        note(out, "scale-off");
        break;
    case 1:
        config.scaleKind = ScaleKind::Divisor;
        config.scaleDivisor = gen.uniform(0.5, 2.0);
        a.scale = 1 / Real(config.scaleDivisor);
        note(out, "scale-custom");
        break;
    default:
        a.scale = 1 / std::sqrt(Real(a.dK));
        break;
    }
    a.causal = forGeneration || gen.coin(0.5);
    config.mask = a.causal ? MaskKind::Causal : MaskKind::None;
    note(out, a.causal ? "causal" : "no-mask");
    return a;
}

// Padding needs the token count; a few flags (possibly every one: blocked rows).
void drawPadding(Generator& gen, Draw& out, int n, tref::Attention& a, AttentionConfig& config) {
    if (gen.coin(0.25)) {
        a.padding.assign(size_t(n), false);
        for (size_t c = 0; c < a.padding.size(); ++c) {
            a.padding[c] = gen.coin(0.3);
        }
        config.padding = a.padding;
        note(out, "padding");
        for (int r = 0; r < n; ++r) { // a row that may read nothing: shares and context 0
            bool any = false;
            for (int c = 0; c < n; ++c) {
                any = any || tref::readable(a, r, c);
            }
            if (!any) {
                out.kinds.insert("blocked-row");
            }
        }
    }
}

tref::Ffn drawFfn(Generator& gen, Draw& out, int d, FeedForwardParams& params) {
    tref::Ffn ffn;
    if (gen.coin(0.25)) {
        params.present = false;
        note(out, "ffn:none");
        return ffn;
    }
    ffn.present = true;
    const int dff = gen.integer(1, 2 * d);
    switch (gen.integer(0, 2)) {
    case 0:
        ffn.act = tref::Act::Gelu;
        params.activation = Activation::Gelu;
        note(out, "gelu");
        break;
    case 1:
        ffn.act = tref::Act::GeluTanh;
        params.activation = Activation::GeluTanh;
        note(out, "gelu_tanh");
        break;
    default:
        ffn.act = tref::Act::Relu;
        params.activation = Activation::Relu;
        note(out, "relu");
        break;
    }
    ffn.W1 = gen.matrix(dff, d, 1.5 / std::sqrt(d));
    ffn.W2 = gen.matrix(d, dff, 1.5 / std::sqrt(dff));
    params.W1 = toArma(ffn.W1);
    params.W2 = toArma(ffn.W2);
    ffn.b1 = Matrix(1, dff);
    ffn.b2 = Matrix(1, d);
    if (gen.coin(0.5)) {
        ffn.b1 = gen.matrix(1, dff, 0.5);
        params.b1 = toRow(ffn.b1);
        out.kinds.insert("b_1");
    }
    if (gen.coin(0.5)) {
        ffn.b2 = gen.matrix(1, d, 0.5);
        params.b2 = toRow(ffn.b2);
        out.kinds.insert("b_2");
    }
    return ffn;
}

// A whole cell. For generation: tied, causal in every layer, no padding, P none or
// sinusoidal (positions must extend) and every layer run.
Draw drawCell(Generator& gen, bool forGeneration = false) {
    Draw out;
    tref::Cell& cell = out.cell;
    TransformerConfig& config = out.config;
    const int n = cell.n = gen.integer(1, 6);
    const int d = cell.d = gen.pick({3, 4, 4, 6, 8, 8});
    const int L = gen.integer(1, 3);
    const int V = cell.V = gen.integer(2, 8);
    out.label = "n=" + std::to_string(n) + " d=" + std::to_string(d) + " L=" + std::to_string(L) +
                " V=" + std::to_string(V);
    out.kinds.insert("L=" + std::to_string(L));

    // Tokens and the unembedding: tied (X0 is rows of the vocab picked by the tokens, and
    // the vocab scores the words) or separate (X0 given, U its own matrix).
    cell.tied = forGeneration || gen.coin(0.5);
    cell.U = gen.matrix(V, d);
    if (cell.tied) {
        config.tiedUnembed = true;
        config.vocab = toArma(cell.U);
        config.vocabLabels = labels("w", V);
        cell.X0 = Matrix(n, d);
        for (int r = 0; r < n; ++r) {
            const int word = gen.integer(0, V - 1);
            cell.tokenWords.push_back(word);
            config.tokens.push_back(config.vocabLabels[size_t(word)]);
            for (int c = 0; c < d; ++c) {
                cell.X0.at(r, c) = cell.U.at(word, c);
            }
        }
        note(out, "tied");
    } else {
        config.tiedUnembed = false;
        config.unembed = toArma(cell.U);
        config.unembedLabels = labels("u", V);
        cell.X0 = gen.matrix(n, d);
        config.tokens = labels("t", n);
        note(out, "untied");
    }
    config.X0 = toArma(cell.X0);
    cell.bU = Matrix(1, V);
    if (gen.coin(0.5)) {
        cell.bU = gen.matrix(1, V, 0.5);
        config.unembedBias = toRow(cell.bU);
        note(out, "b_U");
    } else {
        out.kinds.insert("no-b_U");
    }

    const int positional = gen.integer(0, forGeneration ? 1 : 2);
    cell.P = Matrix(n, d);
    if (positional == 1) {
        config.positional = PositionalKind::Sinusoidal;
        cell.P = tref::sinusoidal(n, d);
        out.sinusoidal = true;
        note(out, "sinusoidal");
    } else if (positional == 2) {
        config.positional = PositionalKind::Learned;
        cell.P = gen.matrix(n, d);
        config.learnedP = toArma(cell.P);
        note(out, "learned");
    } else {
        out.kinds.insert("no-positional");
    }

    cell.eps = Real(config.eps); // the double 1e-5, not 1e-5L
    if (gen.coin(0.2)) {
        config.eps = 1e-3;
        cell.eps = Real(config.eps);
        note(out, "eps=1e-3");
    }

    for (int l = 0; l < L; ++l) {
        tref::Layer layer;
        TransformerLayer params;
        layer.att = drawAttention(gen, out, d, params.attention, forGeneration);
        if (!forGeneration) {
            drawPadding(gen, out, n, layer.att, params.attention);
        }
        layer.ln1 = drawNorm(gen, out, d, params.ln1, "ln1");
        layer.ln2 = drawNorm(gen, out, d, params.ln2, "ln2");
        layer.ffn = drawFfn(gen, out, d, params.ffn);
        out.label += "]";
        cell.layers.push_back(std::move(layer));
        config.layers.push_back(std::move(params));
    }
    cell.finalLn = drawNorm(gen, out, d, config.finalLn, "final_ln");

    cell.T = config.temperature = gen.pick({0.5, 1.0, 2.0});
    note(out, "T=" + std::to_string(config.temperature).substr(0, 3));

    // Targets (some −1, at least one word), or an upstream gradient (given or ones).
    if (gen.coin(0.5)) {
        bool any = false;
        for (int r = 0; r < n; ++r) {
            const int target = gen.coin(0.3) ? -1 : gen.integer(0, V - 1);
            cell.targets.push_back(target);
            any = any || target >= 0;
            if (target < 0) {
                out.kinds.insert("target-none");
            }
        }
        if (!any) {
            cell.targets.back() = gen.integer(0, V - 1);
        }
        config.targets = cell.targets;
        note(out, "targets");
    } else if (gen.coin(0.5)) {
        cell.upstream = gen.matrix(n, V, 2.0);
        config.upstream = toArma(cell.upstream);
        note(out, "upstream");
    } else {
        cell.upstream = Matrix(n, V, 1);
        note(out, "upstream-ones");
    }

    // The window's switches, applied to the reference's model.
    if (!forGeneration && L > 1 && gen.coin(0.15)) {
        config.run.layers = gen.integer(1, L - 1);
        cell.layers.resize(size_t(config.run.layers));
        note(out, "run.layers=" + std::to_string(config.run.layers));
    }
    if (gen.coin(0.1)) {
        config.run.norm = false;
        for (tref::Layer& layer : cell.layers) {
            layer.ln1.identity = layer.ln2.identity = true;
        }
        cell.finalLn.identity = true;
        note(out, "run.norm=off");
    }
    if (gen.coin(0.1)) {
        config.run.ffn = false;
        for (tref::Layer& layer : cell.layers) {
            layer.ffn.present = false;
        }
        note(out, "run.ffn=off");
    }
    return out;
}

// ---------------------------------------------------------------------------
// Comparison

// Equal within `tolerance`, relative where the numbers are larger than 1; −∞ equals −∞.
bool close(double actual, Real expected, double tolerance) {
    if (Real(actual) == expected) {
        return true;
    }
    return std::abs(Real(actual) - expected) <=
           tolerance * std::max({Real(1), std::abs(Real(actual)), std::abs(expected)});
}

// All 17 digits, as %.17g.
std::string precise(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", value);
    return text;
}

// Collects the first few mismatches of one cell.
class Comparison {
  public:
    double tolerance = 1e-12;

    void matrix(const std::string& name, const arma::mat& actual, const Matrix& expected) {
        if (actual.n_rows != arma::uword(expected.rows) ||
            actual.n_cols != arma::uword(expected.cols)) {
            fail(name + ": " + std::to_string(actual.n_rows) + " × " +
                 std::to_string(actual.n_cols) + ", expected " + std::to_string(expected.rows) +
                 " × " + std::to_string(expected.cols));
            return;
        }
        for (int r = 0; r < expected.rows; ++r) {
            for (int c = 0; c < expected.cols; ++c) {
                entry(name, r, c, actual(arma::uword(r), arma::uword(c)), expected.at(r, c));
            }
        }
    }
    void entry(const std::string& name, int r, int c, double actual, Real expected) {
        if (!close(actual, expected, tolerance)) {
            fail(name + "(" + std::to_string(r) + ", " + std::to_string(c) +
                 ") = " + precise(actual) + ", expected " + precise(double(expected)));
        }
    }
    void empty(const std::string& name, const arma::mat& actual) {
        if (!actual.is_empty()) {
            fail(name + " is " + std::to_string(actual.n_rows) + " × " +
                 std::to_string(actual.n_cols) + ", expected empty");
        }
    }
    void fail(const std::string& what) {
        if (failures_.size() < 6) {
            failures_.push_back(what);
        }
        ++count_;
    }
    bool ok() const { return count_ == 0; }
    std::string report() const {
        std::string text;
        for (const std::string& failure : failures_) {
            text += (text.empty() ? "" : "; ") + failure;
        }
        return text + " (" + std::to_string(count_) + " in all)";
    }

  private:
    std::vector<std::string> failures_;
    int count_ = 0;
};

void compareNorm(Comparison& cmp, const std::string& name, const LayerNormResult& actual,
                 const tref::NormOut& expected, bool identity) {
    cmp.matrix(name + ".out", actual.out, expected.out);
    if (identity) {
        cmp.empty(name + ".xhat", actual.xhat);
    } else {
        cmp.matrix(name + ".xhat", actual.xhat, expected.xhat);
        cmp.matrix(name + ".invStd", actual.invStd, expected.invStd);
    }
}

void compareAttention(Comparison& cmp, const std::string& name, const AttentionResult& actual,
                      const tref::AttentionOut& expected, const tref::Matrix& H, int h) {
    cmp.matrix(name + ".X", actual.X, H);
    cmp.matrix(name + ".output", actual.output, expected.Y);
    if (actual.head.size() != size_t(h)) {
        cmp.fail(name + ": " + std::to_string(actual.head.size()) + " heads, expected " +
                 std::to_string(h));
        return;
    }
    for (int i = 0; i < h; ++i) {
        const HeadResult& head = actual.head[size_t(i)];
        const tref::Head& want = expected.heads[size_t(i)];
        const std::string at = name + ".head[" + std::to_string(i) + "]";
        if (head.weightsT.n_rows != arma::uword(want.A.cols) ||
            head.weightsT.n_cols != arma::uword(want.A.rows)) {
            cmp.fail(at + ": weights of the wrong shape");
            continue;
        }
        for (int r = 0; r < want.A.rows; ++r) {
            for (int c = 0; c < want.A.cols; ++c) {
                cmp.entry(at + ".weights", r, c, head.weight(arma::uword(r), arma::uword(c)),
                          want.A.at(r, c));
            }
        }
        cmp.matrix(at + ".context", head.context, want.H);
    }
}

// Every stage of the forward pass, to 1e-12.
void compareForward(Comparison& cmp, const Draw& draw, const tref::Forward& f,
                    const TransformerResult& r) {
    const tref::Cell& cell = draw.cell;
    if (r.n != cell.n || r.d != cell.d || r.V != cell.V || r.layersRun != int(cell.layers.size()) ||
        r.layers.size() != cell.layers.size()) {
        cmp.fail("sizes n=" + std::to_string(r.n) + " d=" + std::to_string(r.d) +
                 " V=" + std::to_string(r.V) + " layersRun=" + std::to_string(r.layersRun) +
                 " layers=" + std::to_string(r.layers.size()));
        return;
    }
    if (r.words != draw.config.words() || r.tokens != draw.config.tokens) {
        cmp.fail("words or tokens");
    }
    cmp.matrix("X0", r.X0, cell.X0);
    cmp.matrix("P", r.P, cell.P);
    cmp.matrix("X", r.X, f.X);
    for (size_t l = 0; l < cell.layers.size(); ++l) {
        const tref::Layer& layer = cell.layers[l];
        const tref::LayerOut& want = f.layers[l];
        const TransformerLayerResult& got = r.layers[l];
        const std::string at = "layers[" + std::to_string(l) + "].";
        cmp.matrix(at + "input", got.input, want.input);
        compareNorm(cmp, at + "ln1", got.ln1, want.ln1, layer.ln1.identity);
        compareAttention(cmp, at + "attention", got.attention, want.att, want.ln1.out, layer.att.h);
        cmp.matrix(at + "resid1", got.resid1, want.resid1);
        compareNorm(cmp, at + "ln2", got.ln2, want.ln2, layer.ln2.identity);
        if (layer.ffn.present) {
            cmp.matrix(at + "ffnPre", got.ffnPre, want.pre);
            cmp.matrix(at + "ffnAct", got.ffnAct, want.act);
        } else {
            cmp.empty(at + "ffnPre", got.ffnPre);
            cmp.empty(at + "ffnAct", got.ffnAct);
        }
        cmp.matrix(at + "ffnOut", got.ffnOut, want.ffnOut);
        cmp.matrix(at + "resid2", got.resid2, want.resid2);
    }
    compareNorm(cmp, "final_ln", r.finalLn, f.finalLn, cell.finalLn.identity);
    cmp.matrix("logits", r.logits, f.logits);
    cmp.matrix("probs", r.probs, f.probs);
    if (!cell.targets.empty()) {
        if (!r.loss) {
            cmp.fail("no loss with targets");
        } else {
            cmp.entry("loss", 0, 0, *r.loss, f.loss);
        }
    } else if (r.loss) {
        cmp.fail("a loss without targets");
    }
    // `next`: the last row's words by chance, at most 10.
    if (r.next.size() != size_t(std::min(cell.V, 10))) {
        cmp.fail("next has " + std::to_string(r.next.size()) + " words");
        return;
    }
    const std::vector<std::string>& words = draw.config.words();
    for (size_t k = 0; k < r.next.size(); ++k) {
        const auto it = std::find(words.begin(), words.end(), r.next[k].word);
        if (it == words.end()) {
            cmp.fail("next[" + std::to_string(k) + "] = " + r.next[k].word);
            continue;
        }
        cmp.entry("next.prob", int(k), 0, r.next[k].prob,
                  f.probs.at(cell.n - 1, int(it - words.begin())));
        if (k > 0 && r.next[k].prob > r.next[k - 1].prob) {
            cmp.fail("next is not sorted by chance");
        }
    }
}

// Every gradient field against the hand-derived reference (itself checked by differences).
void compareGradients(Comparison& cmp, const tref::Cell& cell, const tref::Grads& g,
                      const TransformerGradients& got) {
    cmp.matrix("grad.logits", got.logits, g.logits);
    cmp.matrix("grad.X0", got.X0, g.X0);
    // Layers beyond the `layers` switch, when listed at all, carry nothing.
    if (got.layers.size() < cell.layers.size()) {
        cmp.fail("grad has " + std::to_string(got.layers.size()) + " layers");
        return;
    }
    for (size_t l = cell.layers.size(); l < got.layers.size(); ++l) {
        const AttentionGradients& a = got.layers[l].attention;
        for (const arma::mat* m : {&a.W_Q, &a.W_K, &a.W_V, &a.W_O, &a.X}) {
            if (!m->is_empty() && arma::abs(*m).max() != 0) {
                cmp.fail("grad.layers[" + std::to_string(l) + "] of a layer not run");
            }
        }
    }
    for (size_t l = 0; l < cell.layers.size(); ++l) {
        const tref::Layer& layer = cell.layers[l];
        const tref::LayerGrads& want = g.layers[l];
        const TransformerLayerGradients& lg = got.layers[l];
        const std::string at = "grad.layers[" + std::to_string(l) + "].";
        const AttentionGradients& a = lg.attention;
        cmp.matrix(at + "attention.upstream", a.upstream, want.upstream);
        cmp.matrix(at + "attention.X", a.X, want.X);
        cmp.matrix(at + "attention.W_Q", a.W_Q, want.WQ);
        cmp.matrix(at + "attention.W_K", a.W_K, want.WK);
        cmp.matrix(at + "attention.W_V", a.W_V, want.WV);
        cmp.matrix(at + "attention.W_O", a.W_O, want.WO);
        cmp.matrix(at + "attention.b_Q", a.b_Q, want.bQ);
        cmp.matrix(at + "attention.b_K", a.b_K, want.bK);
        cmp.matrix(at + "attention.b_V", a.b_V, want.bV);
        cmp.matrix(at + "attention.b_O", a.b_O, want.bO);
        // An identity LN has no gradient. Without an FFN, LN₂ feeds nothing: its gradient is 0,
        // which neither spec nor header settles between empty and zeros, so either passes.
        const auto norm = [&](const char* name, const arma::rowvec& gamma, const arma::rowvec& beta,
                              const tref::Norm& n, const Matrix& wantGamma, const Matrix& wantBeta,
                              bool dead) {
            if (n.identity || (dead && gamma.is_empty() && beta.is_empty())) {
                cmp.empty(at + name + "Gamma", gamma);
                cmp.empty(at + name + "Beta", beta);
            } else {
                cmp.matrix(at + name + "Gamma", gamma, wantGamma);
                cmp.matrix(at + name + "Beta", beta, wantBeta);
            }
        };
        norm("ln1", lg.ln1Gamma, lg.ln1Beta, layer.ln1, want.ln1Gamma, want.ln1Beta, false);
        norm("ln2", lg.ln2Gamma, lg.ln2Beta, layer.ln2, want.ln2Gamma, want.ln2Beta,
             !layer.ffn.present);
        if (layer.ffn.present) {
            cmp.matrix(at + "W1", lg.W1, want.W1);
            cmp.matrix(at + "b1", lg.b1, want.b1);
            cmp.matrix(at + "W2", lg.W2, want.W2);
            cmp.matrix(at + "b2", lg.b2, want.b2);
        } else {
            cmp.empty(at + "W1", lg.W1);
            cmp.empty(at + "b1", lg.b1);
            cmp.empty(at + "W2", lg.W2);
            cmp.empty(at + "b2", lg.b2);
        }
    }
    if (cell.finalLn.identity) {
        cmp.empty("grad.finalGamma", got.finalGamma);
        cmp.empty("grad.finalBeta", got.finalBeta);
    } else {
        cmp.matrix("grad.finalGamma", got.finalGamma, g.finalGamma);
        cmp.matrix("grad.finalBeta", got.finalBeta, g.finalBeta);
    }
    cmp.matrix("grad.unembed", got.unembed, g.U);
    cmp.matrix("grad.unembedBias", got.unembedBias, g.bU);
    if (cell.tied) {
        cmp.matrix("grad.vocab", got.vocab, g.vocab);
    }
}

// The 100 random cells, the same every run: 4 seeds of 25.
std::vector<Draw> randomCells() {
    std::vector<Draw> draws;
    for (const uint64_t seed : {11ull, 12ull, 20250101ull, 0x7a5full}) {
        Generator gen(seed);
        for (int i = 0; i < 25; ++i) {
            draws.push_back(drawCell(gen));
            draws.back().label = "seed " + std::to_string(seed) + " cell " + std::to_string(i) +
                                 ": " + draws.back().label;
        }
    }
    return draws;
}

// splitmix64 as transformer.md states it, written here again (all arithmetic mod 2⁶⁴).
uint64_t splitmix(uint64_t& state) {
    state += 0x9E3779B97F4A7C15ull;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// The cell of `draw` with `words` (vocab rows) as its tokens: what a full recompute of a
// longer sequence reads. No targets; the loss is not looked at.
// `weights` (a cell of `draw`) reading `words`: its tokens, X0 their rows of the tied vocab, and
// the positions for their number.
tref::Cell withWords(const Draw& draw, tref::Cell weights, const std::vector<int>& words) {
    tref::Cell cell = std::move(weights);
    cell.n = int(words.size());
    cell.tokenWords = words;
    cell.X0 = Matrix(cell.n, cell.d);
    for (int r = 0; r < cell.n; ++r) {
        for (int c = 0; c < cell.d; ++c) {
            cell.X0.at(r, c) = cell.U.at(words[size_t(r)], c);
        }
    }
    cell.P = draw.sinusoidal ? tref::sinusoidal(cell.n, cell.d) : Matrix(cell.n, cell.d);
    return cell;
}

tref::Cell extended(const Draw& draw, const std::vector<int>& words) {
    tref::Cell cell = withWords(draw, draw.cell, words);
    cell.targets.clear();
    cell.upstream = Matrix(cell.n, cell.V, 1);
    return cell;
}

} // namespace

// ---------------------------------------------------------------------------
// Forward and backward of 100 random cells against the reference; the engine's own
// gradient check passes on every one. One engine for all of them, as the window keeps one.

TEST_CASE("randomCells") {
    const std::vector<Draw> draws = randomCells();
    TransformerEngine engine;
    std::vector<double> errors;
    int failures = 0;
    for (const Draw& draw : draws) {
        INFO(draw.label);
        const tref::Forward f = tref::forward(draw.cell);
        const tref::Grads g = tref::backward(draw.cell, f);
        TransformerResult r;
        try {
            r = engine.compute(draw.config, GradientCheck::Run);
        } catch (const InvalidConfig& e) {
            FAIL_CHECK("threw InvalidConfig (" << e.error().key << "): " << std::string(e.what()));
            continue;
        } catch (const std::exception& e) {
            FAIL_CHECK("threw " << std::string(e.what()));
            continue;
        }
        Comparison forward;
        compareForward(forward, draw, f, r);
        CHECK_MESSAGE(forward.ok(), "forward: " << forward.report());
        Comparison backward;
        backward.tolerance = 1e-10;
        compareGradients(backward, draw.cell, g, r.grad);
        CHECK_MESSAGE(backward.ok(), "backward: " << backward.report());
        CHECK_MESSAGE(close(transformerObjective(draw.config, r), f.loss, 1e-12),
                      "objective " << precise(transformerObjective(draw.config, r)) << ", expected "
                                   << precise(double(f.loss)));
        CHECK_MESSAGE(r.gradcheck.passed(), "gradcheck ran " << r.gradcheck.ran << " ("
                                                             << r.gradcheck.skipped << ") error "
                                                             << r.gradcheck.maxRelError << " worst "
                                                             << r.gradcheck.worst.gradient);
        errors.push_back(r.gradcheck.maxRelError);
        failures += forward.ok() && backward.ok() ? 0 : 1;
        if (failures >= 5) {
            FAIL_CHECK("stopped after 5 cells that disagree");
            break;
        }
    }
    std::sort(errors.begin(), errors.end());
    if (!errors.empty()) {
        MESSAGE("gradcheck max_rel_error over " << errors.size() << " cells: median "
                                                << errors[errors.size() / 2] << ", max "
                                                << errors.back());
    }
}

// Knock-outs (transformer.md): every head, attention, FFN and block of the 100 random cells
// removed in turn, the engine's last-row and focus-row chances, loss and top word against the
// reference run without that part, to 1e-12.
TEST_CASE("knockouts") {
    TransformerEngine engine;
    int parts = 0;
    for (const Draw& draw : randomCells()) {
        INFO(draw.label);
        TransformerConfig config = draw.config;
        config.knockouts = true;
        TransformerResult r;
        engine.forward(config, r);
        REQUIRE(r.knockouts.computed);
        const int L = int(draw.cell.layers.size());
        REQUIRE(int(r.knockouts.block.size()) == L);
        const int last = draw.cell.n - 1, focus = draw.config.focus;
        const auto compare = [&](const KnockoutOutcome& got, const tref::Removal& removal,
                                 const std::string& name) {
            const tref::Forward f = tref::forward(draw.cell, removal);
            Comparison cmp;
            for (int w = 0; w < draw.cell.V; ++w) {
                cmp.entry(name + ".probs", last, w, got.probs(arma::uword(w)), f.probs.at(last, w));
                cmp.entry(name + ".focus", focus, w, got.focusProbs(arma::uword(w)),
                          f.probs.at(focus, w));
            }
            int top = 0; // the first word in vocab order on a tie
            for (int w = 1; w < draw.cell.V; ++w) {
                top = f.probs.at(last, w) > f.probs.at(last, top) ? w : top;
            }
            CHECK_MESSAGE(cmp.ok(), cmp.report());
            REQUIRE_FALSE(got.next.empty());
            CHECK(got.next[0].word == r.words[size_t(top)]);
            CHECK(got.loss.has_value() == !draw.cell.targets.empty());
            if (got.loss) {
                CHECK_MESSAGE(close(*got.loss, f.loss, 1e-12),
                              name << ".loss " << precise(*got.loss));
            }
            ++parts;
        };
        using Kind = tref::Removal::Kind;
        for (int l = 0; l < L; ++l) {
            const std::string at = "[" + std::to_string(l) + "]";
            REQUIRE(int(r.knockouts.head[size_t(l)].size()) == draw.cell.layers[size_t(l)].att.h);
            for (int i = 0; i < draw.cell.layers[size_t(l)].att.h; ++i) {
                compare(r.knockouts.head[size_t(l)][size_t(i)], {Kind::Head, l, i},
                        "head" + at + "[" + std::to_string(i) + "]");
            }
            compare(r.knockouts.attention[size_t(l)], {Kind::Attention, l, -1}, "attention" + at);
            compare(r.knockouts.ffn[size_t(l)], {Kind::Ffn, l, -1}, "ffn" + at);
            compare(r.knockouts.block[size_t(l)], {Kind::Block, l, -1}, "block" + at);
        }
        // The cell's own numbers are the whole model's, untouched by the passes.
        Comparison whole;
        compareForward(whole, draw, tref::forward(draw.cell), r);
        CHECK_MESSAGE(whole.ok(), whole.report());
    }
    MESSAGE(parts << " knock-outs compared");
    CHECK(parts > 400);
}

// Knock-outs are computed only when asked for, and the authored weights are never written
// through the passes' shared matrices.
TEST_CASE("knockoutsOnlyWhenAskedAndWeightsUntouched") {
    const std::vector<Draw> draws = randomCells();
    const auto drawn = std::find_if(draws.begin(), draws.end(), [](const Draw& d) {
        return !d.config.layers[0].attention.wO.identity && d.config.layers[0].attention.heads > 1;
    });
    REQUIRE(drawn != draws.end());
    TransformerEngine engine;
    TransformerResult plain;
    engine.forward(drawn->config, plain);
    CHECK_FALSE(plain.knockouts.computed);

    TransformerConfig config = drawn->config;
    config.knockouts = true;
    const arma::mat before = config.layers[0].attention.wO.weights;
    TransformerResult asked;
    engine.forward(config, asked);
    REQUIRE(asked.knockouts.computed);
    CHECK(arma::approx_equal(config.layers[0].attention.wO.weights, before, "absdiff", 0.0));
    int heads = 0;
    for (const std::vector<KnockoutOutcome>& layer : asked.knockouts.head) {
        heads += int(layer.size());
    }
    CHECK(knockoutPasses(config) == heads + 3 * int(asked.knockouts.block.size()));
}

// ---------------------------------------------------------------------------
// Training (docs/training.md) by the reference: each sentence run on its own through the slow
// forward and the hand-derived backward, the gradients summed with weights m_s / M, and SGD or
// Adam written out again here, all in long double.

namespace {

struct RefTraining {
    std::vector<Real> loss;
    std::vector<Real> gradNorm;
};

// `draw`'s cell running `words` (rows of its tied vocab) with each next word as its target.
tref::Cell sentenceCell(const Draw& draw, const tref::Cell& weights,
                        const std::vector<int>& words) {
    tref::Cell cell = withWords(draw, weights, words);
    cell.T = 1;
    cell.targets.assign(words.begin() + 1, words.end());
    cell.targets.push_back(-1);
    cell.upstream = Matrix();
    for (tref::Layer& layer : cell.layers) {
        layer.att.padding.clear();
    }
    return cell;
}

// The trainable tensors of a tied cell and their gradients, in the `grad` listing's order.
std::vector<std::pair<Matrix*, const Matrix*>> trainable(tref::Cell& cell, const tref::Grads& g) {
    std::vector<std::pair<Matrix*, const Matrix*>> out;
    for (size_t l = 0; l < cell.layers.size(); ++l) {
        tref::Layer& layer = cell.layers[l];
        const tref::LayerGrads& lg = g.layers[l];
        for (auto [value, grad] : {std::pair{&layer.att.WQ, &lg.WQ},
                                   {&layer.att.bQ, &lg.bQ},
                                   {&layer.att.WK, &lg.WK},
                                   {&layer.att.bK, &lg.bK},
                                   {&layer.att.WV, &lg.WV},
                                   {&layer.att.bV, &lg.bV},
                                   {&layer.att.WO, &lg.WO},
                                   {&layer.att.bO, &lg.bO}}) {
            out.emplace_back(value, grad);
        }
        if (!layer.ln1.identity) {
            out.emplace_back(&layer.ln1.gamma, &lg.ln1Gamma);
            out.emplace_back(&layer.ln1.beta, &lg.ln1Beta);
        }
        if (!layer.ln2.identity) {
            out.emplace_back(&layer.ln2.gamma, &lg.ln2Gamma);
            out.emplace_back(&layer.ln2.beta, &lg.ln2Beta);
        }
        if (layer.ffn.present) {
            out.emplace_back(&layer.ffn.W1, &lg.W1);
            out.emplace_back(&layer.ffn.b1, &lg.b1);
            out.emplace_back(&layer.ffn.W2, &lg.W2);
            out.emplace_back(&layer.ffn.b2, &lg.b2);
        }
    }
    if (!cell.finalLn.identity) {
        out.emplace_back(&cell.finalLn.gamma, &g.finalGamma);
        out.emplace_back(&cell.finalLn.beta, &g.finalBeta);
    }
    out.emplace_back(&cell.U, &g.vocab); // tied: the vocab, its X0 rows' gradients added
    out.emplace_back(&cell.bU, &g.bU);
    return out;
}

RefTraining referenceTraining(const Draw& draw, const std::vector<std::vector<int>>& data,
                              int steps, bool adam, Real lr) {
    tref::Cell w = draw.cell;
    RefTraining out;
    int M = 0;
    for (const std::vector<int>& s : data) {
        M += int(s.size()) - 1;
    }
    std::vector<Matrix> m1, m2;
    for (int step = 0; step <= steps; ++step) {
        Real loss = 0;
        std::vector<Matrix> total;
        for (const std::vector<int>& words : data) {
            const tref::Cell cell = sentenceCell(draw, w, words);
            const tref::Forward f = tref::forward(cell);
            const Real share = Real(int(words.size()) - 1) / M;
            loss += share * f.loss;
            const tref::Grads g = tref::backward(cell, f);
            tref::Cell scratch = w;
            const auto pairs = trainable(scratch, g);
            if (total.empty()) {
                for (const auto& [value, grad] : pairs) {
                    total.emplace_back(value->rows, value->cols);
                }
            }
            for (size_t i = 0; i < pairs.size(); ++i) {
                for (size_t e = 0; e < total[i].v.size(); ++e) {
                    total[i].v[e] += share * pairs[i].second->v[e];
                }
            }
        }
        out.loss.push_back(loss);
        if (step == steps) {
            break;
        }
        Real squares = 0;
        for (const Matrix& g : total) {
            for (Real x : g.v) {
                squares += x * x;
            }
        }
        out.gradNorm.push_back(std::sqrt(squares));
        const auto params = trainable(w, tref::Grads{});
        if (m1.empty()) {
            for (const Matrix& g : total) {
                m1.emplace_back(g.rows, g.cols);
                m2.emplace_back(g.rows, g.cols);
            }
        }
        for (size_t i = 0; i < params.size(); ++i) {
            Matrix& theta = *params[i].first;
            for (size_t e = 0; e < theta.v.size(); ++e) {
                const Real g = total[i].v[e];
                if (!adam) {
                    theta.v[e] -= lr * g;
                    continue;
                }
                m1[i].v[e] = 0.9L * m1[i].v[e] + 0.1L * g;
                m2[i].v[e] = 0.999L * m2[i].v[e] + 0.001L * g * g;
                const Real mHat = m1[i].v[e] / (1 - std::pow(0.9L, Real(step + 1)));
                const Real vHat = m2[i].v[e] / (1 - std::pow(0.999L, Real(step + 1)));
                theta.v[e] -= lr * mHat / (std::sqrt(vHat) + 1e-8L);
            }
        }
    }
    return out;
}

} // namespace

// Twenty tied random cells trained 15 steps, by SGD and by Adam, on four random sentences: the
// engine's loss and gradient norm at every step against the reference's to 1e-9 relative.
TEST_CASE("trainingMatchesTheReference") {
    int cells = 0;
    for (const Draw& draw : randomCells()) {
        if (!draw.cell.tied || !(draw.config.run == TransformerSwitches{}) ||
            draw.config.positional == PositionalKind::Learned) {
            continue;
        }
        INFO(draw.label);
        std::mt19937_64 rng(uint64_t(cells) + 5);
        std::vector<std::vector<int>> data;
        for (int s = 0; s < 4; ++s) {
            std::vector<int> words(size_t(2 + rng() % 4));
            for (int& word : words) {
                word = int(rng() % uint64_t(draw.cell.V));
            }
            data.push_back(words);
        }
        for (const bool adam : {false, true}) {
            TrainingSpec spec;
            spec.data = data;
            spec.steps = 15;
            spec.optimizer = adam ? TrainingSpec::Optimizer::Adam : TrainingSpec::Optimizer::Sgd;
            spec.lr = adam ? 0.01 : 0.05;
            const TrainingResult got = trainTransformer(draw.config, spec);
            const RefTraining expected = referenceTraining(draw, data, spec.steps, adam, spec.lr);
            REQUIRE_MESSAGE(got.stopped.empty(), got.stopped);
            REQUIRE(got.loss.size() == expected.loss.size());
            REQUIRE(got.gradNorm.size() == expected.gradNorm.size());
            for (size_t t = 0; t < got.loss.size(); ++t) {
                CHECK_MESSAGE(close(got.loss[t], expected.loss[t], 1e-9),
                              (adam ? "adam" : "sgd")
                                  << " loss[" << t << "] " << precise(got.loss[t]) << ", expected "
                                  << precise(double(expected.loss[t])));
            }
            for (size_t t = 0; t < got.gradNorm.size(); ++t) {
                CHECK(close(got.gradNorm[t], expected.gradNorm[t], 1e-9));
            }
            CHECK(got.loss.back() < got.loss.front()); // it learns
        }
        if (++cells == 20) {
            break;
        }
    }
    CHECK(cells == 20);
}

// steps: 0 is the cell as written; a random start is the same numbers every time and the
// spec's Box–Muller over splitmix64; an lr far too large stops with the step and the reason.
TEST_CASE("trainingEdges") {
    const std::vector<Draw> draws = randomCells();
    const auto tied = std::find_if(draws.begin(), draws.end(), [](const Draw& d) {
        return d.cell.tied && d.config.run == TransformerSwitches{} &&
               d.config.positional != PositionalKind::Learned;
    });
    REQUIRE(tied != draws.end());
    TrainingSpec spec;
    spec.data = {{0, 1, 0}, {1, 0}};
    spec.steps = 0;
    const TrainingResult none = trainTransformer(tied->config, spec);
    REQUIRE(none.loss.size() == 1);
    CHECK(none.gradNorm.empty());
    CHECK(arma::approx_equal(none.weights.vocab, tied->config.vocab, "absdiff", 0.0));

    spec.init = TrainingSpec::Init{7, 0.5};
    const TrainingResult a = trainTransformer(tied->config, spec);
    const TrainingResult b = trainTransformer(tied->config, spec);
    CHECK(arma::approx_equal(a.weights.vocab, b.weights.vocab, "absdiff", 0.0));
    uint64_t state = 7; // the vocab's first entry: scale · √(−2 ln(1 − u₁)) · cos(2π u₂)
    const Real u1 = Real(splitmix(state) >> 11) * 0x1.0p-53L;
    const Real u2 = Real(splitmix(state) >> 11) * 0x1.0p-53L;
    const Real z = std::sqrt(-2 * std::log(1 - u1)) * std::cos(2 * tref::kPi * u2);
    CHECK(close(a.weights.vocab(0, 0), 0.5L * z, 1e-15));
    CHECK((a.weights.finalLn.identity || arma::all(a.weights.finalLn.gamma == 1.0)));

    spec.init.reset();
    spec.steps = 50;
    spec.optimizer = TrainingSpec::Optimizer::Sgd;
    spec.lr = 1e12;
    const TrainingResult blown = trainTransformer(tied->config, spec);
    CHECK_MESSAGE(blown.stopped.find("lr 1e+12 is too large: the loss overflowed at step ") == 0,
                  blown.stopped);
    CHECK(blown.loss.size() < 51);
    for (double loss : blown.loss) {
        CHECK(std::isfinite(loss));
    }
}

// The reference's hand-derived backward against central differences of its own loss, on the
// same 100 cells: three entries of every gradient (every entry of the small ones).
TEST_CASE("referenceBackwardByDifferences") {
    for (const Draw& draw : randomCells()) {
        const tref::Forward f = tref::forward(draw.cell);
        const tref::Grads g = tref::backward(draw.cell, f);
        const std::string failures = tref::checkByDifferences(draw.cell, g, 3);
        CHECK_MESSAGE(failures.empty(), draw.label << ": " << failures);
    }
}

// The 100 cells draw every kind of cell above at least once, so that the comparisons are not
// narrower than they look.
TEST_CASE("randomCellsCoverEveryKind") {
    std::set<std::string> seen;
    for (const Draw& draw : randomCells()) {
        seen.insert(draw.kinds.begin(), draw.kinds.end());
    }
    for (const char* kind :
         {"L=1",           "L=2",           "L=3",           "h=1",          "h=2",
          "h=4",           "causal",        "no-mask",       "padding",      "blocked-row",
          "gelu",          "gelu_tanh",     "relu",          "ln1:none",     "ln2:none",
          "final_ln:none", "gamma",         "gamma-default", "beta",         "beta-default",
          "ffn:none",      "tied",          "untied",        "b_U",          "no-b_U",
          "T=0.5",         "T=1.0",         "T=2.0",         "targets",      "target-none",
          "upstream",      "upstream-ones", "sinusoidal",    "learned",      "no-positional",
          "idW_Q",         "idW_K",         "idW_V",         "idW_O",        "explicitW_Q",
          "explicitW_K",   "explicitW_V",   "explicitW_O",   "bias",         "bias-default",
          "b_1",           "b_2",           "scale-off",     "scale-custom", "eps=1e-3",
          "run.norm=off",  "run.ffn=off"}) {
        CHECK_MESSAGE(seen.count(kind) == 1, kind);
    }
    bool layersSwitch = false;
    for (const std::string& kind : seen) {
        layersSwitch = layersSwitch || kind.rfind("run.layers=", 0) == 0;
    }
    CHECK(layersSwitch);
}

// ---------------------------------------------------------------------------
// Generation with the cache: every step's chances equal a full recompute of the longer
// sequence's last row, the picks and costs follow transformer.md.

TEST_CASE("generation") {
    Generator gen(77);
    TransformerEngine engine;
    for (int index = 0; index < 12; ++index) {
        const Draw draw = drawCell(gen, true);
        for (const PickKind pick : {PickKind::Greedy, PickKind::Sample}) {
            for (int steps = 1; steps <= 5; ++steps) {
                const uint64_t seed = uint64_t(gen.integer(0, 1 << 30)) * 2654435761ull;
                INFO(draw.label << (pick == PickKind::Greedy ? " greedy" : " sample seed ")
                                << (pick == PickKind::Greedy ? "" : std::to_string(seed))
                                << " steps " << steps);
                TransformerConfig config = draw.config;
                config.generate = GenerateRequest{steps, pick, seed};
                TransformerResult r;
                try {
                    r = engine.compute(config, GradientCheck::Skip);
                } catch (const std::exception& e) {
                    FAIL_CHECK("threw " << std::string(e.what()));
                    continue;
                }
                CHECK_MESSAGE(r.generation.ran, r.generation.refused);
                CHECK(r.generation.refused.empty());
                CHECK_EQ(r.generation.steps.size(), size_t(steps));
                if (!r.generation.ran || r.generation.steps.size() != size_t(steps)) {
                    continue;
                }

                const tref::Cell& cell = draw.cell;
                std::vector<int> words = cell.tokenWords;
                uint64_t state = seed;
                for (int t = 1; t <= steps; ++t) {
                    const GenerationStep& step = r.generation.steps[size_t(t - 1)];
                    const tref::Forward f = tref::forward(extended(draw, words));
                    Matrix last(1, cell.V);
                    for (int w = 0; w < cell.V; ++w) {
                        last.at(0, w) = f.probs.at(int(words.size()) - 1, w);
                    }
                    Comparison cmp;
                    cmp.matrix("step " + std::to_string(t) + " probs", step.probs, last);
                    CHECK_MESSAGE(cmp.ok(), cmp.report());

                    int word = 0;
                    if (pick == PickKind::Greedy) { // the most likely, the first on a tie
                        for (int w = 1; w < cell.V; ++w) {
                            word = last.v[size_t(w)] > last.v[size_t(word)] ? w : word;
                        }
                    } else { // the first whose running total exceeds u
                        const double u = double(splitmix(state) >> 11) * 0x1.0p-53;
                        Real total = 0;
                        word = -1;
                        for (int w = 0; w < cell.V && word < 0; ++w) {
                            total += last.v[size_t(w)];
                            word = total > u ? w : -1;
                        }
                        for (int w = cell.V; word < 0 && w-- > 0;) {
                            word = last.v[size_t(w)] > 0 ? w : -1;
                        }
                    }
                    CHECK_EQ(step.word, word);
                    CHECK_EQ(step.label, draw.config.vocabLabels[size_t(word)]);
                    CHECK(close(step.prob, last.v[size_t(word)], 1e-12));
                    const int n = cell.n;
                    CHECK_EQ(step.costCached, double(t == 1 ? n * n : n + t - 1));
                    CHECK_EQ(step.costFull, double((n + t - 1) * (n + t - 1)));
                    if (step.word != word) {
                        break; // the sequences part here
                    }
                    words.push_back(word);
                }
                double cache = 0; // L · h · (d_k + d_v) · (n + N − 1), summed over the layers
                for (const tref::Layer& layer : cell.layers) {
                    cache += layer.att.h * (layer.att.dK + layer.att.dV) * (cell.n + steps - 1);
                }
                CHECK_EQ(r.generation.cacheNumbers, cache);
            }
        }
    }
}

// Without a causal mask in every layer there is nothing to cache: refused, with the reason,
// and the rest of the cell still computed.
TEST_CASE("generationRefusedWithoutMask") {
    Generator gen(78);
    for (int index = 0; index < 4; ++index) {
        Draw draw = drawCell(gen, true);
        // The last layer unmasked: the first cell has one layer, later ones possibly more.
        draw.config.layers.back().attention.mask = MaskKind::None;
        draw.config.generate = GenerateRequest{3, PickKind::Greedy, 0};
        INFO(draw.label);
        const TransformerResult r = TransformerEngine().compute(draw.config, GradientCheck::Skip);
        CHECK_FALSE(r.generation.ran);
        CHECK_FALSE(r.generation.refused.empty());
        CHECK(r.generation.steps.empty());
        CHECK_EQ(r.probs.n_rows, arma::uword(draw.cell.n));
    }
}

// splitmix64: the first outputs from state 0 (also computed with Python's integers when this
// test was written), and the engine's against the one above for a few seeds.
TEST_CASE("splitmix64") {
    uint64_t state = 0;
    CHECK_EQ(splitmix(state), 0xE220A8397B1DCDAFull);
    CHECK_EQ(splitmix(state), 0x6E789E6AA1B965F4ull);
    CHECK_EQ(splitmix(state), 0x06C45D188009454Full);
    CHECK_EQ(state, 3 * 0x9E3779B97F4A7C15ull);
    for (const uint64_t seed : {0ull, 1ull, 42ull, 0xFFFFFFFFFFFFFFFFull, 0x0123456789ABCDEFull}) {
        uint64_t mine = seed, theirs = seed;
        for (int t = 0; t < 8; ++t) {
            CHECK_EQ(attnbook::splitmix64(theirs), splitmix(mine));
            CHECK_EQ(theirs, mine);
        }
    }
}

// The picks on numbers whose running totals are exact (binary fractions).
TEST_CASE("picks") {
    const arma::rowvec p = {0.25, 0.5, 0.25};
    CHECK_EQ(pickByDraw(p, 0.0), 0);
    CHECK_EQ(pickByDraw(p, 0.2499), 0);
    CHECK_EQ(pickByDraw(p, 0.25), 1); // the total must exceed u
    CHECK_EQ(pickByDraw(p, 0.7499), 1);
    CHECK_EQ(pickByDraw(p, 0.75), 2);
    CHECK_EQ(pickByDraw(p, 0.9999), 2);
    // Rounding left the total at or below u: the last word with a positive chance.
    CHECK_EQ(pickByDraw(arma::rowvec{0.5, 0.25, 0.0}, 0.9), 1);
    CHECK_EQ(pickGreedy(arma::rowvec{0.25, 0.375, 0.375}), 1);
    CHECK_EQ(pickGreedy(arma::rowvec{0.1, 0.2, 0.7}), 2);
    CHECK_EQ(pickGreedy(arma::rowvec{1.0}), 0);
}

// ---------------------------------------------------------------------------
// Attention in blocks: the running m, ℓ and o after each block and the final rows, against
// the plain softmax path.

TEST_CASE("blocks") {
    Generator gen(31);
    for (int index = 0; index < 60; ++index) {
        const int n = gen.integer(1, 7);
        const int m = gen.coin(0.7) ? n : gen.integer(1, 7);
        const int dK = gen.integer(1, 3), dV = gen.integer(1, 3);
        const Matrix Q = gen.matrix(n, dK, 2.0), K = gen.matrix(m, dK, 2.0), V = gen.matrix(m, dV);
        const double scale = gen.uniform(0.3, 1.5);
        const MaskKind mask = gen.coin(0.5) ? MaskKind::Causal : MaskKind::None;
        std::vector<bool> padding;
        const int style = gen.integer(0, 9); // 0–5 none, 6–8 some flags, 9 every flag
        if (style >= 6) {
            for (int c = 0; c < m; ++c) {
                padding.push_back(style == 9 || gen.coin(0.3));
            }
        }
        // Query row r sits at position m − n + r (attention.md, "Direct mode").
        const auto readable = [&](int r, int c) {
            return !(mask == MaskKind::Causal && c > m - n + r) &&
                   (padding.empty() || !padding[size_t(c)]);
        };
        Matrix S(n, m);
        for (int r = 0; r < n; ++r) {
            for (int c = 0; c < m; ++c) {
                Real dot = 0;
                for (int t = 0; t < dK; ++t) {
                    dot += Q.at(r, t) * K.at(c, t);
                }
                S.at(r, c) = readable(r, c) ? Real(scale) * dot : tref::kMinusInf;
            }
        }
        // m, ℓ and o of every row over the keys [0, end): a definition, not a recurrence.
        const auto state = [&](int end, Matrix& runningMax, Matrix& total, Matrix& out) {
            runningMax = Matrix(n, 1, tref::kMinusInf);
            total = Matrix(n, 1);
            out = Matrix(n, dV);
            for (int r = 0; r < n; ++r) {
                for (int c = 0; c < end; ++c) {
                    runningMax.at(r, 0) = std::max(runningMax.at(r, 0), S.at(r, c));
                }
                for (int c = 0; c < end && runningMax.at(r, 0) != tref::kMinusInf; ++c) {
                    const Real e = std::exp(S.at(r, c) - runningMax.at(r, 0));
                    total.at(r, 0) += e;
                    for (int t = 0; t < dV; ++t) {
                        out.at(r, t) += e * V.at(c, t);
                    }
                }
            }
        };
        Matrix finalMax, finalTotal, finalOut;
        state(m, finalMax, finalTotal, finalOut);
        Matrix output(n, dV); // the softmax path: o / ℓ, 0 for a row that reads nothing
        for (int r = 0; r < n; ++r) {
            for (int t = 0; t < dV && finalTotal.at(r, 0) > 0; ++t) {
                output.at(r, t) = finalOut.at(r, t) / finalTotal.at(r, 0);
            }
        }
        for (const int B : {1, 2, 3, m, m + 1}) {
            INFO("n=" << n << " m=" << m << " d_k=" << dK << " d_v=" << dV << " B=" << B
                      << (mask == MaskKind::Causal ? " causal" : "")
                      << (padding.empty() ? "" : " padding"));
            const BlockwiseHead b =
                blockwiseHead(toArma(Q), toArma(K), toArma(V), scale, mask, padding, B);
            CHECK_EQ(b.steps.size(), size_t((m + B - 1) / B));
            if (b.steps.size() != size_t((m + B - 1) / B)) {
                continue;
            }
            Comparison cmp;
            for (size_t j = 0; j < b.steps.size(); ++j) {
                const BlockwiseStep& step = b.steps[j];
                const int end = std::min(m, int(j + 1) * B);
                CHECK_EQ(step.firstKey, int(j) * B);
                CHECK_EQ(step.endKey, end);
                Matrix runningMax, total, out;
                state(end, runningMax, total, out);
                const std::string at = "step " + std::to_string(j);
                cmp.matrix(at + " m", step.runningMax, runningMax);
                cmp.matrix(at + " l", step.runningTotal, total);
                cmp.matrix(at + " o", step.runningOut, out);
            }
            cmp.matrix("output", b.output, output);
            CHECK_MESSAGE(cmp.ok(), cmp.report());
        }
    }
    CHECK_THROWS_AS(blockwiseHead(arma::mat(2, 1, arma::fill::ones),
                                  arma::mat(2, 1, arma::fill::ones),
                                  arma::mat(2, 1, arma::fill::ones), 1.0, MaskKind::None, {}, 0),
                    std::invalid_argument);
}

// ---------------------------------------------------------------------------
// transformer.md's worked numbers: one layer, no norms, no FFN, identity attention (one
// head, scaling on, no mask) over red, blue, red: X¹ = X⁰ + Attention(X⁰).

TEST_CASE("workedNumbers") {
    TransformerConfig config;
    config.vocab = {{1, 0, 0, 0}, {0, 1, 0, 0}};
    config.vocabLabels = {"red", "blue"};
    config.tokens = {"red", "blue", "red"};
    config.X0 = {{1, 0, 0, 0}, {0, 1, 0, 0}, {1, 0, 0, 0}};
    TransformerLayer layer;
    layer.ln1.identity = layer.ln2.identity = true;
    layer.ffn.present = false;
    config.layers = {layer};
    config.finalLn.identity = true;
    const TransformerResult r = TransformerEngine().compute(config);
    REQUIRE_EQ(r.layers.size(), size_t(1));
    const arma::mat& x1 = r.layers[0].resid2;
    REQUIRE_EQ(x1.n_rows, arma::uword(3));
    REQUIRE_EQ(x1.n_cols, arma::uword(4));
    const std::vector<std::vector<double>> expected = {
        {1.7673, 0.2327, 0, 0}, {0.5481, 1.4519, 0, 0}, {1.7673, 0.2327, 0, 0}};
    // The same from the reference.
    tref::Cell cell;
    cell.n = 3, cell.d = 4, cell.V = 2, cell.tied = true, cell.tokenWords = {0, 1, 0};
    cell.U = Matrix(2, 4);
    cell.U.at(0, 0) = cell.U.at(1, 1) = 1;
    cell.X0 = Matrix(3, 4);
    cell.X0.at(0, 0) = cell.X0.at(1, 1) = cell.X0.at(2, 0) = 1;
    cell.P = Matrix(3, 4);
    tref::Layer ref;
    ref.ln1.identity = ref.ln2.identity = true;
    ref.att.dK = ref.att.dV = 4;
    ref.att.scale = 0.5;
    ref.att.WQ = ref.att.WK = ref.att.WV = ref.att.WO = tref::identity(4);
    ref.att.bQ = ref.att.bK = ref.att.bV = ref.att.bO = Matrix(1, 4);
    cell.layers = {ref};
    cell.finalLn.identity = true;
    cell.eps = 1e-5;
    cell.bU = Matrix(1, 2);
    cell.upstream = Matrix(3, 2, 1);
    const tref::Forward f = tref::forward(cell);
    for (int row = 0; row < 3; ++row) {
        for (int col = 0; col < 4; ++col) {
            INFO("row " << row << " col " << col);
            CHECK(std::abs(x1(arma::uword(row), arma::uword(col)) -
                           expected[size_t(row)][size_t(col)]) < 1e-4);
            CHECK(std::abs(double(f.layers[0].resid2.at(row, col)) -
                           expected[size_t(row)][size_t(col)]) < 1e-4);
        }
    }
}

// ---------------------------------------------------------------------------
// Configurations that cannot be computed: InvalidConfig naming the key at fault, from
// validateTransformer and from compute.

namespace {

// Two layers of width 4 over a vocabulary of 5, three tokens with targets: computes.
TransformerConfig validConfig() {
    Generator gen(5);
    TransformerConfig c;
    c.vocab = toArma(gen.matrix(5, 4));
    c.vocabLabels = labels("w", 5);
    c.tokens = {"w1", "w3", "w0"};
    c.X0 = c.vocab.rows(arma::uvec{1, 3, 0});
    for (int l = 0; l < 2; ++l) {
        TransformerLayer layer;
        layer.attention.heads = 2;
        layer.attention.mask = MaskKind::Causal;
        layer.attention.wQ = {false, toArma(gen.matrix(4, 4))};
        layer.attention.wK = {false, toArma(gen.matrix(4, 4))};
        layer.attention.wV = {false, toArma(gen.matrix(4, 4))};
        layer.attention.wO = {false, toArma(gen.matrix(4, 4))};
        layer.ffn.W1 = toArma(gen.matrix(6, 4));
        layer.ffn.b1 = toRow(gen.matrix(1, 6));
        layer.ffn.W2 = toArma(gen.matrix(4, 6));
        c.layers.push_back(layer);
    }
    c.targets = {1, -1, 2};
    return c;
}

struct BadCase {
    const char* name;
    std::function<void(TransformerConfig&)> spoil;
    std::vector<std::string> keyParts; // what the key must name
};

} // namespace

TEST_CASE("invalidConfigurations") {
    const TransformerConfig valid = validConfig();
    REQUIRE_NOTHROW(validateTransformer(valid, TransformerLimits{}));
    REQUIRE_NOTHROW(TransformerEngine().compute(valid));
    const std::vector<BadCase> cases = {
        {"W_1 of the wrong width",
         [](TransformerConfig& c) { c.layers[1].ffn.W1 = arma::mat(6, 3, arma::fill::ones); },
         {"layers[1]", "W_1"}},
        {"W_2 of the wrong height",
         [](TransformerConfig& c) { c.layers[0].ffn.W2 = arma::mat(3, 6, arma::fill::ones); },
         {"layers[0]", "W_2"}},
        {"b_1 of the wrong length",
         [](TransformerConfig& c) { c.layers[0].ffn.b1 = arma::rowvec(5, arma::fill::ones); },
         {"layers[0]", "b_1"}},
        {"ln2 gamma of the wrong length",
         [](TransformerConfig& c) { c.layers[1].ln2.gamma = arma::rowvec(3, arma::fill::ones); },
         {"layers[1]", "ln2", "gamma"}},
        {"ln1 beta of the wrong length",
         [](TransformerConfig& c) { c.layers[0].ln1.beta = arma::rowvec(5, arma::fill::zeros); },
         {"layers[0]", "ln1", "beta"}},
        {"final gamma of the wrong length",
         [](TransformerConfig& c) { c.finalLn.gamma = arma::rowvec(2, arma::fill::ones); },
         {"final_ln", "gamma"}},
        {"attention output width 3, not d = 4",
         [](TransformerConfig& c) {
             c.layers[1].attention.wO = {false, arma::mat(3, 4, arma::fill::ones)};
         },
         {"layers[1]", "W_O"}},
        {"W_Q of the wrong width",
         [](TransformerConfig& c) {
             c.layers[0].attention.wQ = {false, arma::mat(4, 5, arma::fill::ones)};
         },
         {"layers[0]", "W_Q"}},
        {"target index out of range",
         [](TransformerConfig& c) {
             c.targets = {1, 5, 2};
         },
         {"targets"}},
        {"target index below −1",
         [](TransformerConfig& c) {
             c.targets = {1, -2, 2};
         },
         {"targets"}},
        {"targets of the wrong count",
         [](TransformerConfig& c) {
             c.targets = {1, 2};
         },
         {"targets"}},
        {"temperature 0", [](TransformerConfig& c) { c.temperature = 0; }, {"temperature"}},
        {"temperature −1", [](TransformerConfig& c) { c.temperature = -1; }, {"temperature"}},
        {"unembedding of the wrong width",
         [](TransformerConfig& c) {
             c.tiedUnembed = false;
             c.unembed = arma::mat(5, 3, arma::fill::ones);
             c.unembedLabels = labels("u", 5);
         },
         {"unembed"}},
        {"no layers", [](TransformerConfig& c) { c.layers.clear(); }, {"layers"}},
    };
    for (const BadCase& bad : cases) {
        test::dataRow(bad.name, [&] {
            TransformerConfig config = valid;
            bad.spoil(config);
            for (const bool viaCompute : {false, true}) {
                const std::string via = viaCompute ? "compute" : "validateTransformer";
                INFO(via);
                std::string key;
                try {
                    if (viaCompute) {
                        TransformerEngine().compute(config);
                    } else {
                        validateTransformer(config, TransformerLimits{});
                    }
                    FAIL_CHECK("did not throw");
                    continue;
                } catch (const InvalidConfig& e) {
                    key = e.error().key;
                }
                CHECK_FALSE(key.empty());
                for (const std::string& part : bad.keyParts) {
                    CHECK_MESSAGE(key.find(part) != std::string::npos,
                                  "key \"" << key << "\" does not name " << part);
                }
            }
        });
    }
}

// ---------------------------------------------------------------------------
// A check too large to run says so, and still counts the entries it would have checked: the
// same count as a check that runs (every weight, every bias made explicit, both LayerNorms and
// the final one, the tied vocabulary and b_U, and X0).

namespace {

// Two layers of width d, `heads` heads, an FFN of `hidden`, LayerNorms on, a tied vocabulary of
// V words, n tokens: the configuration and the entries a gradient check lists for it.
struct SizedCell {
    TransformerConfig config;
    size_t entries = 0;
};

SizedCell sizedCell(int n, int d, int hidden, int V) {
    Generator gen(11);
    SizedCell cell;
    TransformerConfig& c = cell.config;
    c.vocab = toArma(gen.matrix(V, d));
    c.vocabLabels = labels("w", V);
    arma::uvec rows(static_cast<arma::uword>(n));
    for (int i = 0; i < n; ++i) {
        rows(size_t(i)) = arma::uword(i % V);
        c.tokens.push_back(c.vocabLabels[size_t(i % V)]);
    }
    c.X0 = c.vocab.rows(rows);
    const double D = d, H = hidden;
    double entries = n * D + V * D + V + 2 * D; // X0, vocab, b_U, the final LayerNorm
    for (int l = 0; l < 2; ++l) {
        TransformerLayer layer;
        layer.attention.heads = 2;
        layer.attention.mask = MaskKind::Causal;
        for (Projection* p :
             {&layer.attention.wQ, &layer.attention.wK, &layer.attention.wV, &layer.attention.wO}) {
            *p = {false, toArma(gen.matrix(d, d))};
        }
        layer.ffn.W1 = toArma(gen.matrix(hidden, d));
        layer.ffn.W2 = toArma(gen.matrix(d, hidden));
        c.layers.push_back(layer);
        // W_Q … W_O and their biases; two LayerNorms; W₁, b₁, W₂, b₂
        entries += 4 * D * D + 4 * D + 4 * D + 2 * D * H + H + D;
    }
    cell.entries = size_t(entries);
    return cell;
}

} // namespace

TEST_CASE("gradientCheckTooLargeCountsItsEntries") {
    TransformerEngine engine;
    const SizedCell small = sizedCell(3, 4, 6, 5);
    const TransformerResult checked = engine.compute(small.config, GradientCheck::Run);
    REQUIRE(checked.gradcheck.ran);
    CHECK(checked.gradcheck.total == small.entries);

    // One entry costs two forward passes of ~1e8 multiply-adds: over the budget of 4e7.
    const SizedCell large = sizedCell(64, 256, 512, 64);
    const TransformerResult skipped = engine.compute(large.config, GradientCheck::Run);
    CHECK(!skipped.gradcheck.ran);
    CHECK(skipped.gradcheck.skipped.rfind("this cell is too large to check: one entry costs ", 0) ==
          0);
    CHECK(skipped.gradcheck.total == large.entries);
}
