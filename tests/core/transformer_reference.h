// A deliberately slow, loop-only transformer written from transformer.md and attention.md
// alone, beside the engine (as attention_reference.h keeps one for a single attention layer).
// It shares no code with core/: plain row-major std::vector loops in long double, no
// Armadillo products. The cases that hold the engine to it are in test_transformer_reference*.cpp.
//
// Names as in transformer.md: n tokens, d model width, L layers, d_ff the FFN's hidden width,
// V words; per layer h heads of widths d_k and d_v.
#pragma once

#include <limits>
#include <string>
#include <vector>

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

Matrix identity(int size);

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
Matrix sinusoidal(int n, int d);

// out (rows × outputs) = in (rows × inputs) · Wᵀ + b, W (outputs × inputs), b (1 × outputs)
Matrix project(const Matrix& in, const Matrix& w, const Matrix& b);

Matrix plus(const Matrix& a, const Matrix& b);

NormOut normForward(const Matrix& x, const Norm& norm, Real eps);

// Row r reads key c unless c lies in its future (causal) or c is padding.
bool readable(const Attention& a, int r, int c);

// A knock-out as transformer.md's "Knock-outs" words it: the part's output is taken away.
struct Removal {
    enum class Kind { None, Head, Attention, Ffn, Block };
    Kind kind = Kind::None;
    int layer = -1;
    int head = -1;
};

// attention.md's forward with H as its X; head `silenced` (if any) has its context rows set to
// zero before W_O, b_O still added.
AttentionOut attentionForward(const Matrix& H, const Attention& a, int silenced = -1);

Real activate(Act act, Real x);

// act′(x)
Real slope(Act act, Real x);

Forward forward(const Cell& cell, const Removal& removal = {});

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
void weightGradient(const Matrix& g, const Matrix& in, Matrix& gw, Matrix& gb);

// G_in (rows × inputs) += G (rows × outputs) · W (outputs × inputs)
void addBack(const Matrix& g, const Matrix& w, Matrix& gIn);

// ∂L/∂x of a LayerNorm from ∂L/∂out, with ∂L/∂γ and ∂L/∂β; the identity passes it through.
//   ∂L/∂x̂ = g ⊙ γ;   ∂L/∂x = (1/√(σ²+ε)) (∂L/∂x̂ − mean(∂L/∂x̂) − x̂ · mean(∂L/∂x̂ ⊙ x̂))
Matrix normBackward(const Matrix& g, const Norm& norm, const NormOut& o, Matrix& gGamma,
                    Matrix& gBeta);

// attention.md's backward with H as its X, from G_Y = gY; returns ∂L/∂H.
Matrix attentionBackward(const Attention& a, const AttentionOut& o, const Matrix& H,
                         const Matrix& gY, LayerGrads& g);

Grads backward(const Cell& cell, const Forward& f);

struct Parameter {
    std::string name;
    Matrix* values;     // inside the perturbed copy of the cell
    const Matrix* grad; // the hand-derived gradient
    bool vocab;         // tied vocab: a nudge moves U and the X0 rows of that word too
};

std::vector<Parameter> parameters(Cell& cell, const Grads& g);

// Up to `perParameter` evenly spaced entries of every gradient against (L(x + δ) − L(x − δ))
// / 2δ with δ = 1e-7 in long double (truncation about δ² ≈ 1e-14, rounding about
// 1e-19 · |L| / δ ≈ 1e-12 · |L|). Returns the disagreements beyond 1e-7 · max(1, |∂L|), or "".
std::string checkByDifferences(const Cell& cell, const Grads& g, int perParameter);

} // namespace tref
