// The comparisons of transformer_reference_compare.h, stage by stage.
#include "transformer_reference_compare.h"

#include <cstdio>

#include <algorithm>
#include <cmath>
#include <string>

namespace tref::cells {

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

} // namespace tref::cells
