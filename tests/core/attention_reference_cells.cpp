// The random cells of attention_reference_cells.h, part by part, in the order the draws were
// always made (the cells must stay the same from run to run).
#include "attention_reference_cells.h"

#include <algorithm>
#include <string>
#include <vector>

namespace ref::cells {

// ---------------------------------------------------------------------------
// Random cells: one draw gives the reference Cell (every default spelled out)
// and the AttentionConfig that says the same thing the way a document would.

arma::mat toArma(const Matrix& m) {
    arma::mat a(arma::uword(m.rows), arma::uword(m.cols));
    for (int r = 0; r < m.rows; ++r) {
        for (int c = 0; c < m.cols; ++c) {
            a(arma::uword(r), arma::uword(c)) = m.at(r, c);
        }
    }
    return a;
}

arma::rowvec toArma(const std::vector<double>& v) {
    return arma::rowvec(v);
}

void Generator::drawMask(Draw& out) {
    Cell& cell = out.cell;
    cell.causal = coin(0.5);
    out.config.mask = cell.causal ? MaskKind::Causal : MaskKind::None;
    cell.padding.assign(size_t(cell.m), false);
    const int style = integer(0, 9); // 0–5 none, 6–8 some flags, 9 every flag
    if (style >= 6) {
        for (size_t c = 0; c < cell.padding.size(); ++c) {
            cell.padding[c] = style == 9 || coin(0.25);
        }
        out.config.padding = cell.padding;
    }
    out.label += cell.causal ? " causal" : " no-mask";
    out.label += style >= 6 ? (style == 9 ? " all-padding" : " padding") : "";
}

void Generator::drawScale(Draw& out) {
    switch (integer(0, 2)) {
    case 0:
        out.config.scaleKind = ScaleKind::InverseSqrtDk;
        out.cell.scale = 1.0 / std::sqrt(double(out.cell.dK));
        break;
    case 1:
        out.config.scaleKind = ScaleKind::Off;
        out.cell.scale = 1.0;
        out.label += " scale-off";
        break;
    default:
        out.config.scaleKind = ScaleKind::Divisor;
        out.config.scaleDivisor = uniform(0.3, 3.0);
        out.cell.scale = 1.0 / out.config.scaleDivisor;
        out.label += " scale-custom";
        break;
    }
}

void Generator::drawUpstream(Draw& out) {
    Cell& cell = out.cell;
    if (coin(0.5)) {
        cell.upstream = matrix(cell.n, cell.dO, 2.0);
        out.config.upstream = toArma(cell.upstream);
        out.label += " upstream";
    } else {
        cell.upstream = Matrix(cell.n, cell.dO, 1.0);
    }
}

void Generator::drawProjected(Draw& out, bool allowLarge) {
    Cell& cell = out.cell;
    AttentionConfig& config = out.config;
    cell.n = cell.m = tokens(allowLarge);
    cell.h = integer(1, 4);
    cell.dK = integer(1, 4);
    cell.dV = coin(0.3) ? cell.dK : integer(1, 4);
    // d = h·d_k or h·d_v lets an identity projection be square; else any width.
    cell.d = pick({cell.h * cell.dK, cell.h * cell.dV, integer(1, 10)});

    // Identity only where square (attention.md, "Widths").
    const bool qkSquare = cell.h * cell.dK == cell.d;
    const bool idQ = qkSquare && coin(0.5), idK = qkSquare && coin(0.5);
    const bool idV = cell.h * cell.dV == cell.d && coin(0.5);
    const bool idO = coin(0.3);
    cell.dO = idO ? cell.h * cell.dV : integer(1, 8);
    cell.WQ = idQ ? ref::identity(cell.d) : matrix(cell.h * cell.dK, cell.d);
    cell.WK = idK ? ref::identity(cell.d) : matrix(cell.h * cell.dK, cell.d);
    cell.WV = idV ? ref::identity(cell.d) : matrix(cell.h * cell.dV, cell.d);
    cell.WO = idO ? ref::identity(cell.dO) : matrix(cell.dO, cell.h * cell.dV);
    const auto toProjection = [](bool id, const Matrix& w) {
        return id ? Projection{} : Projection{false, toArma(w)};
    };
    config.wQ = toProjection(idQ, cell.WQ);
    config.wK = toProjection(idK, cell.WK);
    config.wV = toProjection(idV, cell.WV);
    config.wO = toProjection(idO, cell.WO);
    config.heads = cell.h;
    if (coin(0.5)) {
        config.dK = cell.dK; // else implied by W_Q (or d / h)
    }
    if (coin(0.5)) {
        config.dV = cell.dV;
    }

    // Biases: absent means zeros.
    const auto bias = [&](int length, std::vector<double>& b, arma::rowvec& given) {
        b.assign(size_t(length), 0.0);
        if (coin(0.5)) {
            b = vector(length);
            given = toArma(b);
        }
    };
    bias(cell.h * cell.dK, cell.bQ, config.bQ);
    bias(cell.h * cell.dK, cell.bK, config.bK);
    bias(cell.h * cell.dV, cell.bV, config.bV);
    bias(cell.dO, cell.bO, config.bO);

    // Token vectors, sometimes large enough to make the shares peaky.
    cell.X0 = matrix(cell.n, cell.d, coin(0.3) ? 3.0 : 1.0);
    config.X0 = toArma(cell.X0);
    if (coin(0.3)) {
        for (int r = 0; r < cell.n; ++r) {
            config.tokens.push_back(std::to_string(r));
        }
    }
    switch (integer(0, 2)) {
    case 0:
        cell.P = Matrix(cell.n, cell.d);
        break;
    case 1:
        cell.P = ref::sinusoidal(cell.n, cell.d);
        config.positional = PositionalKind::Sinusoidal;
        out.label += " sinusoidal";
        break;
    default:
        cell.P = matrix(cell.n, cell.d);
        config.positional = PositionalKind::Learned;
        config.learnedP = toArma(cell.P);
        out.label += " learned";
        break;
    }
    out.label += std::string(idQ ? " idQ" : "") + (idK ? " idK" : "") + (idV ? " idV" : "") +
                 (idO ? " idO" : "");
}

void Generator::drawDirect(Draw& out, bool allowLarge) {
    Cell& cell = out.cell;
    AttentionConfig& config = out.config;
    cell.direct = true;
    cell.n = tokens(allowLarge);
    cell.m = coin(0.3) ? cell.n : tokens(allowLarge);
    cell.h = integer(1, 4);
    cell.dK = integer(1, 4);
    cell.dV = integer(1, 4);
    cell.dO = cell.h * cell.dV;
    cell.queries = matrix(cell.n, cell.h * cell.dK, coin(0.3) ? 3.0 : 1.0);
    cell.keys = matrix(cell.m, cell.h * cell.dK);
    cell.values = matrix(cell.m, cell.h * cell.dV);
    config.direct = true;
    config.heads = cell.h;
    config.queries = toArma(cell.queries);
    config.keys = toArma(cell.keys);
    config.values = toArma(cell.values);
    if (coin(0.3)) {
        config.dK = cell.dK;
    }
    out.label += " direct";
}

Draw Generator::draw(bool allowLarge) {
    Draw out;
    if (coin(0.3)) {
        drawDirect(out, allowLarge);
    } else {
        drawProjected(out, allowLarge);
    }
    Cell& cell = out.cell;
    drawMask(out);
    drawScale(out);
    drawUpstream(out);
    out.config.focus = integer(0, cell.n - 1);
    out.label = "n=" + std::to_string(cell.n) + " m=" + std::to_string(cell.m) +
                " d=" + std::to_string(cell.d) + " h=" + std::to_string(cell.h) +
                " d_k=" + std::to_string(cell.dK) + " d_v=" + std::to_string(cell.dV) +
                " d_o=" + std::to_string(cell.dO) + out.label;
    return out;
}

// Redraws `draw`'s matrices at n query rows and m key rows, causal.
Draw resized(Generator& gen, Draw draw, int n, int m, int heads, bool padding) {
    Cell& cell = draw.cell;
    AttentionConfig& config = draw.config;
    cell.n = n;
    cell.m = cell.direct ? m : n;
    cell.h = heads;
    cell.causal = true;
    config.mask = MaskKind::Causal;
    config.heads = heads;
    config.focus = 0;
    config.tokens.clear();
    config.padding.clear();
    cell.padding.assign(size_t(cell.m), false);
    if (padding) {
        for (size_t c = 0; c < cell.padding.size(); ++c) {
            cell.padding[c] = gen.coin(0.2);
        }
        config.padding = cell.padding;
    }
    if (cell.direct) {
        cell.dO = heads * cell.dV;
        cell.queries = gen.matrix(n, heads * cell.dK);
        cell.keys = gen.matrix(cell.m, heads * cell.dK);
        cell.values = gen.matrix(cell.m, heads * cell.dV);
        config.queries = toArma(cell.queries);
        config.keys = toArma(cell.keys);
        config.values = toArma(cell.values);
        config.dK.reset();
    } else {
        // Matrix projections of the drawn widths, for the new head count.
        cell.WQ = gen.matrix(heads * cell.dK, cell.d);
        cell.WK = gen.matrix(heads * cell.dK, cell.d);
        cell.WV = gen.matrix(heads * cell.dV, cell.d);
        cell.WO = gen.matrix(cell.dO, heads * cell.dV);
        config.wQ = {false, toArma(cell.WQ)};
        config.wK = {false, toArma(cell.WK)};
        config.wV = {false, toArma(cell.WV)};
        config.wO = {false, toArma(cell.WO)};
        config.dK.reset();
        config.dV.reset();
        cell.bQ = gen.vector(heads * cell.dK);
        cell.bK = gen.vector(heads * cell.dK);
        cell.bV = gen.vector(heads * cell.dV);
        config.bQ = toArma(cell.bQ);
        config.bK = toArma(cell.bK);
        config.bV = toArma(cell.bV);
        cell.X0 = gen.matrix(n, cell.d);
        config.X0 = toArma(cell.X0);
        cell.P = ref::sinusoidal(n, cell.d);
        config.positional = PositionalKind::Sinusoidal;
    }
    if (config.scaleKind == ScaleKind::InverseSqrtDk) {
        cell.scale = 1.0 / std::sqrt(double(cell.dK));
    }
    cell.upstream = gen.matrix(n, cell.dO);
    config.upstream = toArma(cell.upstream);
    draw.label = "resized to n=" + std::to_string(n) + " m=" + std::to_string(cell.m) +
                 " h=" + std::to_string(heads) + (padding ? " padding" : "") + " from " +
                 draw.label;
    return draw;
}

} // namespace ref::cells
