// A deliberately slow, loop-only attention written from attention.md alone, beside the fast
// core (the way nanoGPT keeps a "manual implementation" next to the fused call). It shares no
// code with core/: plain row-major std::vector<double> loops, no Armadillo products. The cases
// that hold the engine to it are in test_attention_reference*.cpp.
//
// Names as in attention.md: n query rows, m key rows, d model width, h heads, d_k / d_v
// per-head widths, d_o output width.
#pragma once

#include <limits>
#include <vector>

namespace ref {

const double kMinusInf = -std::numeric_limits<double>::infinity();

// A row-major matrix: entry (r, c) at v[r·cols + c].
struct Matrix {
    int rows = 0;
    int cols = 0;
    std::vector<double> v;

    Matrix() = default;
    Matrix(int r, int c, double fill = 0.0) : rows(r), cols(c), v(size_t(r) * size_t(c), fill) {}
    double& at(int r, int c) { return v[size_t(r) * size_t(cols) + size_t(c)]; }
    double at(int r, int c) const { return v[size_t(r) * size_t(cols) + size_t(c)]; }
};

Matrix identity(int size);

// One cell with every default spelled out: identity weights as matrices,
// absent biases as zeros, the default upstream as ones, P as numbers.
struct Cell {
    bool direct = false;
    int n = 0, m = 0, d = 0, h = 1, dK = 0, dV = 0, dO = 0;
    double scale = 1.0;
    bool causal = false;
    std::vector<bool> padding; // m flags (all false: none)

    Matrix X0, P;  // (n × d)
    Matrix WQ, WK; // (h·d_k × d)
    Matrix WV;     // (h·d_v × d)
    Matrix WO;     // (d_o × h·d_v)
    std::vector<double> bQ, bK, bV, bO;
    Matrix queries, keys, values; // direct mode: (n × h·d_k), (m × h·d_k), (m × h·d_v)
    Matrix upstream;              // (n × d_o)
};

struct Head {
    Matrix S; // (n × m) scaled scores, −∞ where blocked
    Matrix A; // (n × m) shares
    Matrix H; // (n × d_v) context
};

struct Result {
    Matrix X, Q, K, V; // (n × d), (n × h·d_k), (m × h·d_k), (m × h·d_v)
    std::vector<Head> heads;
    Matrix C, Y; // (n × h·d_v), (n × d_o)
    // Gradients.
    Matrix GX, GWQ, GWK, GWV, GWO, GQ, GK, GV;
    std::vector<double> GbQ, GbK, GbV, GbO;
    std::set<std::pair<int, int>> blockedRows; // (head, row)
};

// P[pos][2i] = sin(pos / 10000^(2i/d)), P[pos][2i+1] = cos(the same).
Matrix sinusoidal(int n, int d);

// out (rows × outputs) = in (rows × inputs) · Wᵀ, W (outputs × inputs), + b
Matrix project(const Matrix& in, const Matrix& w, const std::vector<double>& b);

// Query row r sits at position m − n + r; it reads key c unless c lies in its
// future (causal) or c is padding.
bool readable(const Cell& cell, int r, int c);

// S_i, A_i and H_i of head i.
Head attendHead(const Cell& cell, const Result& res, int i);

void forward(const Cell& cell, Result& res);

// ∂L/∂W (outputs × inputs) = Gᵀ · in, and ∂L/∂b = column sums of G.
void weightGradient(const Matrix& g, const Matrix& in, Matrix& gw, std::vector<double>& gb);

// G_in (rows × inputs) += G (rows × outputs) · W (outputs × inputs)
void addBack(const Matrix& g, const Matrix& w, Matrix& gIn);

// Head i's share of G_Q, G_K, G_V, from its columns of G_C.
void backwardHead(const Cell& cell, Result& res, const Matrix& GC, int i);

void backward(const Cell& cell, Result& res);

Result compute(const Cell& cell);

} // namespace ref
