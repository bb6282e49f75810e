// The slow reference attention of attention_reference.h: forward and backward, head by head.
#include "attention_reference.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace ref {

Matrix identity(int size) {
    Matrix m(size, size);
    for (int i = 0; i < size; ++i) {
        m.at(i, i) = 1.0;
    }
    return m;
}

// P[pos][2i] = sin(pos / 10000^(2i/d)), P[pos][2i+1] = cos(the same).
Matrix sinusoidal(int n, int d) {
    Matrix p(n, d);
    for (int pos = 0; pos < n; ++pos) {
        for (int i = 0; 2 * i < d; ++i) {
            const double angle = pos / std::pow(10000.0, 2.0 * i / d);
            p.at(pos, 2 * i) = std::sin(angle);
            if (2 * i + 1 < d) {
                p.at(pos, 2 * i + 1) = std::cos(angle);
            }
        }
    }
    return p;
}

// out (rows × outputs) = in (rows × inputs) · Wᵀ, W (outputs × inputs), + b
Matrix project(const Matrix& in, const Matrix& w, const std::vector<double>& b) {
    Matrix out(in.rows, w.rows);
    for (int r = 0; r < in.rows; ++r) {
        for (int o = 0; o < w.rows; ++o) {
            double sum = b[size_t(o)];
            for (int c = 0; c < in.cols; ++c) {
                sum += in.at(r, c) * w.at(o, c);
            }
            out.at(r, o) = sum;
        }
    }
    return out;
}

// Query row r sits at position m − n + r; it reads key c unless c lies in its
// future (causal) or c is padding.
bool readable(const Cell& cell, int r, int c) {
    if (cell.causal && c > cell.m - cell.n + r) {
        return false;
    }
    return !cell.padding[size_t(c)];
}

// S_i, A_i and H_i of head i.
Head attendHead(const Cell& cell, const Result& res, int i) {
    Head head{Matrix(cell.n, cell.m), Matrix(cell.n, cell.m), Matrix(cell.n, cell.dV)};
    for (int r = 0; r < cell.n; ++r) {
        double maximum = kMinusInf;
        for (int c = 0; c < cell.m; ++c) {
            double dot = 0.0;
            for (int t = 0; t < cell.dK; ++t) {
                dot += res.Q.at(r, i * cell.dK + t) * res.K.at(c, i * cell.dK + t);
            }
            head.S.at(r, c) = readable(cell, r, c) ? cell.scale * dot : kMinusInf;
            maximum = std::max(maximum, head.S.at(r, c));
        }
        if (maximum == kMinusInf) {
            continue; // a fully blocked row: shares and context stay 0
        }
        double total = 0.0;
        for (int c = 0; c < cell.m; ++c) {
            head.A.at(r, c) = std::exp(head.S.at(r, c) - maximum);
            total += head.A.at(r, c);
        }
        for (int c = 0; c < cell.m; ++c) {
            head.A.at(r, c) /= total;
        }
        for (int t = 0; t < cell.dV; ++t) {
            double sum = 0.0;
            for (int c = 0; c < cell.m; ++c) {
                sum += head.A.at(r, c) * res.V.at(c, i * cell.dV + t);
            }
            head.H.at(r, t) = sum;
        }
    }
    return head;
}

void forward(const Cell& cell, Result& res) {
    if (cell.direct) {
        res.Q = cell.queries;
        res.K = cell.keys;
        res.V = cell.values;
    } else {
        res.X = Matrix(cell.n, cell.d);
        for (size_t e = 0; e < res.X.v.size(); ++e) {
            res.X.v[e] = cell.X0.v[e] + cell.P.v[e];
        }
        res.Q = project(res.X, cell.WQ, cell.bQ);
        res.K = project(res.X, cell.WK, cell.bK);
        res.V = project(res.X, cell.WV, cell.bV);
    }
    res.C = Matrix(cell.n, cell.h * cell.dV);
    for (int i = 0; i < cell.h; ++i) {
        res.heads.push_back(attendHead(cell, res, i));
        for (int r = 0; r < cell.n; ++r) {
            bool any = false;
            for (int c = 0; c < cell.m; ++c) {
                any = any || readable(cell, r, c);
            }
            if (!any) {
                res.blockedRows.insert({i, r});
            }
            for (int t = 0; t < cell.dV; ++t) {
                res.C.at(r, i * cell.dV + t) = res.heads.back().H.at(r, t);
            }
        }
    }
    res.Y = cell.direct ? res.C : project(res.C, cell.WO, cell.bO);
}

// ∂L/∂W (outputs × inputs) = Gᵀ · in, and ∂L/∂b = column sums of G.
void weightGradient(const Matrix& g, const Matrix& in, Matrix& gw, std::vector<double>& gb) {
    gw = Matrix(g.cols, in.cols);
    gb.assign(size_t(g.cols), 0.0);
    for (int o = 0; o < g.cols; ++o) {
        for (int r = 0; r < g.rows; ++r) {
            gb[size_t(o)] += g.at(r, o);
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

// Head i's share of G_Q, G_K, G_V, from its columns of G_C.
void backwardHead(const Cell& cell, Result& res, const Matrix& GC, int i) {
    const Head& head = res.heads[size_t(i)];
    for (int r = 0; r < cell.n; ++r) {
        // G_A[r][c] = G_H[r] · V_i[c];  rowsum(G_A ⊙ A) for row r
        std::vector<double> GA(size_t(cell.m), 0.0);
        double dot = 0.0;
        for (int c = 0; c < cell.m; ++c) {
            for (int t = 0; t < cell.dV; ++t) {
                GA[size_t(c)] += GC.at(r, i * cell.dV + t) * res.V.at(c, i * cell.dV + t);
            }
            dot += GA[size_t(c)] * head.A.at(r, c);
        }
        for (int c = 0; c < cell.m; ++c) {
            const double a = head.A.at(r, c);
            const double gs = a * (GA[size_t(c)] - dot); // G_S; 0 where blocked (a = 0)
            for (int t = 0; t < cell.dV; ++t) {
                res.GV.at(c, i * cell.dV + t) += a * GC.at(r, i * cell.dV + t);
            }
            for (int t = 0; t < cell.dK; ++t) {
                res.GQ.at(r, i * cell.dK + t) += cell.scale * gs * res.K.at(c, i * cell.dK + t);
                res.GK.at(c, i * cell.dK + t) += cell.scale * gs * res.Q.at(r, i * cell.dK + t);
            }
        }
    }
}

void backward(const Cell& cell, Result& res) {
    // G_C (n × h·d_v) = G_Y (n × d_o) · W_O (d_o × h·d_v); = G_Y in direct mode.
    Matrix GC = cell.upstream;
    if (!cell.direct) {
        GC = Matrix(cell.n, cell.h * cell.dV);
        addBack(cell.upstream, cell.WO, GC);
        weightGradient(cell.upstream, res.C, res.GWO, res.GbO);
    }
    res.GQ = Matrix(cell.n, cell.h * cell.dK);
    res.GK = Matrix(cell.m, cell.h * cell.dK);
    res.GV = Matrix(cell.m, cell.h * cell.dV);
    for (int i = 0; i < cell.h; ++i) {
        backwardHead(cell, res, GC, i);
    }
    if (cell.direct) {
        return;
    }
    weightGradient(res.GQ, res.X, res.GWQ, res.GbQ);
    weightGradient(res.GK, res.X, res.GWK, res.GbK);
    weightGradient(res.GV, res.X, res.GWV, res.GbV);
    res.GX = Matrix(cell.n, cell.d);
    addBack(res.GQ, cell.WQ, res.GX);
    addBack(res.GK, cell.WK, res.GX);
    addBack(res.GV, cell.WV, res.GX);
}

Result compute(const Cell& cell) {
    Result res;
    forward(cell, res);
    backward(cell, res);
    return res;
}

} // namespace ref
