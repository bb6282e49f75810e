// The random cells of transformer_reference_cells.h: each part of a cell drawn apart, in the
// order the draws were always made (the cells must stay the same from run to run).
#include "transformer_reference_cells.h"

#include <string>
#include <vector>

namespace tref::cells {

// ---------------------------------------------------------------------------
// Random cells: one draw gives the reference Cell (every default spelled out, the switches
// applied) and the TransformerConfig that says the same thing the way a document would.

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

namespace {

// Tokens and the unembedding: tied (X0 is rows of the vocab picked by the tokens, and the vocab
// scores the words) or separate (X0 given, U its own matrix); then b_U, given or zero.
void drawTokensAndUnembedding(Generator& gen, Draw& out, bool forGeneration) {
    tref::Cell& cell = out.cell;
    TransformerConfig& config = out.config;
    const int n = cell.n, d = cell.d, V = cell.V;
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
}

// The positions: none, sinusoidal or learned (not learned for generation: they must extend).
void drawPositions(Generator& gen, Draw& out, bool forGeneration) {
    tref::Cell& cell = out.cell;
    TransformerConfig& config = out.config;
    const int n = cell.n, d = cell.d;
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
}

// The LayerNorms' ε: the default or 1e-3.
void drawEps(Generator& gen, Draw& out) {
    tref::Cell& cell = out.cell;
    TransformerConfig& config = out.config;
    cell.eps = Real(config.eps); // the double 1e-5, not 1e-5L
    if (gen.coin(0.2)) {
        config.eps = 1e-3;
        cell.eps = Real(config.eps);
        note(out, "eps=1e-3");
    }
}

// L layers (attention, padding unless for generation, both norms, the FFN), then the final
// LayerNorm.
void drawLayers(Generator& gen, Draw& out, int L, bool forGeneration) {
    tref::Cell& cell = out.cell;
    TransformerConfig& config = out.config;
    const int n = cell.n, d = cell.d;
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
}

// Targets (some −1, at least one word), or an upstream gradient (given or ones).
void drawTargets(Generator& gen, Draw& out) {
    tref::Cell& cell = out.cell;
    TransformerConfig& config = out.config;
    const int n = cell.n, V = cell.V;
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
}

// The window's switches (layers run, norms, FFNs), applied to the reference's model.
void drawSwitches(Generator& gen, Draw& out, int L, bool forGeneration) {
    tref::Cell& cell = out.cell;
    TransformerConfig& config = out.config;
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
}

} // namespace

// A whole cell. For generation: tied, causal in every layer, no padding, P none or
// sinusoidal (positions must extend) and every layer run. Its parts are drawn in this order.
Draw drawCell(Generator& gen, bool forGeneration) {
    Draw out;
    tref::Cell& cell = out.cell;
    const int n = cell.n = gen.integer(1, 6);
    const int d = cell.d = gen.pick({3, 4, 4, 6, 8, 8});
    const int L = gen.integer(1, 3);
    const int V = cell.V = gen.integer(2, 8);
    out.label = "n=" + std::to_string(n) + " d=" + std::to_string(d) + " L=" + std::to_string(L) +
                " V=" + std::to_string(V);
    out.kinds.insert("L=" + std::to_string(L));

    drawTokensAndUnembedding(gen, out, forGeneration);
    drawPositions(gen, out, forGeneration);
    drawEps(gen, out);
    drawLayers(gen, out, L, forGeneration);
    cell.T = out.config.temperature = gen.pick({0.5, 1.0, 2.0});
    note(out, "T=" + std::to_string(out.config.temperature).substr(0, 3));
    drawTargets(gen, out);
    drawSwitches(gen, out, L, forGeneration);
    return out;
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

} // namespace tref::cells
