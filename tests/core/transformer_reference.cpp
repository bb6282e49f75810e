// The slow reference transformer of transformer_reference.h: the forward pass, the backward
// pass derived by hand, and that backward against central differences of its own loss.
#include "transformer_reference.h"

#include <cstdio>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace tref {

Matrix identity(int size) {
    Matrix m(size, size);
    for (int i = 0; i < size; ++i) {
        m.at(i, i) = 1;
    }
    return m;
}

// ---------------------------------------------------------------------------
// Forward

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

// attention.md's forward with H as its X; head `silenced` (if any) has its context rows set to
// zero before W_O, b_O still added.
AttentionOut attentionForward(const Matrix& H, const Attention& a, int silenced) {
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

Forward forward(const Cell& cell, const Removal& removal) {
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
